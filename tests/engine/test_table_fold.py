"""Folding a long table game is linear, and an edit re-settles only the hands after it: checked
by structure (which hands are shared, how many hands are settled), never by time. The times at
1k/10k/100k hands are bench/table_fold.py's."""

from __future__ import annotations

import copy
import pickle

import pytest

from engine.disney import scoring
from engine.disney import table as T

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def _start() -> dict:
    return {"kind": "start", "players": PLAYERS, "dealer": 0, "options": {"target": 100_000}}


def _hand(n: int) -> dict:
    winner = (n * 7) % 4
    held = [None if seat == winner else n % 3 for seat in range(4)]
    return {"kind": "hand", "winner": winner, "held": held}


@pytest.fixture
def settled(monkeypatch):
    """[hands settled so far]: every call of `settle` the table makes is counted."""
    count = [0]

    def counted(*args, **kwargs):
        count[0] += 1
        return scoring.settle(*args, **kwargs)

    monkeypatch.setattr(T, "settle", counted)
    return count


def test_each_hand_shares_every_hand_before_it():
    """A hand entry adds one link to the hands before it, and undo takes it off again: nothing
    is copied, so N hands cost N steps (a tuple rebuilt per hand cost N²/2 copies)."""
    table = T.apply(T.EMPTY, _start())
    for n in range(300):
        before = table.game.hands
        table = T.apply(table, _hand(n))
        assert table.game.hands.before is before
        assert table.game.hands.last is table.game.hands[-1]
    assert len(table.game.hands) == 300
    undone = T.apply(table, {"kind": "undo"})
    assert undone.game.hands is table.game.hands.before
    again = T.apply(undone, _hand(299))
    assert again.game.hands.before is undone.game.hands and again == table


def test_folding_n_hands_settles_n_hands(settled):
    T.fold([_start(), *map(_hand, range(2000))])
    assert settled[0] == 2000


@pytest.mark.parametrize("kind", ["edit", "void"])
def test_an_edit_resettles_only_the_hands_after_it(settled, kind):
    table = T.fold([_start(), *map(_hand, range(1000))])
    settled[0] = 0
    change = {"kind": kind, "hand": 900}
    if kind == "edit":
        change |= {"winner": 1, "held": [5, None, 0, 2]}
    changed = T.apply(table, change)
    assert settled[0] == (100 if kind == "edit" else 99)
    assert changed.game.hands.first(900) is table.game.hands.first(900)  # shared, not redone
    assert len(changed.game.hands) == (1000 if kind == "edit" else 999)
    assert T._rescore(changed.game, T._records(changed.game)) == changed.game


def test_an_edit_of_an_early_hand_ripples_through_the_later_ones():
    table = T.fold([_start(), *map(_hand, range(50))])
    edited = T.apply(table, {"kind": "edit", "hand": 0, "winner": 1, "held": [40, None, 0, 0]})
    assert [h.totals[1] - 40 for h in edited.game.hands] == [h.totals[1] for h in table.game.hands]
    assert edited.game.sheet.scores[1] == table.game.sheet.scores[1] + 40
    assert T.apply(edited, {"kind": "undo"}) == table


def test_hands_read_like_a_tuple():
    table = T.fold([_start(), *map(_hand, range(30))])
    hands = table.game.hands
    as_tuple = tuple(hands)
    assert len(as_tuple) == 30 and hands == as_tuple and hands[3] is as_tuple[3]
    assert hands[-20:] == as_tuple[-20:] and hands.newest(20) == list(as_tuple[-20:])
    assert list(reversed(hands)) == list(reversed(as_tuple))
    assert hands.first(0) is T.NO_HANDS and not T.NO_HANDS and hands
    assert hash(hands) == hash(T.fold([_start(), *map(_hand, range(30))]).game.hands)
    with pytest.raises(IndexError):
        hands[30]
    with pytest.raises(IndexError):
        hands.first(31)


def test_a_long_game_pickles_and_copies_without_recursion():
    game = T.fold([_start(), *map(_hand, range(5000))]).game
    for again in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert again == game and len(again.hands) == 5000
