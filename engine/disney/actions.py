"""Actions as small ints (OpenSpiel style): cheap to list, compare and pick at random.

The game record speaks in events (`{"seat": 1, "act": "play", "card": "R7"}`); `disney.notation`
translates between the two. Seats in TARGET and CATCH are seat numbers, not positions.

`decode(action)` is the one place an action int is taken apart: every reader (the rules' checks,
`describe`, the record's notation, the displays) asks it instead of doing the arithmetic again.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import Final, NamedTuple

from engine.disney import cards as C

# play a card: card * 8 + chosen colour * 2 + uno  (chosen colour only for a Wild; else 0)
PROTECT: Final = 1000  # + card * 2 + uno
DISCARD: Final = 2000  # + card * 2 + uno
DRAW: Final = 3000
PASS: Final = 3001  # keep the playable card just drawn
DONE: Final = 3002  # stop discarding after a Wild Discard All
TAKE: Final = 3003  # take the cards (a Villain Draw 4's four, a draw card's penalty)
UNO: Final = 3004  # a late UNO call ("catching yourself")
CHALLENGE: Final = 3005  # challenge the (Villain or Wild) Draw 4 just played
FLIP: Final = 3006  # Vegas: turn over the top card of the draw pile
COLOUR: Final = 3100  # + colour: name the colour of a Wild turned up as the first discard
TARGET: Final = 3200  # + seat: who draws 2 when Tinker Bell matches a Draw 2 (or swaps hands)
CATCH: Final = 3300  # + seat: catch that seat holding one card without having called UNO
MISPLAY: Final = 3400  # + card: a wrong card was laid, is taken back, its player draws the penalty
PICK: Final = 3500  # + colour: Tinker Bell's pick, a chance outcome (OpenSpiel's chance action)
SLAP: Final = 3520  # + seat: that seat's hand on the 6 (6-Smackdown), its call or chance's outcome
CARD_NEXT: Final = 3600  # + card: the next card of an order of cards, a chance outcome
SIZE: Final = CARD_NEXT + C.NCARDS  # every action is below this
SEATS: Final = 60  # the seats a SLAP can name: more than any table (3520 to 3579)


class Kind(IntEnum):
    """What an action does, whatever its card, colour or seat."""

    PLAY = 0
    PROTECT = 1
    DISCARD = 2
    DRAW = 3
    PASS = 4
    DONE = 5
    TAKE = 6
    UNO = 7
    CHALLENGE = 8
    FLIP = 9
    COLOUR = 10
    TARGET = 11
    CATCH = 12
    MISPLAY = 13
    PICK = 14
    CARD_NEXT = 15
    UNKNOWN = 16
    SLAP = 17


class Decoded(NamedTuple):
    """An action taken apart. Fields an action does not use are 0 (`seat` is -1)."""

    kind: Kind
    card: int = 0
    colour: int = 0  # the colour named by a Wild, or by COLOUR
    uno: bool = False  # UNO called with the next-to-last card
    seat: int = -1  # TARGET, CATCH and SLAP


def play(card: int, colour: int = 0, uno: bool = False) -> int:
    return card * 8 + colour * 2 + uno


def protect(card: int, uno: bool = False) -> int:
    return PROTECT + card * 2 + uno


def discard(card: int, uno: bool = False) -> int:
    return DISCARD + card * 2 + uno


_FIXED = {
    DRAW: Kind.DRAW,
    PASS: Kind.PASS,
    DONE: Kind.DONE,
    TAKE: Kind.TAKE,
    UNO: Kind.UNO,
    CHALLENGE: Kind.CHALLENGE,
    FLIP: Kind.FLIP,
}


def _decode(action: int) -> Decoded:
    if 0 <= action < PROTECT:
        card, rest = divmod(action, 8)
        return Decoded(Kind.PLAY, card, rest >> 1, bool(rest & 1))
    if PROTECT <= action < DISCARD:
        card, uno = divmod(action - PROTECT, 2)
        return Decoded(Kind.PROTECT, card, 0, bool(uno))
    if DISCARD <= action < DRAW:
        card, uno = divmod(action - DISCARD, 2)
        return Decoded(Kind.DISCARD, card, 0, bool(uno))
    if action in _FIXED:
        return Decoded(_FIXED[action])
    if COLOUR <= action < COLOUR + 4:
        return Decoded(Kind.COLOUR, colour=action - COLOUR)
    if TARGET <= action < TARGET + 100:
        return Decoded(Kind.TARGET, seat=action - TARGET)
    if CATCH <= action < CATCH + 100:
        return Decoded(Kind.CATCH, seat=action - CATCH)
    if MISPLAY <= action < MISPLAY + C.NCARDS:
        return Decoded(Kind.MISPLAY, action - MISPLAY)
    if PICK <= action < PICK + 4:
        return Decoded(Kind.PICK, colour=action - PICK)
    if SLAP <= action < SLAP + SEATS:
        return Decoded(Kind.SLAP, seat=action - SLAP)
    if CARD_NEXT <= action < SIZE:
        return Decoded(Kind.CARD_NEXT, action - CARD_NEXT)
    return Decoded(Kind.UNKNOWN)


_DECODED: dict[int, Decoded] = {}


def decode(action: int) -> Decoded:
    """The action taken apart (each action once: a simulation asks for the same few often)."""
    known = _DECODED.get(action)
    if known is None:
        known = _decode(action)
        if 0 <= action < SIZE:
            _DECODED[action] = known
    return known


def _kinds() -> tuple[Kind, ...]:
    kinds = [Kind.PLAY] * PROTECT + [Kind.PROTECT] * (DISCARD - PROTECT)
    kinds += [Kind.DISCARD] * (DRAW - DISCARD) + [Kind.UNKNOWN] * (SIZE - DRAW)
    for action, fixed in _FIXED.items():
        kinds[action] = fixed
    for first, count, what in (
        (COLOUR, 4, Kind.COLOUR),
        (TARGET, 100, Kind.TARGET),
        (CATCH, 100, Kind.CATCH),
        (MISPLAY, C.NCARDS, Kind.MISPLAY),
        (PICK, 4, Kind.PICK),
        (SLAP, SEATS, Kind.SLAP),
        (CARD_NEXT, C.NCARDS, Kind.CARD_NEXT),
    ):
        kinds[first : first + count] = [what] * count
    return tuple(kinds)


KIND_OF: Final = _kinds()
"""The kind of every action below SIZE, by index: the rules' dispatch on the hot path."""


CARD_OF: Final = tuple(
    [a >> 3 for a in range(PROTECT)] + [(a % 1000) >> 1 for a in range(PROTECT, DRAW)]
)
"""`decode(action).card` of every action with a card (plays, protections, discards), by
index: what the rules' hot path reads (tests/engine/test_actions.py holds it to `decode`)."""
COLOUR_NAMED: Final = tuple([(a >> 1) & 3 for a in range(PROTECT)] + [0] * (DRAW - PROTECT))
"""`decode(action).colour` of every action with a card, by index."""
UNO_SAID: Final = tuple([bool(a & 1) for a in range(DRAW)])
"""`decode(action).uno` of every action with a card, by index."""


def kind(action: int) -> Kind:
    return KIND_OF[action] if 0 <= action < SIZE else Kind.UNKNOWN


_NAMERS = frozenset({C.WILD, C.WILD_DRAW4, C.WILD_SHUFFLE_HANDS, C.WILD_CUSTOM})
_WORDS = {
    Kind.DRAW: "draw a card",
    Kind.PASS: "keep the drawn card",
    Kind.DONE: "stop discarding",
    Kind.TAKE: "take the cards",
    Kind.UNO: "call UNO",
    Kind.CHALLENGE: "challenge the Draw 4",
    Kind.FLIP: "turn over the top card (Vegas)",
}


def card_name(card: int) -> str:
    """A card's name, or "card N" for an id that is no card (a refusal still reads well)."""
    return C.name(card) if 0 <= card < C.NCARDS and C.CODE_OF[card] else f"card {card}"


def describe(action: int, names: Sequence[str] = ()) -> str:
    """An action in words, for errors, logs and bots' explanations (`names`: the players by
    seat, to name a seat chosen or caught)."""
    d = decode(action)
    uno = " and call UNO" if d.uno else ""
    if d.kind == Kind.PLAY:
        named = f" calling {C.COLOURS[d.colour]}" if d.card in _NAMERS else ""
        return f"play {card_name(d.card)}{named}{uno}"
    if d.kind == Kind.PROTECT:
        return f"protect with {card_name(d.card)}{uno}"
    if d.kind == Kind.DISCARD:
        return f"discard {card_name(d.card)}{uno}"
    if d.kind in _WORDS:
        return _WORDS[d.kind]
    if d.kind == Kind.COLOUR:
        return f"name {C.COLOURS[d.colour]}"
    who = names[d.seat] if 0 <= d.seat < len(names) else f"seat {d.seat}"
    if d.kind == Kind.TARGET:
        return f"choose {who}"
    if d.kind == Kind.CATCH:
        return f"catch {who} without UNO"
    if d.kind == Kind.MISPLAY:
        return f"take back the wrong card {card_name(d.card)}"
    if d.kind == Kind.PICK:
        return f"Tinker Bell picks {C.COLOURS[d.colour]}"
    if d.kind == Kind.SLAP:
        return f"{who}'s hand on the 6"
    if d.kind == Kind.CARD_NEXT:
        return f"the next card is {card_name(d.card)}"
    return f"unknown action {action}"
