"""Which UNO cards each seat knows to be in another seat's hand, from the table's play alone.

A hidden hand is not wholly hidden: a card recovered from the Discard Pile went into it in
everyone's sight; a Peek showed the whole hand to the seat that peeked; after a Swap Hands each
of the two players knows the whole hand the other now holds (it was theirs). What leaves a
hand (a play, a discard, a Refresh) is public too, so a known card stays known until it does.
Cards drawn are not known. `known[o][s]` is what seat `o` knows of seat `s`'s hand: always
some of the cards in it (a multiset of them), read by `engine.elite.imagine`, which keeps
these cards in the hands it imagines instead of dealing them at random.

An imagined world (`imagined`) keeps no knowledge: nobody determinises it again, and its
rollouts are the search's hot loop.
"""

from __future__ import annotations

from engine.elite.state import EliteState
from engine.elite.uno import UnoCard


def gained(game: EliteState, seat: int, card: UnoCard) -> None:
    """`card` went into `seat`'s hand in everyone's sight (recovered from the Discard Pile)."""
    if game.imagined:
        return
    for o in range(game.n):
        if o != seat:
            game.known[o][seat].append(card)


def left(game: EliteState, seat: int, card: UnoCard) -> None:
    """`card` left `seat`'s hand in everyone's sight (played or discarded)."""
    if game.imagined:
        return
    for row in game.known:
        if card in row[seat]:
            row[seat].remove(card)


def emptied(game: EliteState, seat: int) -> None:
    """`seat`'s hand went to the Discard Pile whole (a Refresh): nothing of it is known now."""
    if game.imagined:
        return
    for row in game.known:
        row[seat] = []


def kept(game: EliteState, seat: int, card: UnoCard) -> None:
    """`seat` kept `card` alone and discarded the rest: only `card` may be known in it."""
    if game.imagined:
        return
    for row in game.known:
        row[seat] = [card] if card in row[seat] else []


def peeked(game: EliteState, seat: int, subject: int) -> None:
    """`seat` saw `subject`'s whole hand."""
    if not game.imagined:
        game.known[seat][subject] = list(game.hands[subject])


def swapped(game: EliteState, a: int, b: int) -> None:
    """`a` and `b` swapped hands (already done): what anyone knew of one hand goes with it,
    and each of the two knows the whole hand the other holds now (it held it)."""
    if game.imagined:
        return
    for row in game.known:
        row[a], row[b] = row[b], row[a]
    game.known[a][a], game.known[b][b] = [], []  # one's own hand is not "known", it is held
    game.known[a][b] = list(game.hands[b])
    game.known[b][a] = list(game.hands[a])
