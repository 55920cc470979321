"""One chance node of every ruleset: an order of cards, and Tinker Bell's pick.

An order of cards (a new deck, a deal, a reshuffle, Wild Shuffle Hands, the box's Elite cards)
is one chance event whatever the ruleset, OpenSpiel's way: it is given whole (a record's event,
`apply`, checked to be exactly the cards due), sampled (`sample`: the cards already placed on
top, the rest shuffled; with none placed, exactly the draws a whole order was always sampled
with, so seeded games play the same), or placed one card at a time (`outcomes` lists which card
comes next, each as likely as its copies left; `place` takes one; the last one placed applies
the whole order, so the record holds the same one event either way). The event reads and writes
its order as a list of card names under one key (`read`, `event`).

What is the ruleset's own is given through `Orders`: which order is pending and of which cards,
how a card is named in a record and read back, which action places it, and where a whole order
goes. The Disney family's are in `disney.deckchance`, UNO Elite's in `engine.elite.chance` (whose
Player Decks, one order per seat, use the pieces here one deck at a time).

Tinker Bell's pick is the other chance node: a ruleset with her turns her colour into one of its
chance outcomes (`GameState.tinker_bell_outcome`), which `apply_action` takes as any other.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from engine.errors import EventError, RuleError

T = TypeVar("T")
"""A card as the ruleset holds it (the Disney family's ints, UNO Elite's card objects)."""


class Ordering(Protocol[T]):
    """A game with an order of cards being placed one at a time (`ordered`, top first)."""

    ordered: list[T]


G = TypeVar("G", bound=Ordering[Any])
G_contra = TypeVar("G_contra", bound=Ordering[Any], contravariant=True)


class Orders(Protocol[G_contra, T]):
    """A ruleset's own rules of its orders of cards; everything else is shared (this module)."""

    def kind(self, game: G_contra) -> str | None:
        """The pending order's kind ("new_hand", "deal", "reshuffle" ...), None where none is."""
        ...

    def waiting(self, game: G_contra) -> str:
        """What the game waits for, in the record's words (a refused event names it)."""
        ...

    def pool(self, game: G_contra, kind: str) -> list[T]:
        """The cards the pending order is made of (a new list)."""
        ...

    def words(self, kind: str) -> str:
        """The order in words ("the reshuffle"), for its errors."""
        ...

    def key(self, card: T) -> Hashable:
        """What tells one card from another (copies alike)."""
        ...

    def name(self, card: T) -> str:
        """The card's name in a record event."""
        ...

    def parse(self, game: G_contra, name: object) -> T:
        """The card a record names; ValueError (EventError, CardError) naming it otherwise."""
        ...

    def field(self, kind: str) -> str:
        """The key under which the event holds its order ("deck", "cards")."""
        ...

    def action(self, game: G_contra, card: T) -> int:
        """The chance outcome that places `card` next."""
        ...

    def card(self, game: G_contra, action: int) -> T | None:
        """The card `action` places, None where it places none."""
        ...

    def describe(self, game: G_contra, action: int) -> str:
        """`action` in words, for a refusal."""
        ...

    def land(self, game: G_contra, kind: str, order: list[T]) -> None:
        """The whole order, already checked, where it goes (the deal, the new DRAW pile ...),
        into the record as one event; it clears `game.ordered`."""
        ...


# ------------------------------------------------------------------ the shared pieces
def left(pool: list[T], placed: Sequence[T], key: Callable[[T], Hashable]) -> list[T]:
    """`pool` less one copy of each card already `placed`, in the pool's order (a new list)."""
    if not placed:
        return list(pool)
    placed_keys = Counter(map(key, placed))
    out = []
    for card in pool:
        k = key(card)
        if placed_keys[k]:
            placed_keys[k] -= 1
        else:
            out.append(card)
    return out


def listed(actions: Iterable[int]) -> list[tuple[int, float]]:
    """Each action as likely as the cards it stands for (`actions`: one per card left), in
    the order of the actions: uniform where each card is one of its kind."""
    copies = Counter(actions)
    total = copies.total()
    return [(a, n / total) for a, n in sorted(copies.items())]


def shuffled(
    pool: list[T], placed: list[T], key: Callable[[T], Hashable], rng: random.Random
) -> list[T]:
    """`placed` on top of the rest of `pool` shuffled by `rng` (an unbiased shuffle; with none
    placed, the pool in its own order shuffled once, as every sampled order always was)."""
    rest = left(pool, placed, key) if placed else pool
    rng.shuffle(rest)
    return placed + rest if placed else rest


def check(
    got: Sequence[T],
    want: Sequence[T],
    what: str,
    key: Callable[[T], Hashable],
    name: Callable[[T], str],
) -> None:
    """RuleError ("chance") unless `got` is an order of exactly the cards `want`, naming what
    is missing and what is extra."""
    have, need = Counter(map(key, got)), Counter(map(key, want))
    if have == need:
        return
    names = {key(c): name(c) for c in (*want, *got)}
    missing = [names[k] for k in (need - have).elements()]
    extra = [names[k] for k in (have - need).elements()]
    raise RuleError(
        "chance",
        f"that is not {what}: it must hold exactly the cards due ({len(want)}; "
        f"{len(got)} given; missing {missing[:6]}, extra {extra[:6]})",
    )


def read(event: Mapping[str, Any], field: str, parse: Callable[[object], T]) -> list[T]:
    """The order an event holds under `field`: EventError if it is no list, and the card's
    own error (naming it) for a name that is no card."""
    names = event.get(field)
    if not isinstance(names, list):
        raise EventError(f"a {event.get('chance')} event needs a list {field!r} of card names")
    return [parse(x) for x in names]


def event(kind: str, field: str, order: Iterable[T], name: Callable[[T], str]) -> dict[str, Any]:
    """The record event of a whole order."""
    return {"chance": kind, field: [name(c) for c in order]}


# ------------------------------------------------------------------ one order, any ruleset
def outcomes(rules: Orders[G, T], game: G) -> list[tuple[int, float]]:
    """Which card comes next from the top of the pending order, and how likely: each card as
    likely as its copies not yet placed. Empty where no order of cards is pending."""
    kind = rules.kind(game)
    if kind is None:
        return []
    rest = left(rules.pool(game, kind), game.ordered, rules.key)
    return listed([rules.action(game, c) for c in rest])


def place(rules: Orders[G, T], game: G, action: int) -> None:
    """One listed outcome: the card goes under the cards already placed; the last one placed
    applies the whole order. RuleError ("chance"), changing nothing, for any other action
    (while cards are being placed, nothing else may happen: the order is one chance event)."""
    kind = rules.kind(game)
    if kind is None:
        what = rules.describe(game, action)
        raise RuleError("chance", f"{what}: no order of cards is left to chance right now.")
    pool, placed = rules.pool(game, kind), game.ordered
    card = rules.card(game, action)
    if card is None or not _copy_left(rules, pool, placed, card):
        raise RuleError(
            "chance",
            f"{rules.describe(game, action)} is not an outcome of this chance event "
            f"({rules.words(kind)}): its next card must be one of the "
            f"{len(pool) - len(placed)} cards not yet placed.",
        )
    placed.append(card)
    if len(placed) == len(pool):
        try:
            rules.land(game, kind, placed)
        except Exception:
            game.ordered = placed[:-1]  # (cannot happen: the pool was checked card by card)
            raise


def _copy_left(rules: Orders[G, T], pool: list[T], placed: list[T], card: T) -> bool:
    k = rules.key(card)
    return sum(rules.key(c) == k for c in pool) > sum(rules.key(c) == k for c in placed)


def apply(rules: Orders[G, T], game: G, kind: str, order: Sequence[T]) -> None:
    """A whole order (a record's event): RuleError ("chance"), changing nothing, unless it is
    an order of exactly the pending pool, then applied (superseding any cards placed)."""
    if kind != rules.kind(game):
        waits = rules.waiting(game)
        raise RuleError("chance", f"a {kind} event came where the game waits for {waits}")
    what = f"an order of the cards of {rules.words(kind)}"
    check(order, rules.pool(game, kind), what, rules.key, rules.name)
    rules.land(game, kind, list(order))


def sample(rules: Orders[G, T], game: G, rng: random.Random) -> list[T]:
    """A random order of the pending pool under the cards already placed (`shuffled`)."""
    kind = rules.kind(game)
    if kind is None:
        raise RuleError("chance", "No order of cards is left to chance right now.")
    return shuffled(rules.pool(game, kind), game.ordered, rules.key, rng)


def order_of(rules: Orders[G, T], game: G, event: Mapping[str, Any]) -> list[T]:
    """The order a record's event gives (its names read back into cards)."""
    kind = str(event.get("chance"))
    return read(event, rules.field(kind), lambda name: rules.parse(game, name))


# ------------------------------------------------------------------ Tinker Bell
def no_tinker_bell(title: str) -> RuleError:
    """The refusal of a Tinker Bell pick in a ruleset without her ("tinker-bell"): every
    ruleset's `tinker_bell_outcome` raises it unless it declares the feature; one that does
    turns her colour into its own chance outcome."""
    return RuleError("tinker-bell", f"{title} has no Tinker Bell to pick a colour.")
