"""What a hand is waiting for: a player's move of some kind, a chance event, or nothing (over).

Players' phases come first, then the chance phases (TINKER..SHUFFLE), then OVER, so that
`phase >= TINKER` reads "no player moves now" in one comparison on the hot path.
"""

from __future__ import annotations

from typing import Final

PLAY: Final = 0  # play a card or draw
PLAY_DRAWN: Final = 1  # play the card just drawn, or keep it
COLOUR: Final = 2  # name the colour of a Wild turned up as the first discard
TARGET: Final = 3  # choose a player (Draw 2 matched by Tinker Bell, swap hands)
PROTECT: Final = 4  # lay a Pixie Dust Protection card (Villain Draw 4)
DISCARD: Final = 5  # discard cards of Tinker Bell's colour (Wild Discard All)
RESPOND: Final = 6  # take the cards, challenge or stack (classic draw cards)
FLIP: Final = 7  # Vegas: turn over the top card of the draw pile
TINKER: Final = 8  # chance: Tinker Bell's pick
RESHUFFLE: Final = 9  # chance: the discard pile shuffled into a new draw pile
SHUFFLE: Final = 10  # chance: Wild Shuffle Hands deals every held card again
OVER: Final = 11

PHASE_NAMES: Final = (
    "play",
    "play_drawn",
    "colour",
    "target",
    "protect",
    "discard",
    "respond",
    "flip",
    "tinker_bell",
    "reshuffle",
    "shuffle_hands",
    "over",
)
