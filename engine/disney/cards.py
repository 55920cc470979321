"""Cards as small ints, with lookup tables, because the hot loop of a simulation touches them
millions of times. `R7`-style codes (the game record's) are only for the edges.

Coloured cards: colour * 16 + rank. Black cards: 64 + k.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from engine.colours import COLOUR_LETTERS, COLOURS  # (every ruleset's: re-exported here)
from engine.errors import EventError

BLACK: Final = 4  # the "colour" of a wild card

# ranks of coloured cards
SKIP = 10
REVERSE = 11
DRAW2 = 12
VEGAS = 13
RANK_CODES = {**{str(n): n for n in range(10)}, "S": SKIP, "R": REVERSE, "D2": DRAW2, "V": VEGAS}
RANK_WORDS = {SKIP: "Skip", REVERSE: "Reverse", DRAW2: "Draw 2", VEGAS: "Vegas"}

# black cards
WILD = 64
WILD_DRAW4 = 65
VILLAIN_DRAW4 = 66
WILD_DISCARD_ALL = 67
WILD_SHUFFLE_HANDS = 68
WILD_CUSTOM = 69
BLACK_CODES = {
    "W": WILD,
    "W4": WILD_DRAW4,
    "VD4": VILLAIN_DRAW4,
    "WDA": WILD_DISCARD_ALL,
    "WSH": WILD_SHUFFLE_HANDS,
    "WC": WILD_CUSTOM,
}
BLACK_WORDS = {
    WILD: "Wild",
    WILD_DRAW4: "Wild Draw 4",
    VILLAIN_DRAW4: "Villain Draw 4",
    WILD_DISCARD_ALL: "Wild Discard All 1 Color",
    WILD_SHUFFLE_HANDS: "Wild Shuffle Hands",
    WILD_CUSTOM: "Wild Customizable",
}
NCARDS: Final = 70  # size of the per-card lookup tables

COLOUR_OF: Final = [c >> 4 if c < 64 else BLACK for c in range(NCARDS)]
RANK_OF: Final = [c & 15 if c < 64 else c for c in range(NCARDS)]
"""Rank for matching "by number or word": a black card's rank is its own id."""
CARDS_OF_COLOUR: Final = [
    frozenset(c for c in range(NCARDS) if COLOUR_OF[c] == k) for k in range(BLACK + 1)
] + [frozenset()]
"""The card ids of each colour, by colour (BLACK: the wild cards); the last, empty, is for -1 (no
colour picked yet). `not CARDS_OF_COLOUR[k].isdisjoint(hand)`: does the hand hold colour k?"""

CODE_OF: Final[list[str]] = [""] * NCARDS
NAME_OF: Final[list[str]] = [""] * NCARDS
CARD_OF_CODE: dict[str, int] = {}
for _colour in range(4):
    for _code, _rank in RANK_CODES.items():
        _id = _colour * 16 + _rank
        CODE_OF[_id] = COLOUR_LETTERS[_colour] + _code
        NAME_OF[_id] = f"{COLOURS[_colour].capitalize()} {RANK_WORDS.get(_rank, _rank)}"
        CARD_OF_CODE[CODE_OF[_id]] = _id
for _code, _id in BLACK_CODES.items():
    CODE_OF[_id] = _code
    NAME_OF[_id] = BLACK_WORDS[_id]
    CARD_OF_CODE[_code] = _id


class CardError(EventError):
    """A card code or colour name that does not exist (an event naming one is not well formed:
    every layer that answers an `EventError` answers this one alike)."""


def card(code: object) -> int:
    """The card for a record code such as `R7`, `GD2` or `VD4`."""
    if isinstance(code, str) and code in CARD_OF_CODE:
        return CARD_OF_CODE[code]
    raise CardError(f"unknown card {code!r} (cards look like R7, GS, YR, BD2, W, VD4, WDA)")


def cards(codes: Iterable[object]) -> list[int]:
    return [card(c) for c in codes]


def code(card_id: int) -> str:
    return CODE_OF[card_id]


def name(card_id: int) -> str:
    """The card as a player says it: "Red 7", "Green Draw 2", "Villain Draw 4"."""
    return NAME_OF[card_id]


def colour(name_: object) -> int:
    """The colour index for a colour name (`red`, `blue`, `green`, `yellow`)."""
    if isinstance(name_, str) and name_ in COLOURS:
        return COLOURS.index(name_)
    raise CardError(f"unknown colour {name_!r} (colours are {', '.join(COLOURS)})")


def matches(card_id: int, colour_in_play: int, top_rank: int) -> bool:
    """The matching rule of every ruleset: by colour, by number or word, or any wild ("Match
    the top card on the DISCARD pile either by number, color or word"). Read through
    `MATCHING`, worked out from it once."""
    return card_id >= 64 or COLOUR_OF[card_id] == colour_in_play or RANK_OF[card_id] == top_rank


_NO_CARDS: frozenset[int] = frozenset()
_RANKS = frozenset(RANK_OF)
MATCHING: Final = [
    frozenset(c for c in range(NCARDS) if CODE_OF[c] and matches(c, colour_, rank))
    if rank in _RANKS  # (a top card's rank: 0-15, or a wild's own id)
    else _NO_CARDS
    for colour_ in range(BLACK + 1)
    for rank in range(80)
]
"""The cards that match, by colour in play * 80 + the top card's rank (`matching`)."""
_NO_FLAGS = bytes(NCARDS)
MATCHES: Final = [
    bytes(c in cards for c in range(NCARDS)) if cards else _NO_FLAGS for cards in MATCHING
]
"""`MATCHING` again, as a row of flags by card id: `MATCHES[key][card]` is 1 if it matches
(what the legal plays read: a compiled engine reads a flag faster than it asks a set)."""


def matching(colour_in_play: int, top_card: int) -> frozenset[int]:
    """The cards that may be laid on `top_card` with `colour_in_play` (`matches`)."""
    return MATCHING[colour_in_play * 80 + RANK_OF[top_card]]
