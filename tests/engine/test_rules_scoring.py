"""Scoring, Winning, Partners and Challenge UNO."""

import random

import pytest

from engine.bots import make
from engine.disney import scoring
from engine.disney.game import Game
from engine.disney.simulate import play_hand, simulate
from tests.engine.helpers import game, play


def test_winner_scores_cards_left_in_other_hands():
    """ "If you are first to get rid of all your cards, you get points for the cards left in the
    other players hands." """
    g = game(3, {0: ["Y9", "WDA"], 1: ["B3"], 2: ["GR", "VD4"]}, top="B4")
    play(g, "B3")
    assert g.history[-1]["awarded"] == [0, 9 + 50 + 20 + 75, 0]


def test_first_to_500_wins():
    """ "The first player to score 500 points wins the game." """
    sheet = scoring.Sheet(scores=(480, 10, 0))
    sheet, _ = scoring.settle(sheet, {"target": 500}, [0, 5, 30], 0)
    assert sheet.winner == 0 and sheet.scores == (515, 10, 0)


def test_not_yet_500_plays_on():
    sheet, _ = scoring.settle(scoring.Sheet(scores=(400, 0)), {"target": 500}, [0, 99], 0)
    assert sheet.winner is None and sheet.scores == (499, 0)


def test_lowest_total_variant():
    """ "the game may be scored by keeping a running total of the points each player is caught
    with at the end of each hand. When one player reaches 500 points, the player with the lowest
    points is the winner." """
    opts = {"scoring": "lowest", "target": 500}
    sheet = scoring.Sheet(scores=(450, 100, 300))
    sheet, charged = scoring.settle(sheet, opts, [60, 0, 20], 1)
    assert charged == (60, 0, 20) and sheet.scores == (510, 100, 320)
    assert sheet.winner == 1


def test_partners_score_the_opponents_hands():
    """ "Partners (Four Players) - Sit across from your partner. When either partner goes out, the
    hand is over. Total all of the points in both opposing partners' hands and score for the
    winning team." """
    opts = {"partners": True, "target": 500}
    sheet, awarded = scoring.settle(scoring.Sheet.new(4), opts, [0, 30, 99, 12], 0)
    assert awarded == (42, 0, 42, 0)  # seat 2's own 99 points do not count
    sheet, _ = scoring.settle(scoring.Sheet(scores=(480, 0, 480, 0)), opts, [0, 30, 5, 0], 2)
    assert sheet.winner == (0, 2)


def test_partners_need_four_players():
    with pytest.raises(ValueError, match="four players"):
        Game("disney", ["a", "b", "c"], options={"partners": True})


@pytest.mark.parametrize(
    ("ruleset", "says"),
    [
        ("disney", '("Partners (Four Players)")'),  # the Disney book's heading
        (
            "elvis",
            '("If there are four players you can choose to play with another player as '
            'your teammate.")',
        ),
        ("classic", ""),  # the classic book has no partners: nothing to quote
    ],
)
def test_the_partners_refusal_quotes_the_book_being_played(ruleset, says):
    """Issue 41.13: UNO Elvis's refusal quoted the Disney book's heading."""
    with pytest.raises(ValueError) as refused:
        Game(ruleset, ["a", "b", "c"], options={"partners": True})
    assert str(refused.value) == f"partners need exactly four players {says}".rstrip()


def test_challenge_uno_eliminates_at_target_last_player_wins():
    """ "As each player reaches a designated amount (500 is suggested), that player is eliminated
    from the game. ... When a player reaches or exceeds the amount designated, they lose. The
    winner of that final hand is declared the winning player of the game." """
    opts = {"scoring": "challenge", "target": 100}
    sheet = scoring.Sheet(scores=(90, 20, 50))
    sheet, _ = scoring.settle(sheet, opts, [10, 0, 5], 1)
    assert sheet.eliminated == {0} and sheet.winner is None and sheet.active() == [1, 2]
    sheet, _ = scoring.settle(sheet, opts, [0, 0, 60], 1)
    assert sheet.eliminated == {0, 2} and sheet.winner == 1


def test_challenge_uno_head_to_head_uses_two_player_rules():
    """ "When only two players are left in the game, they play head to head. (See Rules for Two
    Players above.)" """
    g = Game("disney", ["a", "b", "c"], options={"scoring": "challenge", "target": 60})
    g.sheet = scoring.Sheet(scores=(70, 0, 0), eliminated=frozenset({0}))
    rng = random.Random(3)
    g.start_hand(g.shuffled_deck(rng))
    assert g.hand.seats == (1, 2) and g.hand.num_players == 2
    assert g.dealer in (1, 2)
    bots = make(["random"], 3, rng)
    while not g.is_terminal():
        play_hand(g, bots, rng)
        if not g.is_terminal():
            g.sample_chance(rng)
    assert g.sheet.winner in (1, 2)
    assert g.sheet.winner == g.history[-1]["winner"]


def test_dealer_moves_left_each_hand():
    g = Game("disney", ["a", "b", "c"], dealer=2)
    rng = random.Random(1)
    g.start_hand(g.shuffled_deck(rng))
    bots = make(["greedy"], 3, rng)
    play_hand(g, bots, rng)
    g.sample_chance(rng)
    assert g.dealer == 0


@pytest.mark.parametrize("scoring_mode", ["standard", "lowest", "challenge"])
def test_whole_games_end_with_a_winner(scoring_mode):
    stats = simulate(players=4, seed=7, games=3, options={"scoring": scoring_mode, "target": 200})
    assert stats["games"] == 3 and sum(stats["game_wins_by_seat"]) == 3


def test_partner_games_credit_both_partners():
    stats = simulate(players=4, seed=7, games=4, bots=["greedy"], options={"partners": True})
    wins = stats["game_wins_by_seat"]
    assert wins[0] == wins[2] and wins[1] == wins[3] and sum(wins) == 8
