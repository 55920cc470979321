"""Translation between engine actions (ints) and game-record events (dicts).

One place for both directions, so what the engine writes is exactly what it reads back.
"""

from __future__ import annotations

from typing import Any

from engine import actions as A
from engine import cards as C
from engine.hand import DISCARD, Hand, RuleError


class EventError(ValueError):
    """An event that is not well formed (as opposed to one the rules forbid)."""


def event_for(hand: Hand, seat: int, action: int) -> dict[str, Any]:
    """The record event for `action` by `seat`, read before the action is applied."""
    if action < A.PROTECT:
        card, rest = divmod(action, 8)
        colour, uno = divmod(rest, 2)
        ev: dict[str, Any] = {"seat": seat, "act": "play", "card": C.code(card)}
        if hand.namer[card]:
            ev["colour"] = C.COLOURS[colour]
        if uno:
            ev["uno"] = True
        return ev
    if action < A.DISCARD:
        card, uno = divmod(action - A.PROTECT, 2)
        ev = {"seat": seat, "act": "protect", "card": C.code(card)}
        if uno:
            ev["uno"] = True
        return ev
    simple = {A.DRAW: "draw", A.PASS: "pass", A.TAKE: "take", A.UNO: "uno", A.FLIP: "flip"}
    if action in simple:
        return {"seat": seat, "act": simple[action]}
    if action == A.CHALLENGE:
        return {"seat": seat, "act": "challenge", "target": hand.seats[hand.actor]}
    if A.COLOUR <= action < A.COLOUR + 4:
        return {"seat": seat, "act": "colour", "colour": C.COLOURS[action - A.COLOUR]}
    if A.TARGET <= action < A.TARGET + 100:
        return {"seat": seat, "act": "target", "target": action - A.TARGET}
    if A.CATCH <= action < A.CATCH + 100:
        return {"seat": seat, "act": "catch", "target": action - A.CATCH}
    if A.MISPLAY <= action < A.MISPLAY + C.NCARDS:
        return {"seat": seat, "act": "misplay", "card": C.code(action - A.MISPLAY)}
    raise EventError(f"no event for action {action}")  # DISCARD/DONE are aggregated by Game


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


def actions_for(hand: Hand, ev: dict[str, Any]) -> tuple[int, list[int]]:
    """(seat, actions) for a player event. A `discard` event becomes one action per card (and a
    final DONE when the player could have gone on); the others are one action each."""
    act = ev.get("act")
    if act not in _ACTS:
        raise EventError(f"unknown act {act!r} (acts: {', '.join(sorted(_ACTS))})")
    seat = _seat(ev, "seat")
    if act == "play":
        card = C.card(ev.get("card"))
        colour = 0
        if hand.namer[card]:
            if "colour" not in ev:
                raise RuleError(
                "colour", f'Name the colour when you play a {C.name(card)} ("colour": ...).'
            )
            colour = C.colour(ev["colour"])
        elif "colour" in ev:
            raise RuleError("colour", f"Only a Wild lets you name a colour, not {C.name(card)}.")
        return seat, [A.play(card, colour, _uno(ev))]
    if act == "protect":
        return seat, [A.protect(C.card(ev.get("card")), _uno(ev))]
    if act == "discard":
        codes = ev.get("cards")
        if not isinstance(codes, list):
            raise EventError("'cards' must be a list of card codes, [] to discard none")
        cards = C.cards(codes)
        uno = _uno(ev)
        if hand.phase != DISCARD:
            raise RuleError("phase", "Nothing to discard: no Wild Discard All is waiting.")
        held = list(hand.hands[hand.pos_of.get(seat, hand.cur)])
        t = hand.tb_colour
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
        return seat, acts if more else [*acts, A.DONE]
    if act == "draw":
        return seat, [A.DRAW]
    if act == "flip":
        return seat, [A.FLIP]
    if act == "pass":
        return seat, [A.PASS]
    if act == "take":
        return seat, [A.TAKE]
    if act == "uno":
        return seat, [A.UNO]
    if act == "challenge":
        return seat, [A.CHALLENGE]
    if act == "colour":
        return seat, [A.COLOUR + C.colour(ev.get("colour"))]
    if act == "target":
        return seat, [A.TARGET + _seat(ev, "target")]
    if act == "misplay":
        return seat, [A.MISPLAY + C.card(ev.get("card"))]
    return seat, [A.CATCH + _seat(ev, "target")]  # catch
