"""The Disney family's orders of many cards: its rules of the one chance node (`engine.chance`).

new_hand       the whole deck, top first, for the next hand's deal
reshuffle      the DISCARD pile but its top card, as the new DRAW pile, top first
shuffle_hands  every card held, top first, dealt again after a Wild Shuffle Hands

What is this ruleset's own (`DisneyOrders`): the pools, a card as an int named by its code
(`cards.code`), its outcome `actions.CARD_NEXT + card`, and where a whole order goes
(`Game.start_hand`, `apply_reshuffle`, `apply_shuffle_hands`; the deal's record event is the
game's, the others' the hand's own). Listing, placing, checking, sampling and reading an order
are `engine.chance`'s, as for every ruleset; an order's record event is written by
`engine.disney.notation.order_event`, which the hand and the record use too. The cards placed
so far (`Game.ordered`) are chance's secret until the order is complete: no observation shows
them. It reads a game as a `Match` (`engine.disney.match`): the game asks it, so it cannot
import the game.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from typing import Any

from engine import chance
from engine.disney import actions as A
from engine.disney import cards as C
from engine.disney.match import Match
from engine.disney.notation import ORDER_FIELD
from engine.errors import EventError, RuleError

ORDERS = frozenset({"new_hand", "reshuffle", "shuffle_hands"})
"""The chance kinds that are orders of cards (Tinker Bell's pick is the other)."""
FIELD = ORDER_FIELD
"""The key of an order's event: {"chance": "reshuffle", "deck": ["R7", ...]}."""

_WORDS = {
    "new_hand": "the next hand's deck",
    "reshuffle": "the reshuffle",
    "shuffle_hands": "a Wild Shuffle Hands' new deal",
}


class DisneyOrders:
    """`engine.chance.Orders` for a `Game` (`engine.disney.match.Match`): cards are ints."""

    def kind(self, game: Match) -> str | None:
        kind = game.chance_kind()
        return kind if kind in ORDERS else None

    def waiting(self, game: Match) -> str:
        return str(game.awaiting()["kind"])

    def pool(self, game: Match, kind: str) -> list[int]:
        if kind == "new_hand":
            return list(game.deck)
        if kind == "reshuffle":
            return game.dealt().reshuffle_pool()
        return game.dealt().shuffle_pool()

    def words(self, kind: str) -> str:
        return _WORDS[kind]

    def key(self, card: int) -> Hashable:
        return card

    def name(self, card: int) -> str:
        return C.code(card)

    def parse(self, game: Match, name: object) -> int:
        return C.card(name)  # (CardError, naming it, for anything but a card's code)

    def field(self, kind: str) -> str:
        return FIELD

    def action(self, game: Match, card: int) -> int:
        return A.CARD_NEXT + card

    def card(self, game: Match, action: int) -> int | None:
        card = action - A.CARD_NEXT
        return card if 0 <= card < C.NCARDS else None

    def describe(self, game: Match, action: int) -> str:
        return A.describe(action, game.players)

    def land(self, game: Match, kind: str, order: list[int]) -> None:
        if kind == "new_hand":
            game.start_hand(order, check=False)
        elif kind == "reshuffle":
            game.apply_reshuffle(order)
        else:
            game.apply_shuffle_hands(order)


RULES = DisneyOrders()


def pool(game: Match) -> list[int]:
    """The cards the pending order is made of (a new list)."""
    kind = RULES.kind(game)
    if kind is None:
        raise RuleError("chance", "No order of cards is left to chance right now.")
    return RULES.pool(game, kind)


def outcomes(game: Match) -> list[tuple[int, float]]:
    """Which card comes next from the top of the pending order, and how likely (`chance`)."""
    return chance.outcomes(RULES, game)


def place(game: Match, action: int) -> None:
    """One listed outcome placed (`engine.chance.place`)."""
    chance.place(RULES, game, action)


def sample(game: Match, rng: random.Random) -> list[int]:
    """A random order of the pending pool under the cards already placed (`chance.sample`)."""
    return chance.sample(RULES, game, rng)


def apply_event(game: Match, event: Mapping[str, Any]) -> None:
    """A record's order event: its deck (or a seed to shuffle the pool with), checked to be
    exactly the pending pool (`engine.chance.apply`)."""
    kind = str(event["chance"])
    if FIELD in event or not isinstance(event.get("seed"), int):
        if FIELD not in event:
            raise EventError(f"a {kind} event needs a 'deck' (or a 'seed')")
        order = chance.order_of(RULES, game, event)
    else:
        pending = RULES.kind(game)
        order = RULES.pool(game, kind) if pending == kind else []
        random.Random(event["seed"]).shuffle(order)
    chance.apply(RULES, game, kind, order)
