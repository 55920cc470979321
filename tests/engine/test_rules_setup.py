"""The Contents, Set Up and first-discard rules of the Disney text, one test per sentence."""

import random
from collections import Counter

import pytest

from engine.disney import actions as A
from engine.disney import cards as C
from engine.disney.game import Game
from engine.disney.hand import RuleError
from engine.disney.rulesets import DISNEY
from engine.disney.simulate import choose_dealer
from tests.engine.helpers import act, deck_for, game, hand_of, play, tinker


def test_contents_112_cards():
    """ "112 cards as follows: 19 Blue cards - 0 to 9 ... 4 Wild Discard All 1 Color cards" """
    deck = Counter(C.code(c) for c in DISNEY.deck)
    assert len(DISNEY.deck) == 112
    for letter in "RBGY":
        assert sum(deck[f"{letter}{n}"] for n in range(10)) == 19
        assert deck[f"{letter}0"] == 1 and deck[f"{letter}9"] == 2
        assert deck[f"{letter}S"] == deck[f"{letter}R"] == deck[f"{letter}D2"] == 2
    assert deck["W"] == deck["VD4"] == deck["WDA"] == 4


def test_card_values():
    """ "All number cards (0-9) Face Value; Draw 2 20 Points; Reverse 20; Skip 20; Wild 50;
    Wild: Discard 1 Color 50; Villain Draw 4 75" """
    value = {
        code: DISNEY.points[C.card(code)]
        for code in ["G0", "B7", "Y9", "RD2", "BR", "GS", "W", "WDA", "VD4"]
    }
    assert value == {
        "G0": 0,
        "B7": 7,
        "Y9": 9,
        "RD2": 20,
        "BR": 20,
        "GS": 20,
        "W": 50,
        "WDA": 50,
        "VD4": 75,
    }


def test_dealer_is_highest_card():
    """ "Each player draws a card. Player with the highest point value is the dealer." """
    for seed in range(30):
        dealer, rounds = choose_dealer(4, random.Random(seed), DISNEY.deck)
        last = rounds[-1]
        values = {s: DISNEY.points[C.card(c)] for s, c in enumerate(last) if c is not None}
        assert values[dealer] == max(values.values())
        assert sum(v == values[dealer] for v in values.values()) == 1


def test_dealer_ties_draw_again():
    """A tie for the highest card draws again among the tied players (RULES-MAP: dealer-tie)."""
    seen_tie = False
    for seed in range(200):
        dealer, rounds = choose_dealer(6, random.Random(seed), DISNEY.deck)
        if len(rounds) > 1:
            seen_tie = True
            first = {s: DISNEY.points[C.card(c)] for s, c in enumerate(rounds[0])}
            best = max(first.values())
            tied = {s for s, v in first.items() if v == best}
            assert {s for s, c in enumerate(rounds[1]) if c is not None} == tied
            assert dealer in tied
    assert seen_tie


def test_deal_seven_each_from_the_left_of_the_dealer():
    """ "Each player is dealt 7 cards." Dealing starts with the player to the dealer's left."""
    deck = list(DISNEY.deck)
    random.Random(5).shuffle(deck)
    g = Game("disney", ["A", "B", "C"], dealer=1)
    g.start_hand(deck)
    h = g.hand
    assert [len(x) for x in h.hands] == [7, 7, 7]
    assert h.hands[2][0] == deck[0] and h.hands[0][0] == deck[1] and h.hands[1][0] == deck[2]
    assert len(h.draw) == 112 - 21 - len(h.discard)


@pytest.mark.parametrize("returned", ["WDA", "VD4"])
def test_first_discard_wda_or_villain_is_returned(returned):
    """ "If the top card is a Discard All 1 Color Wild, or Villain Draw 4, return it to the deck
    and pick another card." It goes under the DRAW pile."""
    g = game(3, {}, top="G4", returned=[returned])
    assert g.summary()["discard_top"] == "G4"
    assert g.hand.draw[0] == C.card(returned)  # bottom of the DRAW pile
    assert g.awaiting() == {"kind": "play", "seat": 1}


def test_first_discard_wild_left_of_dealer_names_colour_and_plays():
    """ "If a wild card is turned up at the beginning of play, the person to the left of the
    dealer chooses the color to begin play and plays the first card." """
    g = game(4, {2: ["Y3"]}, top="W", dealer=1)
    assert g.awaiting() == {"kind": "colour", "seat": 2}
    with pytest.raises(RuleError):
        play(g, "Y3")
    act(g, "colour", colour="yellow")
    assert g.awaiting() == {"kind": "play", "seat": 2}
    play(g, "Y3")
    assert g.summary()["discard_top"] == "Y3"


def test_first_discard_reverse_right_of_dealer_starts_going_right():
    """ "If this card is turned up at the beginning of play, the player to the right of the
    dealer plays first, and play then goes to the right instead of left." """
    g = game(4, {0: ["B5", "G5"]}, top="BR", dealer=1)
    assert g.awaiting() == {"kind": "play", "seat": 0}
    play(g, "B5")
    assert g.current_player() == 3 and g.hand.direction == -1


def test_first_discard_skip_skips_left_of_dealer():
    """ "If this card is turned over at the beginning of play, the player to the left of the
    dealer is skipped." """
    g = game(4, {}, top="GS", dealer=0)
    assert g.awaiting() == {"kind": "play", "seat": 2}


def test_first_discard_draw2_left_of_dealer_hits_the_button():
    """ "If this card is turned up at the beginning of play, then the player to the left of the
    dealer will hit the Tinker Bell Button." On no match that player draws 2 and is skipped."""
    g = game(4, {}, top="RD2", dealer=0)
    assert g.awaiting() == {"kind": "tinker_bell", "seat": 1}
    before = len(hand_of(g, 1))
    tinker(g, "blue")
    assert len(hand_of(g, 1)) == before + 2
    assert g.awaiting() == {"kind": "play", "seat": 2}


def test_first_discard_draw2_match_lets_the_dealer_choose():
    """On a match the dealer, whose card it counts as, chooses who draws 2 (RULES-MAP:
    first-discard-draw2)."""
    g = game(4, {}, top="RD2", dealer=0)
    tinker(g, "red")
    assert g.awaiting() == {"kind": "target", "seat": 0}
    act(g, "target", target=2)
    assert len(hand_of(g, 2)) == 9
    assert g.awaiting() == {"kind": "play", "seat": 3}


def test_first_player_is_left_of_dealer_and_play_goes_left():
    """ "Player to the left of the dealer plays first. Play passes to the left to start." """
    g = game(3, {0: ["R1", "G1"], 1: ["R2", "G2"], 2: ["R3", "G3"]}, top="R9", dealer=2)
    assert g.current_player() == 0
    play(g, "R1")
    assert g.current_player() == 1


def test_deck_must_be_the_rulesets_deck():
    g = Game("disney", ["A", "B"])
    deck = deck_for(2, {}, top="R5")
    with pytest.raises(ValueError, match="not the disney deck"):
        g.start_hand(deck[:-1])
    with pytest.raises(ValueError, match="not the disney deck"):
        g.start_hand([*deck[:-1], C.card("W4")])


@pytest.mark.parametrize("n", [1, 11])
def test_two_to_ten_players(n):
    """ "Players: 2-10" """
    with pytest.raises(ValueError, match="2-10 players"):
        Game("disney", ["x"] * n)


def test_actions_are_listed_for_the_player_to_move():
    g = game(2, {1: ["R5", "G7", "B1", "B2", "B3", "B4", "B6"]}, top="R9")
    assert set(g.legal_actions()) == {A.play(C.card("R5"))}
