"""A hand's fields are listed once, in `Hand`'s annotations: `__slots__` and `clone` are held
to that list here, so a field added to one and not the others fails."""

import random

import engine
from engine.game import Game
from engine.hand import Hand
from engine.simulate import new_deck


def test_the_slots_are_the_annotated_fields():
    slots = getattr(Hand, "__slots__", None)
    if slots is None:  # mypyc makes a compiled class's attributes from its annotations
        assert engine.BUILD == "compiled"
        return
    assert sorted(slots) == sorted(Hand.__annotations__)


def test_clone_copies_every_field_and_shares_only_what_never_changes():
    game = Game("classic", ["a", "b", "c"], 0, {"stacking": "mixed"})
    game.start_hand(new_deck(game, random.Random(3)))
    h = game.dealt()
    copy = h.clone()
    shared = {"variant", "seats", "pos_of", "names"}  # never changed once dealt
    for field in Hand.__annotations__:
        mine, theirs = getattr(h, field), getattr(copy, field)
        if field == "stats":
            assert mine is not theirs and mine.as_dict() == theirs.as_dict()
        else:
            assert mine == theirs, field
        if isinstance(mine, list) or (isinstance(mine, dict) and field not in shared):
            assert mine is not theirs, field
