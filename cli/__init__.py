"""`tinker-tray`, the command line: the one place that wires a tray (GPIO, emulator or USB
bridge) to the scoreboard and digital play. Nothing else imports it.
"""
