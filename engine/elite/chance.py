"""Elite's chance events: orders of many cards, always supplied from outside the engine.

deal           the 112 UNO cards, top first
elite_shuffle  the box's Elite Action Cards, top first (quick and draft play)
player_decks   each seat's Player Deck, top first (draft and dynasty play)
reshuffle      the Discard Pile but its top card, as the new Draw Pile, top first
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.elite import setup
from engine.elite import steps as S
from engine.elite.cards import EliteCard
from engine.elite.uno import UnoCard
from engine.errors import RuleError

if TYPE_CHECKING:
    from engine.elite.game import EliteGame


def pool(game: EliteGame) -> Any:
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


def sample(game: EliteGame, rng: random.Random) -> Any:
    cards = pool(game)
    if game.phase == S.PLAYER_DECKS:
        for deck in cards:
            rng.shuffle(deck)
    else:
        rng.shuffle(cards)
    return cards


def apply(game: EliteGame, order: Any) -> None:
    """Check that `order` is an order of exactly the pending pool, then apply it."""
    want = pool(game)
    kind = game.phase
    if kind == S.PLAYER_DECKS:
        if not isinstance(order, list) or len(order) != len(want):
            raise RuleError("chance", f"one Player Deck per seat ({len(want)}) is needed")
        for seat, (got, wanted) in enumerate(zip(order, want, strict=True)):
            _same(list(got), wanted, f"seat {seat}'s Player Deck")
        setup.player_decks(game, [list(d) for d in order])
        _record(game, {"chance": kind, "decks": [[c.id for c in d] for d in order]})
        return
    _same(list(order), want, "the cards to order")
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


def _record(game: EliteGame, event: dict[str, Any]) -> None:
    if game.recording:
        game.events.append(event)


def order_of(game: EliteGame, event: Mapping[str, Any]) -> Any:
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


def _uno(game: EliteGame, code: Any) -> UnoCard:
    if not isinstance(code, str) or code not in game.kind_of:
        raise ValueError(f"no UNO card {code!r} in this deck")
    return game.kinds[game.kind_of[code]]


def _elite(game: EliteGame, card_id: Any) -> EliteCard:
    if not isinstance(card_id, str) or card_id not in game.elite_index:
        raise ValueError(f"no Elite Action Card {card_id!r} in this game")
    return game.elite_cards[game.elite_index[card_id]]
