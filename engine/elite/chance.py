"""UNO Elite's orders of cards: its rules of the one chance node (`engine.chance`).

deal           the 112 UNO cards, top first
elite_shuffle  the box's Elite Action Cards, top first (quick and draft play)
player_decks   each seat's Player Deck, top first (draft and dynasty play)
reshuffle      the Discard Pile but its top card, as the new Draw Pile, top first

What is this ruleset's own (`EliteOrders`): the pools, a card named by its code (an UNO card)
or its id (an Elite card), its outcome (the next UNO card by kind, `CARD + k`; the next Elite
card, `ELITE + i`), and where a whole order goes (`setup.deal`, `setup.elite_shuffle`, the new
Draw Pile). Listing, placing, checking, sampling and reading an order are `engine.chance`'s, as
for every ruleset. The Player Decks are one order per seat, filled one deck after the other
(`game.placed`), each made of the same pieces (`chance.left`, `listed`, `shuffled`, `check`).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from typing import Any

from engine import chance
from engine.elite import actions as A
from engine.elite import setup
from engine.elite import steps as S
from engine.elite.cards import EliteCard
from engine.elite.state import EliteState
from engine.elite.uno import UnoCard
from engine.errors import RuleError

Card = UnoCard | EliteCard

_WORDS = {
    S.DEAL: "the deal",
    S.ELITE_SHUFFLE: "the box's shuffle",
    S.RESHUFFLE: "the reshuffle",
}
_FIELD = {S.DEAL: "deck", S.RESHUFFLE: "deck", S.ELITE_SHUFFLE: "cards", S.PLAYER_DECKS: "decks"}


def _name(card: Card) -> str:
    """What tells one card from another: an UNO card's code, an Elite card's id."""
    return card.code if isinstance(card, UnoCard) else card.id


class EliteOrders:
    """`engine.chance.Orders` for an Elite game's single orders (the deal, the box's shuffle, a
    reshuffle): cards are `UnoCard`s and `EliteCard`s."""

    def kind(self, game: EliteState) -> str | None:
        return game.phase if game.phase in _WORDS else None

    def waiting(self, game: EliteState) -> str:
        return game.phase

    def pool(self, game: EliteState, kind: str) -> list[Card]:
        if kind == S.DEAL:
            return list(game.deck_cards)
        if kind == S.ELITE_SHUFFLE:
            return list(game.elite_cards)
        return list(game.discard[:-1])

    def words(self, kind: str) -> str:
        return _WORDS[kind]

    def key(self, card: Card) -> Hashable:
        return _name(card)

    def name(self, card: Card) -> str:
        return _name(card)

    def parse(self, game: EliteState, name: object) -> Card:
        if game.phase == S.ELITE_SHUFFLE:
            return _elite(game, name)
        return _uno(game, name)

    def field(self, kind: str) -> str:
        return _FIELD[kind]

    def action(self, game: EliteState, card: Card) -> int:
        if isinstance(card, UnoCard):
            return A.CARD + game.kind_of[card.code]
        return A.ELITE + game.elite_index[card.id]

    def card(self, game: EliteState, action: int) -> Card | None:
        try:
            kind, arg = A.decode(action)
        except ValueError:  # (no action at all: no card either)
            return None
        if kind == A.CARD_KIND and game.phase != S.ELITE_SHUFFLE and arg < len(game.kinds):
            return game.kinds[arg]
        if kind == A.ELITE_KIND and game.phase == S.ELITE_SHUFFLE and arg < len(game.elite_cards):
            return game.elite_cards[arg]
        return None

    def describe(self, game: EliteState, action: int) -> str:
        card = self.card(game, action)
        return f"{action}" if card is None else f"the next card {_name(card)} ({action})"

    def land(self, game: EliteState, kind: str, order: list[Card]) -> None:
        game.ordered = []  # a whole order given: any cards placed one at a time are superseded
        if kind == S.DEAL:
            setup.deal(game, order)  # type: ignore[arg-type]  # (the deal's pool: UNO cards)
        elif kind == S.ELITE_SHUFFLE:
            setup.elite_shuffle(game, order)  # type: ignore[arg-type]  # (Elite cards)
        else:
            game.draw = order[::-1]  # type: ignore[assignment]  # (UNO cards)
            del game.discard[:-1]
            game.phase = game.steps[0].kind if game.steps else S.OVER
            game.log.append("The Discard Pile is reshuffled into a new Draw Pile.")
        _record(game, chance.event(kind, _FIELD[kind], order, _name))


RULES = EliteOrders()


def pool(game: EliteState) -> Any:
    """What the pending chance event orders: its cards, or for the Player Decks one list of
    Elite cards per seat."""
    if game.phase == S.PLAYER_DECKS:
        return _decks(game)
    kind = RULES.kind(game)
    if kind is None:
        raise RuleError("chance", "Nothing is left to chance right now.")
    return RULES.pool(game, kind)


def outcomes(game: EliteState) -> list[tuple[int, float]]:
    """Which card comes next, and how likely: into the first Player Deck not yet complete, one
    of its cards; of a deal or reshuffle, an UNO card kind (`CARD + k`) as likely as its copies
    left; of the box's shuffle, one of its Elite cards. Empty when no chance is pending."""
    if game.phase != S.PLAYER_DECKS:
        return chance.outcomes(RULES, game)
    for rest in _unplaced(game):
        if rest:
            return chance.listed(A.ELITE + game.elite_index[c.id] for c in rest)
    return []


def place(game: EliteState, action: int) -> None:
    """One listed outcome: the card comes next (into its Player Deck, or under the cards
    already placed); the last one placed applies the whole order. RuleError ("chance"),
    changing nothing, for any other action."""
    if game.phase != S.PLAYER_DECKS:
        chance.place(RULES, game, action)
        return
    if action not in {a for a, _ in outcomes(game)}:
        raise RuleError("chance", f"{action} is not an outcome of this chance event.")
    card = game.elite_cards[action - A.ELITE]
    decks = _decks(game)
    seat = next(s for s, d in enumerate(decks) if card in d)
    game.placed[seat].append(card)
    if all(len(p) == len(d) for p, d in zip(game.placed, decks, strict=True)):
        _land_decks(game, game.placed)


def apply(game: EliteState, order: Any) -> None:
    """A whole order (a record's event): RuleError ("chance"), changing nothing, unless it is
    an order of exactly the cards due, then applied."""
    if game.phase != S.PLAYER_DECKS:
        kind = RULES.kind(game)
        if kind is None:
            raise RuleError("chance", "Nothing is left to chance right now.")
        chance.apply(RULES, game, kind, list(order))
        return
    want = _decks(game)
    if not isinstance(order, list) or len(order) != len(want):
        raise RuleError("chance", f"one Player Deck per seat ({len(want)}) is needed")
    for seat, (got, wanted) in enumerate(zip(order, want, strict=True)):
        what = f"an order of seat {seat}'s Player Deck"
        chance.check(list(got), wanted, what, RULES.key, _name)
    _land_decks(game, [list(d) for d in order])


def sample(game: EliteState, rng: random.Random) -> Any:
    """A random order of the pending pool, under the cards already placed one at a time."""
    if game.phase != S.PLAYER_DECKS:
        return chance.sample(RULES, game, rng)
    decks = _decks(game)
    return [
        chance.shuffled(list(d), list(p), RULES.key, rng)
        for p, d in zip(game.placed, decks, strict=True)
    ]


def order_of(game: EliteState, event: Mapping[str, Any]) -> Any:
    """The order a chance event gives (names read back into cards), or RuleError ("chance")
    for an event of another kind than the one pending."""
    kind = event.get("chance")
    if kind != game.phase:
        raise RuleError("chance", f"a {kind} event came where the game waits for {game.phase}")
    if kind != S.PLAYER_DECKS:
        return chance.order_of(RULES, game, event)
    decks = chance.read(event, "decks", lambda deck: deck)
    return [chance.read({"chance": kind, "deck": d}, "deck", _parser(game)) for d in decks]


def _parser(game: EliteState) -> Any:
    return lambda name: _elite(game, name)


def _decks(game: EliteState) -> list[list[EliteCard]]:
    if game.mode == "dynasty":
        return [list(d) for d in game.dynasty_decks]
    return [list(p) for p in game.draft.picked]


def _unplaced(game: EliteState) -> list[list[EliteCard]]:
    return [chance.left(d, p, RULES.key) for p, d in zip(game.placed, _decks(game), strict=True)]


def _land_decks(game: EliteState, order: list[list[EliteCard]]) -> None:
    game.placed = [[] for _ in range(game.n)]
    setup.player_decks(game, order)
    _record(game, {"chance": S.PLAYER_DECKS, "decks": [[c.id for c in d] for d in order]})


def _record(game: EliteState, event: dict[str, Any]) -> None:
    if game.recording:
        game.events.append(event)


def _uno(game: EliteState, code: object) -> UnoCard:
    if not isinstance(code, str) or code not in game.kind_of:
        raise ValueError(f"no UNO card {code!r} in this deck")
    return game.kinds[game.kind_of[code]]


def _elite(game: EliteState, card_id: object) -> EliteCard:
    if not isinstance(card_id, str) or card_id not in game.elite_index:
        raise ValueError(f"no Elite Action Card {card_id!r} in this game")
    return game.elite_cards[game.elite_index[card_id]]
