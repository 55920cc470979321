"""Elite actions as small ints, and their one codec (what a number means in each phase).

PLAY + k     play an UNO card of kind k (the game's `kinds`: its deck's distinct codes)
DRAW, PASS   draw one card; keep the card just drawn (or pass when nothing can be done)
DONE         stop: decline to activate, stop recovering with a Wild Recover
UNO          call UNO (any seat holding one card that has not called it)
TOP, BOTTOM  a Searched card stays on top of the Player Deck, or goes under it
COLOUR + c   name a colour (red, blue, green, yellow)
TARGET + s   choose seat s for a power
CATCH + s    catch seat s holding one card without having called UNO
CARD + k     choose an UNO card of kind k (to discard, recover, keep)
ELITE + i    choose Elite card i (the game's `elite_cards`): activate, recover, discard,
             substitute, draft
"""

from __future__ import annotations

PLAY = 0
DRAW = 1000
PASS = 1001
DONE = 1002
UNO = 1003
TOP = 1004
BOTTOM = 1005
COLOUR = 1010
TARGET = 1100
CATCH = 1200
CARD = 2000
ELITE = 10000
_LIMIT = 100000

PLAY_KIND = "play"
DRAW_KIND = "draw"
PASS_KIND = "pass"
DONE_KIND = "done"
UNO_KIND = "uno"
TOP_KIND = "top"
BOTTOM_KIND = "bottom"
COLOUR_KIND = "colour"
TARGET_KIND = "target"
CATCH_KIND = "catch"
CARD_KIND = "card"
ELITE_KIND = "elite"

_SINGLE = {DRAW: DRAW_KIND, PASS: PASS_KIND, DONE: DONE_KIND, UNO: UNO_KIND, TOP: TOP_KIND}
_SINGLE[BOTTOM] = BOTTOM_KIND
_RANGES = (
    (ELITE, _LIMIT, ELITE_KIND),
    (CARD, ELITE, CARD_KIND),
    (CATCH, CARD, CATCH_KIND),
    (TARGET, CATCH, TARGET_KIND),
    (COLOUR, COLOUR + 4, COLOUR_KIND),
    (PLAY, DRAW, PLAY_KIND),
)


def decode(action: int) -> tuple[str, int]:
    """(kind, argument): the argument is a card kind, seat, colour or Elite card index."""
    if action in _SINGLE:
        return _SINGLE[action], 0
    for low, high, kind in _RANGES:
        if low <= action < high:
            return kind, action - low
    raise ValueError(f"no such action: {action}")


def is_call(action: int) -> bool:
    """UNO or a catch: the calls any seat may make out of turn."""
    return action == UNO or CATCH <= action < CARD
