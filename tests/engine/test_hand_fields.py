"""A hand's fields are declared once, in `HandState`'s annotations: `__slots__` is made from them
(mypyc makes its compiled class's attributes from them), and `clone`, written out by hand for
speed, is held to them here, in both builds, so that a field added and not copied fails."""

import random

import pytest

from engine.disney.game import Game
from engine.disney.hand import Hand
from engine.disney.handstate import HandState
from engine.disney.simulate import new_deck

SHARED = {"variant", "seats", "pos_of", "names"}  # never changed once dealt: shared by a clone


def declared_fields() -> tuple[str, ...]:
    """The fields as the running build knows them: a compiled class keeps no annotations, but
    lists its attributes (in the order of the annotations)."""
    return getattr(HandState, "__mypyc_attrs__", None) or tuple(HandState.__annotations__)


@pytest.fixture
def hand() -> Hand:
    game = Game("classic", ["a", "b", "c"], 0, {"stacking": "mixed"})
    game.start_hand(new_deck(game, random.Random(3)))
    return game.dealt()


def test_the_fields_are_declared_once():
    assert len(declared_fields()) == len(set(declared_fields())) > 15
    if not hasattr(HandState, "__mypyc_attrs__"):  # pure Python: the slots are the annotations
        assert HandState.__slots__ == tuple(HandState.__annotations__) and Hand.__slots__ == ()


def test_a_dealt_hand_sets_every_field(hand):
    for field in declared_fields():
        getattr(hand, field)  # (an unset slot or attribute raises AttributeError)


def test_clone_copies_every_field_and_shares_only_what_never_changes(hand):
    copy = hand.clone()
    for field in declared_fields():
        mine, theirs = getattr(hand, field), getattr(copy, field)
        if field == "stats":
            assert mine is not theirs and mine.as_dict() == theirs.as_dict()
        elif field == "steps":
            assert mine == theirs and mine is not theirs  # (a step never changes: shared)
        elif field == "log":  # a copy writes into no record (trials, search): the game's own
            assert mine is not None and theirs is None  # copy gives it its copy of the record
        else:
            assert mine == theirs, field
        if isinstance(mine, list) or (isinstance(mine, dict) and field not in SHARED):
            assert mine is not theirs, field
        if field == "hands":
            assert all(a is not b for a, b in zip(mine, theirs, strict=True))
