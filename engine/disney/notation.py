"""Translation between engine actions (ints) and game-record events (dicts).

One place for both directions, so what the engine writes is exactly what it reads back. An
order of cards' event (`order_event`) is written here too; it is read back by
`engine.disney.deckchance` (`engine.chance`: every ruleset's orders).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from engine import chance
from engine.disney import actions as A
from engine.disney import cards as C
from engine.disney.actions import Decoded, Kind
from engine.disney.handstate import HandState
from engine.disney.steps import DISCARD
from engine.errors import EventError, RuleError


def event_for(hand: HandState, seat: int, move: Decoded) -> dict[str, Any]:
    """The record event for `move` by `seat`, read before it is applied."""
    kind = move.kind
    if kind == Kind.PLAY or kind == Kind.PROTECT:
        ev: dict[str, Any] = {"seat": seat, "act": _ACT_OF[kind], "card": C.code(move.card)}
        if kind == Kind.PLAY and hand.variant.names_colour[move.card]:
            ev["colour"] = C.COLOURS[move.colour]
        if move.uno:
            ev["uno"] = True
        return ev
    if kind == Kind.CHALLENGE:
        return {"seat": seat, "act": "challenge", "target": hand.seats[hand.actor]}
    if kind == Kind.COLOUR:
        return {"seat": seat, "act": "colour", "colour": C.COLOURS[move.colour]}
    if kind == Kind.TARGET or kind == Kind.CATCH:
        return {"seat": seat, "act": _ACT_OF[kind], "target": move.seat}
    if kind == Kind.MISPLAY:
        return {"seat": seat, "act": "misplay", "card": C.code(move.card)}
    if kind in _ACT_OF and kind not in _AGGREGATED:
        return {"seat": seat, "act": _ACT_OF[kind]}
    raise EventError(f"no event for a {kind.name.lower()} action")  # DISCARD/DONE: `Log`


ORDER_FIELD: Final = "deck"
"""The key of an order's event: {"chance": "reshuffle", "deck": ["R7", ...]}."""


def order_event(kind: str, order: list[int]) -> dict[str, Any]:
    """The record event of a whole order of cards (a new hand's deck, a reshuffle, a Wild
    Shuffle Hands' new deal: `engine.disney.deckchance`)."""
    return chance.event(kind, ORDER_FIELD, order, C.code)


_ACT_OF = {
    Kind.PLAY: "play",
    Kind.PROTECT: "protect",
    Kind.DRAW: "draw",
    Kind.PASS: "pass",
    Kind.TAKE: "take",
    Kind.UNO: "uno",
    Kind.FLIP: "flip",
    Kind.TARGET: "target",
    Kind.CATCH: "catch",
    Kind.SLAP: "slap",
}
"""The record's `act` for each kind of action."""
_AGGREGATED = frozenset({Kind.DISCARD, Kind.DONE})


_ACTS = {
    "play",
    "draw",
    "pass",
    "uno",
    "catch",
    "challenge",
    "target",
    "protect",
    "take",
    "discard",
    "colour",
    "misplay",
    "flip",
    "slap",
}


def _seat(ev: dict[str, Any], key: str) -> int:
    value = ev.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise EventError(f"'{key}' must be a seat number, not {value!r}")
    return value


def _uno(ev: dict[str, Any]) -> bool:
    value = ev.get("uno", False)
    if not isinstance(value, bool):
        raise EventError(f"'uno' must be true or false, not {value!r}")
    return value


def actions_for(hand: HandState, ev: dict[str, Any]) -> tuple[int, list[int]]:
    """(seat, actions) for a player event. A `discard` event becomes one action per card (and a
    final DONE when the player could have gone on); the others are one action each."""
    act = ev.get("act")
    if act not in _ACTS:
        raise EventError(f"unknown act {act!r} (acts: {', '.join(sorted(_ACTS))})")
    seat = _seat(ev, "seat")
    if act == "play":
        return seat, [_play_action(hand, ev)]
    if act == "discard":
        return seat, _discard_actions(hand, ev, seat)
    return seat, [_ONE_ACTION[act](ev)]


_ONE_ACTION: dict[str, Callable[[dict[str, Any]], int]] = {
    "protect": lambda ev: A.protect(C.card(ev.get("card")), _uno(ev)),
    "draw": lambda ev: A.DRAW,
    "flip": lambda ev: A.FLIP,
    "pass": lambda ev: A.PASS,
    "take": lambda ev: A.TAKE,
    "uno": lambda ev: A.UNO,
    "challenge": lambda ev: A.CHALLENGE,
    "colour": lambda ev: A.COLOUR + C.colour(ev.get("colour")),
    "target": lambda ev: A.TARGET + _seat(ev, "target"),
    "misplay": lambda ev: A.MISPLAY + C.card(ev.get("card")),
    "catch": lambda ev: A.CATCH + _seat(ev, "target"),
    "slap": lambda ev: A.SLAP + _seat(ev, "seat"),  # (a hand on the 6 is its seat's own)
}
"""The events that are one action each, apart from `play` (which checks its colour)."""


def _play_action(hand: HandState, ev: dict[str, Any]) -> int:
    card = C.card(ev.get("card"))
    colour = 0
    if hand.variant.names_colour[card]:
        if "colour" not in ev:
            raise RuleError(
                "colour", f'Name the colour when you play a {C.name(card)} ("colour": ...).'
            )
        colour = C.colour(ev["colour"])
    elif "colour" in ev:
        raise RuleError("colour", f"Only a Wild lets you name a colour, not {C.name(card)}.")
    return A.play(card, colour, _uno(ev))


def _discard_actions(hand: HandState, ev: dict[str, Any], seat: int) -> list[int]:
    """One DISCARD action per card, UNO said on the next-to-last card, then DONE unless the
    event says `more` (another event came between two of the player's discards)."""
    codes = ev.get("cards")
    if not isinstance(codes, list):
        raise EventError("'cards' must be a list of card codes, [] to discard none")
    cards = C.cards(codes)
    uno = _uno(ev)
    if hand.phase != DISCARD:
        raise RuleError("phase", "Nothing to discard: no Wild Discard All is waiting.")
    held = list(hand.hands[hand.pos_of.get(seat, hand.to_move)])
    t = hand.tinker_colour
    for card in cards:  # check the whole list before laying any of it
        if C.COLOUR_OF[card] != t:
            raise RuleError(
                "discard-colour",
                f"Tinker Bell chose {C.COLOURS[t]}: only {C.COLOURS[t]} cards may be "
                f"discarded, not {C.name(card)}.",
            )
        if card not in held:
            raise RuleError("not-in-hand", f"There is no {C.name(card)} left to discard.")
        held.remove(card)
    left = len(held) + len(cards)
    acts = []
    called = False
    for card in cards:
        last_but_one = left == 2
        acts.append(A.discard(card, uno and last_but_one))
        called |= uno and last_but_one
        left -= 1
    if uno and not called:
        raise RuleError("uno-call", "UNO is called as you lay your next-to-last card.")
    more = ev.get("more", False)
    if not isinstance(more, bool):
        raise EventError(f"'more' must be true or false, not {more!r}")
    return acts if more else [*acts, A.DONE]
