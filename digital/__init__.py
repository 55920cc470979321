"""Digital play: the engine holds every hand, people play seats in the browser or the terminal
against bots, and the tray's Tinker Bell button (real or virtual) makes every pick. Finished
hands go to the scoreboard; every move is journaled there, so a restart carries on.
"""
