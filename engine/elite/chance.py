"""Elite's chance events, always supplied from outside the engine.

deal           the 112 UNO cards, top first
elite_shuffle  the box's Elite Action Cards, top first (quick and draft play)
player_decks   each seat's Player Deck, top first (draft and dynasty play)
reshuffle      the Discard Pile but its top card, as the new Draw Pile, top first

Each is an order of cards, given whole (`apply`, a record's event) or sampled (`sample`). Each
is also one card at a time, OpenSpiel's way: `outcomes` lists which card comes next (the
protocol's `chance_outcomes`: a Player Deck's next card, one of a seat's 8; the deal's or a
reshuffle's next UNO card from the top, each kind as likely as its copies left; the next Elite
card of the shuffled box), `place` takes one, and the last one placed applies the whole order,
so the record holds the same one event either way, and a sampled order is drawn as before.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.elite import actions as A
from engine.elite import setup
from engine.elite import steps as S
from engine.elite.cards import EliteCard
from engine.elite.state import EliteState
from engine.elite.uno import UnoCard
from engine.errors import RuleError


def pool(game: EliteState) -> Any:
    kind = game.phase
    if kind == S.DEAL:
        return list(game.deck_cards)
    if kind == S.ELITE_SHUFFLE:
        return list(game.elite_cards)
    if kind == S.PLAYER_DECKS:
        if game.mode == "dynasty":
            return [list(d) for d in game.dynasty_decks]
        return [list(p) for p in game.draft.picked]
    if kind == S.RESHUFFLE:
        return game.discard[:-1]
    raise RuleError("chance", "Nothing is left to chance right now.")


def sample(game: EliteState, rng: random.Random) -> Any:
    """A random order of the pending pool, after the cards already placed one at a time."""
    cards = pool(game)
    if game.phase == S.PLAYER_DECKS:
        out = []
        for placed, rest in zip(game.placed, _unplaced(game, cards), strict=True):
            rng.shuffle(rest)
            out.append(placed + rest)
        return out
    rest = _left(cards, game.ordered)  # the whole pool, in its order, when none is placed
    rng.shuffle(rest)
    return game.ordered + rest


def _unplaced(game: EliteState, decks: list[list[EliteCard]]) -> list[list[EliteCard]]:
    return [[c for c in d if c not in game.placed[s]] for s, d in enumerate(decks)]


def _left(cards: list[Any], placed: list[Any]) -> list[Any]:
    """`cards` less one copy of each card already `placed` (by name: copies are alike)."""
    if not placed:
        return list(cards)
    left = Counter(map(_name, placed))
    out = []
    for card in cards:
        name = _name(card)
        if left[name]:
            left[name] -= 1
        else:
            out.append(card)
    return out


def outcomes(game: EliteState) -> list[tuple[int, float]]:
    """Which card comes next, and how likely: into the first Player Deck not yet complete, one
    of its cards; of a deal or reshuffle, an UNO card kind (`CARD + k`) as likely as its copies
    left; of the box's shuffle, one of its Elite cards. Empty when no chance is pending."""
    kind = game.phase
    if kind == S.PLAYER_DECKS:
        for rest in _unplaced(game, pool(game)):
            if rest:
                return _even(sorted(A.ELITE + game.elite_index[c.id] for c in rest))
        return []
    if kind == S.ELITE_SHUFFLE:
        left = _left(pool(game), game.ordered)
        return _even(sorted(A.ELITE + game.elite_index[c.id] for c in left))
    if kind in (S.DEAL, S.RESHUFFLE):
        copies = Counter(game.kind_of[c.code] for c in _left(pool(game), game.ordered))
        total = sum(copies.values())
        return [(A.CARD + k, copies[k] / total) for k in sorted(copies)]
    return []


def _even(actions: list[int]) -> list[tuple[int, float]]:
    return [(a, 1 / len(actions)) for a in actions]


def place(game: EliteState, action: int) -> None:
    """One listed outcome: the card comes next (into its Player Deck, or under the cards
    already placed); the last one placed applies the whole order (`apply`). RuleError, changing
    nothing, for any other action."""
    if action not in {a for a, _ in outcomes(game)}:
        raise RuleError("chance", f"{action} is not an outcome of this chance event.")
    if game.phase != S.PLAYER_DECKS:
        kind, arg = A.decode(action)
        card = game.kinds[arg] if kind == A.CARD_KIND else game.elite_cards[arg]
        game.ordered.append(card)
        if len(game.ordered) == len(pool(game)):
            apply(game, game.ordered)
        return
    card = game.elite_cards[action - A.ELITE]
    decks = pool(game)
    seat = next(s for s, d in enumerate(decks) if card in d)
    game.placed[seat].append(card)
    if all(len(p) == len(d) for p, d in zip(game.placed, decks, strict=True)):
        order, game.placed = game.placed, [[] for _ in range(game.n)]
        apply(game, order)


def apply(game: EliteState, order: Any) -> None:
    """Check that `order` is an order of exactly the pending pool, then apply it."""
    want = pool(game)
    kind = game.phase
    if kind == S.PLAYER_DECKS:
        if not isinstance(order, list) or len(order) != len(want):
            raise RuleError("chance", f"one Player Deck per seat ({len(want)}) is needed")
        for seat, (got, wanted) in enumerate(zip(order, want, strict=True)):
            _same(list(got), wanted, f"seat {seat}'s Player Deck")
        game.placed = [[] for _ in range(game.n)]
        setup.player_decks(game, [list(d) for d in order])
        _record(game, {"chance": kind, "decks": [[c.id for c in d] for d in order]})
        return
    _same(list(order), want, "the cards to order")
    game.ordered = []  # a whole order given: any cards placed one at a time are superseded
    if kind == S.DEAL:
        setup.deal(game, list(order))
        _record(game, {"chance": kind, "deck": [c.code for c in order]})
    elif kind == S.ELITE_SHUFFLE:
        setup.elite_shuffle(game, list(order))
        _record(game, {"chance": kind, "cards": [c.id for c in order]})
    else:
        game.draw = list(order)[::-1]
        del game.discard[:-1]
        game.phase = game.steps[0].kind if game.steps else S.OVER
        game.log.append("The Discard Pile is reshuffled into a new Draw Pile.")
        _record(game, {"chance": kind, "deck": [c.code for c in order]})


def _same(got: list[Any], want: list[Any], what: str) -> None:
    if sorted(map(_name, got)) != sorted(map(_name, want)):
        raise RuleError("chance", f"{what}: that is not an order of the {len(want)} cards due")


def _name(card: Any) -> str:
    """What tells one card from another: an UNO card's code, an Elite card's id."""
    if isinstance(card, UnoCard):
        return card.code
    return card.id if isinstance(card, EliteCard) else repr(card)


def _record(game: EliteState, event: dict[str, Any]) -> None:
    if game.recording:
        game.events.append(event)


def order_of(game: EliteState, event: Mapping[str, Any]) -> Any:
    """The order a chance event gives (names read back into cards)."""
    kind = event.get("chance")
    if kind != game.phase:
        raise RuleError("chance", f"a {kind} event came where the game waits for {game.phase}")
    if kind in (S.DEAL, S.RESHUFFLE):
        return [_uno(game, code) for code in _list(event, "deck")]
    if kind == S.ELITE_SHUFFLE:
        return [_elite(game, i) for i in _list(event, "cards")]
    return [[_elite(game, i) for i in _strings(deck)] for deck in _list(event, "decks")]


def _list(event: Mapping[str, Any], key: str) -> list[Any]:
    value = event.get(key)
    if not isinstance(value, list):
        raise ValueError(f"a {event.get('chance')} event needs a list {key!r}")
    return value


def _strings(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError("a Player Deck is a list of Elite card ids")
    return value


def _uno(game: EliteState, code: Any) -> UnoCard:
    if not isinstance(code, str) or code not in game.kind_of:
        raise ValueError(f"no UNO card {code!r} in this deck")
    return game.kinds[game.kind_of[code]]


def _elite(game: EliteState, card_id: Any) -> EliteCard:
    if not isinstance(card_id, str) or card_id not in game.elite_index:
        raise ValueError(f"no Elite Action Card {card_id!r} in this game")
    return game.elite_cards[game.elite_index[card_id]]
