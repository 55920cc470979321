"""A world consistent with what one seat sees: its hidden cards dealt again at random.

What a seat cannot see: the other hands and the Draw Pile (dealt again from the UNO cards not
in its hand and not on the Discard Pile, each hand keeping its size); the face-down Player
Decks (in draft mode every deck's make-up is public, as the picks were made in the open, so
only their order is imagined; in quick mode nobody knows which cards went where; in dynasty a
player knows their own deck); the draft's pile.

What the seat has learnt of another hand by watching the table stays in that hand: a card it
saw recovered into it, the hand it peeked at, the hand it gave away in a Swap Hands, less what
has left the hand since (`engine.elite.knowledge`: every fact is one the seat saw happen, none
is read from a hidden pile). Only the rest of that hand is dealt at random. Which card a
Search showed on top of a Player Deck is not kept.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TypeVar

from engine.elite.cards import EliteCard
from engine.elite.state import EliteState
from engine.elite.uno import UnoCard

Card = TypeVar("Card", UnoCard, EliteCard)


def deal_unseen(world: EliteState, game: EliteState, seat: int, rng: random.Random) -> None:
    """Deal `world` (a clone of `game`) every card `seat` cannot see again, every count kept."""
    known = game.known[seat]
    seen = [*game.hands[seat], *game.discard, *(c for s in range(game.n) for c in known[s])]
    unseen = _without(game.deck_cards, seen)
    rng.shuffle(unseen)
    for s in range(game.n):
        if s != seat:
            hand = world.hands[s]
            hand[:] = [*known[s], *(unseen.pop() for _ in range(len(hand) - len(known[s])))]
    world.draw = unseen
    rng.shuffle(world.draft.pile)  # the cards still to be turned up in a draft
    if world.mode == "draft":  # every deck's make-up is public: only its order is hidden
        for deck in world.player_decks:
            rng.shuffle(deck)
        return
    own = world.mode == "dynasty"  # a player built their own deck
    face_down = [s for s in range(game.n) if not (own and s == seat)]
    shown = {c.id for s in range(game.n) for c in [*game.lineups[s], *game.elite_discards[s]]}
    if own:
        shown.update(c.id for c in game.player_decks[seat])
        rng.shuffle(world.player_decks[seat])
    elite: list[EliteCard] = [c for c in game.elite_cards if c.id not in shown]
    # only the face-down decks' cards are dealt: a random few, not the whole box shuffled
    elite = rng.sample(elite, sum(len(world.player_decks[s]) for s in face_down))
    _deal_back(world.player_decks, elite, face_down)


def _without(cards: list[UnoCard], seen: list[UnoCard]) -> list[UnoCard]:
    """`cards` less one copy of each card in `seen`, the first copies (`list.remove`'s order),
    in one pass (by code: a str hashes in C, an `UnoCard` in Python)."""
    left = Counter(card.code for card in seen)
    out = []
    for card in cards:
        code = card.code
        if left[code]:
            left[code] -= 1
        else:
            out.append(card)
    return out


def _deal_back(piles: list[list[Card]], cards: list[Card], seats: list[int]) -> None:
    """Refill each seat's pile with as many cards as it had, taken from the end of `cards`."""
    for s in seats:
        size = len(piles[s])
        piles[s][:] = [cards.pop() for _ in range(size)]
