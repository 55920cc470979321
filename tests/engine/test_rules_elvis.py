"""UNO Elvis Presley (shared/rules/elvis.txt): one test per rule, each quoting its sentence.
Choices where the book is silent are in docs/RULES-MAP.md ("UNO Elvis Presley")."""

import random
from collections import Counter
from functools import partial
from itertools import combinations

import pytest

from engine.bots import make
from engine.disney import actions as A
from engine.disney import cards as C
from engine.disney import scoring
from engine.disney.game import Game
from engine.disney.rulesets import ELVIS
from engine.disney.simulate import play_hand
from tests.engine.helpers import act, game, hand_of, legal_codes, play, refused

eg = partial(game, ruleset="elvis")
TEN = ["B1", "B2", "B3", "B4", "B6", "B7", "B8", "B9", "Y1", "Y2"]


def test_contents():
    """ "19 Blue Cards (one 0, two each of 1-9) ... 8 Draw 2 Cards ... 8 Reverse Cards ... 8 Skip
    Cards ... 4 Vegas Cards (one of each color) 4 Wild Cards 4 Wild Draw 4 Cards" """
    deck = Counter(C.code(c) for c in ELVIS.deck)
    assert len(ELVIS.deck) == 112
    for letter in "RBGY":
        assert sum(deck[f"{letter}{n}"] for n in range(10)) == 19
        assert deck[f"{letter}D2"] == deck[f"{letter}R"] == deck[f"{letter}S"] == 2
        assert deck[f"{letter}V"] == 1
    assert deck["W"] == deck["W4"] == 4


def test_first_discard_wild_draw4_or_vegas_is_returned():
    """ "If you turn over a Wild Draw Four or a Vegas card, you will return it to the deck and
    draw a new card." """
    g = eg(3, {}, top="R5", returned=["W4", "GV"])
    assert g.summary()["discard_top"] == "R5"
    assert {C.code(c) for c in g.hand.draw[:2]} == {"W4", "GV"}


def test_first_discard_action_cards():
    """ "Should a player turn over a Draw 2 card to start the game, the player to the left of the
    dealer has to draw two cards and they lose their turn." "Should a Reverse card be turned over
    to start the game, the dealer plays the first card and play moves counter-clockwise/right"
    "If a Skip card is turned over to start the game, the player to the left of the dealer loses
    their turn." "If a Wild card is turned up to start the game, the player to the left of the
    dealer chooses the color" """
    g = eg(3, {}, top="GD2")
    assert len(hand_of(g, 1)) == 9 and g.current_player() == 2
    g = eg(3, {}, top="GR")
    assert g.current_player() == 0 and g.summary()["direction"] == -1
    g = eg(3, {}, top="GS")
    assert g.current_player() == 2
    g = eg(3, {}, top="W")
    assert g.awaiting() == {"kind": "colour", "seat": 1}


def test_drawing_instead_of_playing_only_the_drawn_card_may_follow():
    """ "Should you have a card in your hand at the beginning of your turn that you can play but
    you don’t want to play it, you can choose to keep it in your hand. In this case you will draw
    a card. The only card you can play for the rest of your turn is the card you just drew." """
    g = eg(3, {1: ["R1", "B1"]}, top="R5", draw=["R9"])
    act(g, "draw")
    refused(g, play, "R1", rule="play-drawn")
    play(g, "R9")


def test_draw2_no_passing_the_punishment_on():
    """ "The Draw 2 card forces the next player in turn order to draw two cards. They also lose
    their next turn." "you cannot play your own Draw 2 card to pass the punishment onto the next
    player." """
    g = eg(3, {1: ["RD2", "B1", "B2"], 2: ["GD2", "B3"]}, top="R5")
    play(g, "RD2")
    assert len(hand_of(g, 2)) == 4 and g.current_player() == 0
    assert "stacking" not in ELVIS.options


def test_vegas_matches_vegas_or_its_colour():
    """ "The Vegas card can be played on top of another Vegas card, or a card that matches its
    color." """
    g = eg(3, {1: ["GV", "BV", "RV", "Y1"], 2: ["YV", "B2", "G2"]}, top="R5", draw=["G5", *TEN])
    assert legal_codes(g) == {"RV"}
    play(g, "RV")
    act(g, "flip")
    assert "YV" in legal_codes(g)


def vegas(turned: str, players: int = 3, **kw):
    g = eg(
        players, {1: ["RV", "B5", "B6"], **kw.pop("hands", {})}, top="R5", draw=[turned, *TEN], **kw
    )
    play(g, "RV")
    nxt = 2 % players
    assert g.awaiting() == {"kind": "flip", "seat": nxt} and g.legal_actions() == [A.FLIP]
    act(g, "flip")
    return g


def test_vegas_number_draws_that_many_and_keeps_the_card():
    """ "Should the player flip over a number card, the player draws a number of cards equal to
    the number on the card. They will add all of these cards along with the card they flipped
    over to their hand." """
    g = vegas("G5", hands={2: ["Y3"]})
    assert hand_of(g, 2) == sorted(["Y3", "G5", *TEN[:5]])
    assert g.awaiting() == {"kind": "play", "seat": 2}


def test_vegas_skip():
    """ "Skip: The player that flips over the Skip card, adds the Skip card to their hand. They
    also skip their turn. The next player in turn order adds the ten drawn cards to their hand.
    That player also loses their turn." """
    g = vegas("GS", hands={2: ["Y3"], 0: ["Y4"]})
    assert hand_of(g, 2) == ["GS", "Y3"] and len(hand_of(g, 0)) == 11
    assert g.awaiting() == {"kind": "play", "seat": 1}


def test_vegas_reverse():
    """ "Reverse: When a Reverse card is flipped over, the player who played the Vegas card has to
    draw the ten cards. The player that flipped over the Reverse card adds it to their hand. You
    will also reverse turn order." """
    g = vegas("GR", hands={2: ["Y3", "R7"]})
    assert len(hand_of(g, 1)) == 12 and hand_of(g, 2) == ["GR", "R7", "Y3"]
    assert g.summary()["direction"] == -1
    play(g, "R7")
    assert g.current_player() == 1


def test_vegas_draw2_wild_or_wild_draw4():
    """ "Draw 2, Wild, Wild Draw 4: When a player flips over one of these three cards, the player
    who flips it over has to draw ten cards in addition to the card (Draw 2, Wild, Wild Draw 4)
    that they flipped over." """
    for turned in ("GD2", "W", "W4"):
        g = vegas(turned, hands={2: ["Y3"]})
        assert len(hand_of(g, 2)) == 12 and turned in hand_of(g, 2)


def test_wild_draw4_challenge():
    """ "If the player played the card correctly (they had no cards that matched the color), the
    challenger has to draw six cards." "If the player played the card incorrectly ..., the player
    who played the Wild Draw 4 has to draw the four cards. The challenger does not have to draw
    any cards, and they don’t lose their turn." """
    g = eg(3, {1: ["W4", "G5", "B7"], 2: ["G1", "B2"]}, top="R5")
    play(g, "W4", colour="green")
    act(g, "challenge", target=1)
    assert len(hand_of(g, 2)) == 8 and g.current_player() == 0
    g = eg(3, {1: ["W4", "R1", "B7"], 2: ["G1", "B2"]}, top="R5")
    play(g, "W4", colour="red")  # "The color they choose has no impact on any potential challenge"
    act(g, "challenge", target=1)
    assert len(hand_of(g, 1)) == 6 and g.awaiting() == {"kind": "play", "seat": 2}


def test_uno_elvis_penalty_is_five_cards():
    """ "If you do not say UNO Elvis and another player catches you, you have to draw five cards
    from the Draw Pile." """
    g = eg(3, {1: ["R1", "R2"]}, top="R5")
    play(g, "R1")
    act(g, "catch", seat=0, target=1)
    assert len(hand_of(g, 1)) == 6


def test_going_out_on_a_draw_card():
    """ "If the last card they play is a Draw 2 or a Wild Draw 4, the next player in turn order
    still has to draw the corresponding number of cards." """
    g = eg(3, {1: ["RD2"], 2: ["Y3"]}, top="R5")
    play(g, "RD2")
    assert len(hand_of(g, 2)) == 3


def test_vegas_scores_ten_times_the_cards_collected():
    """ "Vegas – Count up the number of cards you collected and multiply it by ten." """
    g = eg(3, {1: ["R1"], 2: ["RV", "G3"], 0: ["B4", "W"]}, top="R5")
    play(g, "R1")
    assert g.sheet.scores[1] == 10 * 4 + 3 + 4 + 50


def test_alternative_scoring_each_scores_their_own_hand():
    """ "have each player score points for the cards left in their own hand at the end of each
    round ... The player who has scored the least points wins the game." (scoring=lowest; with
    elimination, scoring=challenge)"""
    g = eg(3, {1: ["R1"], 2: ["RV", "G3"], 0: ["B4", "W"]}, top="R5", options={"scoring": "lowest"})
    play(g, "R1")
    assert g.sheet.scores == (54, 0, 10 * 2 + 3)


def test_two_players():
    """ "Draw 2 and Wild Draw 4 cards force the other player to draw the corresponding number of
    cards. The player that played the card then takes another turn." "If you play a Reverse card,
    it acts like a Skip card." """
    g = eg(2, {1: ["RD2", "RR", "B1", "B2"], 0: ["Y3"]}, top="R5")
    play(g, "RD2")
    assert len(hand_of(g, 0)) == 3 and g.current_player() == 1
    play(g, "RR")
    assert g.current_player() == 1


def test_two_player_vegas_skip_or_reverse():
    """ "The player that plays the Vegas card has to draw the ten cards while the other player
    only adds the Skip/Reverse card to their hand." """
    for turned in ("GS", "GR"):
        g = vegas(turned, players=2, hands={0: ["Y3"]})
        assert hand_of(g, 0) == sorted(["Y3", turned]) and len(hand_of(g, 1)) == 12
        assert g.current_player() == 1


def test_partners_alternate_and_collect_the_other_teams_cards():
    """ "If there are four players you can choose to play with another player as your teammate.
    The teams will alternate positions around the table." "The winning team collects all of the
    cards left in the other team’s hands." (option partners; Vegas counts the cards collected)"""
    g = eg(
        4,
        {1: ["R1"], 3: ["G3"], 0: ["RV", "B4"], 2: ["Y4", "Y5"]},
        top="R5",
        options={"partners": True},
    )
    play(g, "R1")
    won = 10 * 4 + 4 + 4 + 5  # seat 3's G3 stays with the winning team
    assert g.sheet.scores == (0, won, 0, won)


def test_partner_schedule_pairs_everyone_with_everyone_once():
    """ "play four hands with each other player as your partner. You will play a total of twelve
    hands." "If there are eight players ... you will play two games at the same time. ... Each
    player will play a total of 28 hands." """
    for players, rounds in ((4, 3), (8, 7)):
        schedule = scoring.partner_schedule(players)
        assert len(schedule) == rounds and rounds * scoring.ROTATION_HANDS in (12, 28)
        pairs = [team for tables in schedule for table in tables for team in table]
        assert sorted(pairs) == sorted(combinations(range(players), 2))  # each pair once
        for tables in schedule:  # everyone plays every round, at one table
            assert sorted(s for table in tables for team in table for s in team) == list(
                range(players)
            )
            assert len(tables) == players // 4


def test_partners_rotation_twelve_hands_most_points_wins():
    """ "Each player keeps track of the points they score throughout the game. The player that
    scores the most points wins the game." (option partners_rotation, four players)"""
    g = Game("elvis", ["A", "B", "C", "D"], 0, {"partners_rotation": True})
    rng = random.Random(4)
    bots = make(["greedy"], 4, rng)
    teams = []
    while not g.is_terminal():
        g.start_hand(g.shuffled_deck(rng))
        seats = g.hand.seats
        teams.append({frozenset((seats[0], seats[2])), frozenset((seats[1], seats[3]))})
        play_hand(g, bots, rng)
        last = g.history[-1]
        team = scoring.rotation_team(last["winner"], len(g.history) - 1)
        assert last["awarded"][team[0]] == last["awarded"][team[1]] > 0 or sum(last["held"]) == 0
    assert len(g.history) == 12
    assert all(t == teams[4 * (i // 4)] for i, t in enumerate(teams))  # four hands a pairing
    assert len({frozenset(t) for t in teams}) == 3
    best = max(g.sheet.scores)
    assert g.sheet.winner in (
        g.sheet.scores.index(best),
        tuple(s for s in range(4) if g.sheet.scores[s] == best),
    )
    with pytest.raises(ValueError, match="four players"):
        Game("elvis", ["A", "B", "C"], 0, {"partners_rotation": True})


def test_eight_players_play_two_games_at_once_28_hands_each():
    """ "If there are eight players, you will use the rules in the previous paragraph except that
    you will play two games at the same time. Four people will play in each game. Each player
    will play a total of 28 hands." """
    import itertools
    import random
    from collections import Counter

    from engine.bots import make
    from engine.disney.simulate import eight_player_rotation

    rng = random.Random(4)
    names = [f"p{i}" for i in range(8)]
    totals, tables = eight_player_rotation(
        "elvis", {"partners_rotation": True}, names, make(["greedy"], 8, rng), rng
    )
    played, partnered = Counter(), Counter()
    for table, seating in tables:
        assert table.hand_no == 4 and table.options["partners"]
        for s in seating:
            played[s] += table.hand_no
        partnered[frozenset(seating[0::2])] += table.hand_no  # partners sit opposite
        partnered[frozenset(seating[1::2])] += table.hand_no
    assert played == {s: 28 for s in range(8)}
    assert partnered == {frozenset(p): 4 for p in itertools.combinations(range(8), 2)}
    for r in range(7):  # each round: two games at once, everyone seated once
        (_, one), (_, two) = tables[2 * r], tables[2 * r + 1]
        assert sorted(one + two) == list(range(8))
    assert totals == [
        sum(g.sheet.scores[seat.index(s)] for g, seat in tables if s in seat) for s in range(8)
    ]


def test_eight_player_rotation_from_the_command_line(capsys):
    import json

    from cli.main import main

    args = [
        "simulate",
        "--ruleset",
        "elvis",
        "--players",
        "8",
        "--option",
        "partners_rotation=true",
        "--bots",
        "greedy",
        "--json",
    ]
    assert main([*args, "--games", "1"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["hands"] == 56 and stats["games"] == 1 and sum(stats["game_wins_by_seat"]) >= 1
    assert main([*args, "--hands", "3"]) == 2
    assert "whole games" in capsys.readouterr().err
