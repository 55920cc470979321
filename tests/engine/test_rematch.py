"""A new game at the same table (`Game.rematch`) and the table's rules a hand reads once: the
two short cuts a simulation of single hands takes, each equal to the long way."""

import random

import pytest

from engine.disney.game import Game
from engine.disney.hand import Hand, RenegeTest
from engine.disney.rulesets import DISNEY

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def test_a_rematch_is_a_new_game_at_the_same_table():
    table = Game("disney", PLAYERS, 0, {"villain_draw4_may_take": True, "target": 200})
    table.start_hand(table.shuffled_deck(random.Random(1)))
    again = table.rematch(2)
    assert again.rules is table.rules and again.options == table.options
    assert again.players == PLAYERS and again.dealer == again.first_dealer == 2
    assert again.hand is None and again.history == [] and again.events == []
    assert again.sheet.scores == (0, 0, 0, 0) and not again.sheet.over
    assert table.hand is not None  # the game it came from is untouched


def test_a_rematch_deals_as_a_game_made_from_scratch():
    deck = Game("disney", PLAYERS).shuffled_deck(random.Random(7))
    options = {"villain_draw4_skips_next": True}
    fresh = Game("disney", PLAYERS, 3, options)
    again = Game("disney", PLAYERS, 0, options).rematch(3)
    for game in (fresh, again):
        game.start_hand(deck)
    assert again.summary() == fresh.summary()
    assert again.legal_actions() == fresh.legal_actions()


@pytest.mark.parametrize("dealer", [-1, 4, 10])
def test_a_rematch_refuses_a_dealer_who_is_not_at_the_table(dealer):
    with pytest.raises(ValueError, match="the dealer must be a seat from 0 to 3"):
        Game("disney", PLAYERS).rematch(dealer)


def test_each_table_of_options_gets_its_own_hand_rules():
    deck = Game("disney", PLAYERS).shuffled_deck(random.Random(3))
    hands = [
        Game("disney", PLAYERS, 0, options).rematch(0)
        for options in ({}, {"villain_draw4_may_take": True, "renege_test": "playable"}, {})
    ]
    for game in hands:
        game.start_hand(deck)
    plain, taking, plain_again = (game.dealt() for game in hands)
    assert not plain.variant.villain_may_take and plain.variant.renege_test == RenegeTest.COLOUR
    assert taking.variant.villain_may_take and taking.variant.renege_test == RenegeTest.PLAYABLE
    assert (
        not plain_again.variant.villain_may_take
        and plain_again.variant.renege_test == RenegeTest.COLOUR
    )
    assert plain.variant is plain_again.variant  # read from one object per set of options


def test_an_option_value_that_cannot_be_a_key_is_still_read():
    """Options reach `Hand.deal` checked by the game; a caller's own mapping may hold anything."""
    deck = list(DISNEY.deck)
    h = Hand.deal(DISNEY, {"villain_draw4_may_take": True, "note": ["a list"]}, [0, 1], 0, deck)
    assert h.variant.villain_may_take and len(h.hands[0]) == len(h.hands[1]) == 7
