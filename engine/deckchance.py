"""The Disney engine's orders of many cards as chance nodes, one card at a time.

new_hand       the whole deck, top first, for the next hand's deal
reshuffle      the DISCARD pile but its top card, as the new DRAW pile, top first
shuffle_hands  every card held, top first, dealt again after a Wild Shuffle Hands

Each is an order of cards, given whole (`Game.start_hand`, `apply_reshuffle`,
`apply_shuffle_hands`: a record's event) or sampled (`sample`). Each is also one card at a time,
OpenSpiel's way, as UNO Elite deals (`engine.elite.chance`): `outcomes` lists which card comes
next from the top (`actions.CARD_NEXT + card`, each card as likely as its copies left), `place`
takes one, and the last one placed applies the whole order through the same method a whole
order goes through, so the record holds the same one event either way. The cards placed so far
(`Game.ordered`) are chance's secret until the order is complete: no observation shows them.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING

from engine import actions as A
from engine import cards as C
from engine.errors import RuleError

if TYPE_CHECKING:
    from engine.game import Game

ORDERS = frozenset({"new_hand", "reshuffle", "shuffle_hands"})
"""The chance kinds that are orders of cards (Tinker Bell's pick is the other)."""


def pool(game: Game) -> list[int]:
    """The cards the pending order is made of (a new list)."""
    kind = game.chance_kind()
    if kind == "new_hand":
        return list(game.rules.deck)
    if kind == "reshuffle":
        return game.dealt().reshuffle_pool()
    if kind == "shuffle_hands":
        return game.dealt().shuffle_pool()
    raise RuleError("chance", "No order of cards is left to chance right now.")


def outcomes(game: Game) -> list[tuple[int, float]]:
    """Which card comes next from the top of the pending order, and how likely: each card as
    likely as its copies not yet placed. Empty where no order of cards is pending."""
    if game.chance_kind() not in ORDERS:
        return []
    copies = Counter(pool(game))
    copies.subtract(game.ordered)
    total = copies.total()
    return [(A.CARD_NEXT + card, n / total) for card, n in sorted(copies.items()) if n]


def place(game: Game, action: int) -> None:
    """One listed outcome: the card goes under the cards already placed; the last one placed
    applies the whole order. RuleError, changing nothing, for any other action (while cards are
    being placed, nothing else may happen: the order is one chance event)."""
    kind = game.chance_kind()
    if kind not in ORDERS:
        what = A.describe(action, game.players)
        raise RuleError("chance", f"{what}: no order of cards is left to chance right now.")
    cards = pool(game)
    card = action - A.CARD_NEXT
    if not (0 <= card < C.NCARDS and cards.count(card) > game.ordered.count(card)):
        raise RuleError(
            "chance",
            f"{A.describe(action, game.players)} is not an outcome of this chance event "
            f"({_WORDS[kind]}): its next card must be one of the "
            f"{len(cards) - len(game.ordered)} cards not yet placed.",
        )
    game.ordered.append(card)
    if len(game.ordered) == len(cards):
        order = game.ordered
        try:
            apply(game, kind, order)
        except Exception:
            game.ordered = order[:-1]  # (cannot happen: the pool was checked card by card)
            raise


_WORDS = {
    "new_hand": "the next hand's deck",
    "reshuffle": "the reshuffle",
    "shuffle_hands": "the cards dealt again after a Wild Shuffle Hands",
}


def apply(game: Game, kind: str, order: list[int], check: bool = True) -> None:
    """Apply a whole order through the method a record's event goes through (which clears the
    cards placed one at a time: a whole order supersedes them). `check=False`: a new deck known
    to be the ruleset's (sampled), not counted again."""
    if kind == "new_hand":
        game.start_hand(order, check=check)
    elif kind == "reshuffle":
        game.apply_reshuffle(order)
    else:
        game.apply_shuffle_hands(order)


def sample(game: Game, rng: random.Random) -> list[int]:
    """A random order of the pending pool after the cards already placed one at a time; with
    none placed, exactly the draws a whole order was always sampled with (the pool in its own
    order, shuffled once: seeded games and simulations play the same)."""
    rest = pool(game)
    if game.ordered:  # (their order does not matter: they are shuffled)
        rest = list((Counter(rest) - Counter(game.ordered)).elements())
    rng.shuffle(rest)
    return game.ordered + rest
