"""The Disney family's orders of many cards: its rules of the one chance node (`engine.chance`).

new_hand       the whole deck, top first, for the next hand's deal
reshuffle      the DISCARD pile but its top card, as the new DRAW pile, top first
shuffle_hands  every card held, top first, dealt again after a Wild Shuffle Hands

What is this ruleset's own (`DisneyOrders`): the pools, a card as an int named by its code
(`cards.code`), its outcome `actions.CARD_NEXT + card`, and where a whole order goes
(`Game.start_hand`, `apply_reshuffle`, `apply_shuffle_hands`; the deal's record event is the
game's, the others' the hand's own). Listing, placing, checking, sampling and reading an order
are `engine.chance`'s, as for every ruleset. The cards placed so far (`Game.ordered`) are
chance's secret until the order is complete: no observation shows them.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Any

from engine import chance
from engine.disney import actions as A
from engine.disney import cards as C
from engine.errors import EventError, RuleError

if TYPE_CHECKING:
    from engine.disney.game import Game

ORDERS = frozenset({"new_hand", "reshuffle", "shuffle_hands"})
"""The chance kinds that are orders of cards (Tinker Bell's pick is the other)."""
FIELD = "deck"
"""The key of an order's event: {"chance": "reshuffle", "deck": ["R7", ...]}."""

_WORDS = {
    "new_hand": "the next hand's deck",
    "reshuffle": "the reshuffle",
    "shuffle_hands": "a Wild Shuffle Hands' new deal",
}


class DisneyOrders:
    """`engine.chance.Orders` for a `Game`: cards are ints."""

    def kind(self, game: Game) -> str | None:
        kind = game.chance_kind()
        return kind if kind in ORDERS else None

    def waiting(self, game: Game) -> str:
        return str(game.awaiting()["kind"])

    def pool(self, game: Game, kind: str) -> list[int]:
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

    def parse(self, game: Game, name: object) -> int:
        return C.card(name)  # (CardError, naming it, for anything but a card's code)

    def field(self, kind: str) -> str:
        return FIELD

    def action(self, game: Game, card: int) -> int:
        return A.CARD_NEXT + card

    def card(self, game: Game, action: int) -> int | None:
        card = action - A.CARD_NEXT
        return card if 0 <= card < C.NCARDS else None

    def describe(self, game: Game, action: int) -> str:
        return A.describe(action, game.players)

    def land(self, game: Game, kind: str, order: list[int]) -> None:
        if kind == "new_hand":
            game.start_hand(order, check=False)
        elif kind == "reshuffle":
            game.apply_reshuffle(order)
        else:
            game.apply_shuffle_hands(order)


RULES = DisneyOrders()


def pool(game: Game) -> list[int]:
    """The cards the pending order is made of (a new list)."""
    kind = RULES.kind(game)
    if kind is None:
        raise RuleError("chance", "No order of cards is left to chance right now.")
    return RULES.pool(game, kind)


def outcomes(game: Game) -> list[tuple[int, float]]:
    """Which card comes next from the top of the pending order, and how likely (`chance`)."""
    return chance.outcomes(RULES, game)


def place(game: Game, action: int) -> None:
    """One listed outcome placed (`engine.chance.place`)."""
    chance.place(RULES, game, action)


def sample(game: Game, rng: random.Random) -> list[int]:
    """A random order of the pending pool under the cards already placed (`chance.sample`)."""
    return chance.sample(RULES, game, rng)


def event(kind: str, order: list[int]) -> dict[str, Any]:
    """The record event of a whole order."""
    return chance.event(kind, FIELD, order, C.code)


def apply_event(game: Game, event: Mapping[str, Any]) -> None:
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
