"""Stacked decks and small shortcuts for rule tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.disney import actions as A
from engine.disney import cards as C
from engine.disney import rulesets
from engine.disney.game import Game


def deck_for(
    players: int,
    hands: dict[int, Sequence[str]],
    top: str,
    draw: Sequence[str] = (),
    dealer: int = 0,
    returned: Sequence[str] = (),
    ruleset: str = "disney",
) -> list[int]:
    """A deck of `ruleset` (top card first) that deals `hands` (seat -> up to 7 codes, padded
    with filler), turns up `returned` cards then `top`, and has `draw` on top of the DRAW pile."""
    pool = Counter(rulesets.get(ruleset).deck_for(players))
    wanted = [c for h in hands.values() for c in h] + [top, *draw, *returned]
    for code in wanted:
        cid = C.card(code)
        if pool[cid] == 0:
            raise ValueError(f"the deck has no more {code}")
        pool[cid] -= 1
    filler = list(pool.elements())  # what is left, in the deck's own order
    full = {seat: list(C.cards(hands.get(seat, ()))) for seat in range(players)}
    for seat in range(players):
        while len(full[seat]) < 7:
            full[seat].append(filler.pop(0))
    deck = []
    for i in range(7 * players):
        deck.append(full[(dealer + 1 + i) % players][i // players])
    deck += [*C.cards(returned), C.card(top), *C.cards(draw), *filler]
    return deck


def game(
    players: int,
    hands: dict[int, Sequence[str]],
    top: str,
    draw: Sequence[str] = (),
    dealer: int = 0,
    options: dict | None = None,
    returned: Sequence[str] = (),
    ruleset: str = "disney",
) -> Game:
    """A dealt game of `ruleset` in which each seat listed in `hands` holds exactly those cards
    (the padding a deal needs goes under the DRAW pile, so every card stays accounted for)."""
    g = Game(ruleset, [f"P{s}" for s in range(players)], dealer, options)
    g.start_hand(deck_for(players, hands, top, draw, dealer, returned, ruleset))
    h = g.hand
    for seat, codes in hands.items():
        held = h.hands[h.pos_of[seat]]
        extra = held[len(codes) :]
        del held[len(codes) :]
        h.draw[0:0] = extra
    return g


def hand_of(g: Game, seat: int) -> list[str]:
    h = g.hand
    return sorted(C.code(c) for c in h.hands[h.pos_of[seat]])


def play(g: Game, code: str, colour: str | None = None, uno: bool = False, seat=None) -> None:
    ev = {"seat": g.current_player() if seat is None else seat, "act": "play", "card": code}
    if colour:
        ev["colour"] = colour
    if uno:
        ev["uno"] = True
    g.apply_event(ev)


def act(g: Game, act_: str, seat=None, **fields) -> None:
    g.apply_event({"seat": g.current_player() if seat is None else seat, "act": act_, **fields})


def tinker(g: Game, colour: str) -> None:
    g.apply_event({"chance": "tinker_bell", "colour": colour})


def counts(g: Game) -> Counter:
    return Counter(g.hand.all_cards())


def refused(g: Game, fn, *args, rule: str | None = None, **kw):
    """Apply and expect a RuleError that changes nothing at all; returns the error."""
    import pytest

    from engine.disney.hand import RuleError

    before = (g.summary(), counts(g), list(g.events))
    with pytest.raises(RuleError) as info:
        fn(g, *args, **kw)
    assert (g.summary(), counts(g), list(g.events)) == before
    if rule:
        assert info.value.rule == rule, info.value.rule
    return info.value


def legal_codes(g: Game) -> set[str]:
    """The cards the player to move may play now, as codes."""
    return {C.code(a // 8) for a in g.legal_actions() if a < A.PROTECT}


__all__ = [
    "A",
    "act",
    "counts",
    "deck_for",
    "game",
    "hand_of",
    "legal_codes",
    "play",
    "refused",
    "tinker",
]
