"""The classic 108-card rules (shared/rules/classic-108.txt): one test per rule, each quoting the
sentence it proves. Choices where the book is silent are in docs/RULES-MAP.md ("classic")."""

import random
from collections import Counter
from functools import partial

import pytest

from engine import record
from engine.bots import make, offer_calls
from engine.disney import actions as A
from engine.disney import cards as C
from engine.disney.game import Game
from engine.disney.rulesets import CLASSIC, RULESETS
from engine.disney.steps import MOST_SEATS, PLAY_AT, PROTECT_AT
from tests.engine.helpers import act, game, hand_of, legal_codes, play, refused

cg = partial(game, ruleset="classic")


def test_contents_108_cards():
    """ "The Uno Card Deck is composed of 108 color-coded playing cards" "There are 25 cards for
    each of the 4 colors" "And then there are 8 Black cards that are Wild Cards." (Wild 4, Wild
    Draw 4 4)"""
    deck = Counter(C.code(c) for c in CLASSIC.deck)
    assert len(CLASSIC.deck) == 108
    for letter in "RBGY":
        assert sum(n for code, n in deck.items() if code.startswith(letter)) == 25
        assert deck[f"{letter}0"] == 1 and deck[f"{letter}9"] == 2
        assert deck[f"{letter}S"] == deck[f"{letter}R"] == deck[f"{letter}D2"] == 2
    assert deck["W"] == deck["W4"] == 4
    assert not {"VD4", "WDA", "WSH", "WC"} & set(deck)


def test_card_values():
    """ "0-9 According to Face Value / Action Cards (Skip, Reverse, Draw2) 20 Points / Wild Cards
    50 Points" """
    value = {c: CLASSIC.points[C.card(c)] for c in ["G0", "B7", "Y9", "RD2", "BR", "GS", "W", "W4"]}
    assert value == {"G0": 0, "B7": 7, "Y9": 9, "RD2": 20, "BR": 20, "GS": 20, "W": 50, "W4": 50}


def test_first_discard_wild_draw4_is_returned():
    """ "IF the dealer flips a “Wild Draw 4” card at the very start of the game, this card is
    returned to the deck and another is drawn in its place." """
    g = cg(3, {}, top="R5", returned=["W4"])
    assert g.summary()["discard_top"] == "R5"
    assert g.hand.draw[0] == C.WILD_DRAW4  # under the deck
    assert g.awaiting() == {"kind": "play", "seat": 1}


def test_first_discard_action_card_left_of_dealer_just_responds():
    """ "Once the dealer flips the first card into the discard pile, the player to the dealer’s
    left must respond by discarding, playing wild cards, or drawing from the stock." The book
    lists one exception (the Wild Draw 4), so a Skip, Reverse or Draw 2 turned up does nothing."""
    for top in ("GS", "GR", "GD2"):
        g = cg(3, {1: ["G1", "B2"]}, top=top)
        assert g.awaiting() == {"kind": "play", "seat": 1}
        assert g.summary()["direction"] == 1
        assert all(len(hand_of(g, s)) == 7 for s in (0, 2))


def test_first_discard_wild_left_of_dealer_names_the_colour():
    """ "the player to the dealer’s left must respond by discarding, playing wild cards" on a
    Wild turned up: the engine has that player name its colour first (RULES-MAP: classic)."""
    g = cg(3, {1: ["G1", "B2"]}, top="W")
    assert g.awaiting() == {"kind": "colour", "seat": 1}
    act(g, "colour", colour="green")
    play(g, "G1")
    assert g.current_player() == 2


def test_draw2_next_player_draws_two_and_ends_turn():
    """ "Draw 2 The next player is forced to draw 2 cards from the stock pile then end his turn
    regardless of the value of the cards drawn" """
    g = cg(3, {1: ["RD2", "B1", "B2"], 2: ["G3"]}, top="R5", draw=["R7", "R8"])
    play(g, "RD2")
    assert hand_of(g, 2) == ["G3", "R7", "R8"]  # playable, but the turn is over
    assert g.awaiting() == {"kind": "play", "seat": 0}


def test_skip_and_reverse():
    """ "Skip The next player is skipped (i.e., he loses his turn)" "Reverse The play order is
    reversed." """
    g = cg(4, {1: ["RS", "B1", "B2"], 3: ["RR", "B3", "B4"]}, top="R5")
    play(g, "RS")
    assert g.current_player() == 3
    play(g, "RR")
    assert g.current_player() == 2 and g.summary()["direction"] == -1


def test_wild_changes_the_colour_even_holding_a_match():
    """ "If you play a Wild card, you can impose a change in the color that is in play." """
    g = cg(3, {1: ["W", "R1", "B1"]}, top="R5")
    assert {"W", "R1"} <= legal_codes(g)
    play(g, "W", colour="yellow")
    assert g.summary()["colour"] == "yellow"


def test_may_draw_even_holding_a_playable_card_and_play_it():
    """ "However, even when the player has a valid card that he can play, he may choose to draw
    from the discard pile instead." "He is allowed to immediately discard this newly drawn card
    if it is a valid card for this purpose" """
    g = cg(3, {1: ["R1", "B1"]}, top="R5", draw=["R9"])
    assert A.DRAW in g.legal_actions()
    act(g, "draw")
    assert g.awaiting() == {"kind": "play_drawn", "seat": 1}
    refused(g, play, "R1", rule="play-drawn")
    play(g, "R9")
    assert g.current_player() == 2


def test_wild_draw4_next_player_draws_four_and_ends_turn():
    """ "Wild Draw 4 Similar to the Wild Card, but the next player must Draw 4 cards then end his
    turn without discarding." """
    g = cg(3, {1: ["W4", "B3", "G7"], 2: ["G1"]}, top="R5")
    play(g, "W4", colour="blue")
    assert g.awaiting() == {"kind": "respond", "seat": 2}
    assert set(g.legal_actions()) == {A.TAKE, A.CHALLENGE}
    refused(g, act, "draw", rule="phase")
    act(g, "take")
    assert len(hand_of(g, 2)) == 5
    assert g.awaiting() == {"kind": "play", "seat": 0} and g.summary()["colour"] == "blue"


def test_successful_challenge_the_player_draws_four_instead():
    """ "You must draw 4 cards from the stock and leave your “Wild Draw 4” card on the discard
    pile. The next player does not have to “Draw 4”." """
    g = cg(3, {1: ["W4", "R3", "G7"], 2: ["G1", "B2"]}, top="R5")
    assert "W4" in legal_codes(g)  # may be laid illegally: the challenge polices it
    play(g, "W4", colour="blue")
    act(g, "challenge", target=1)
    assert len(hand_of(g, 1)) == 6 and hand_of(g, 2) == ["B2", "G1"]
    assert g.summary()["discard_top"] == "W4" and g.summary()["colour"] == "blue"
    assert g.awaiting() == {"kind": "play", "seat": 2}


def test_unsuccessful_challenge_draws_four_plus_two_then_plays():
    """ "The challenger now has to respond to the “Wild Draw 4” by drawing 4 cards from the stock
    pile. Additionally, he also has to draw 2 extra cards for making an unsuccessful challenge.
    He may then discard as usual." """
    g = cg(3, {1: ["W4", "B3", "G7"], 2: ["G1", "B2"]}, top="R5")
    play(g, "W4", colour="blue")
    act(g, "challenge", target=1)
    assert len(hand_of(g, 2)) == 8
    assert g.awaiting() == {"kind": "play", "seat": 2}


def test_wild_draw4_only_without_a_card_of_colour_or_value():
    """ "he can play a black “Wild Draw 4” card but ONLY IF he has no other valid card in terms
    of Color or Value" (a Wild is not a card of a colour or value; option renege_test)."""
    for held, option, guilty in [
        (["W4", "G5", "B7"], {}, True),  # G5 matches the R5 by value
        (["W4", "W", "B7"], {}, False),
        (["W4", "G5", "B7"], {"renege_test": "colour"}, False),
        (["W4", "W", "B7"], {"renege_test": "playable"}, True),
    ]:
        g = cg(3, {1: held, 2: ["G1", "B2"]}, top="R5", options=option)
        play(g, "W4", colour="blue")
        act(g, "challenge", target=1)
        assert (len(hand_of(g, 1)) == 6) is guilty, (held, option)


def test_only_the_next_player_challenges_and_only_a_wild_draw4():
    """ "Whenever a “Wild Draw 4” card is played, the next player in turn (note: the one who has
    to draw 4 cards) has the option of Challenging." """
    g = cg(3, {1: ["W4", "B3", "G7"], 2: ["G1", "RD2"]}, top="R5")
    play(g, "W4", colour="red")
    refused(g, act, "challenge", seat=0, target=1, rule="challenge-who")
    act(g, "take")
    g2 = cg(3, {1: ["RD2", "B3"]}, top="R5")
    play(g2, "RD2")
    err = refused(g2, act, "challenge", seat=2, target=1, rule="challenge-window")
    assert "Wild Draw 4" in str(err) and "Villain" not in str(err)


def test_forgetting_uno_costs_two_when_caught():
    """ "Failing to declare Uno deserves a penalty when caught. The penalty is that the offending
    player must draw 2 more cards from the stock pile." """
    g = cg(3, {1: ["R1", "R2"]}, top="R5")
    play(g, "R1")
    act(g, "catch", seat=0, target=1)
    assert len(hand_of(g, 1)) == 3


def test_cannot_go_out_before_declaring_uno():
    """ "A player cannot win if he forgets to declare Uno because he is not allowed to discard
    his last card until he does so." """
    g = cg(3, {1: ["R1", "R2"], 2: ["R3", "G8", "G9"], 0: ["R4", "G6", "G7"]}, top="R5")
    play(g, "R1")  # no UNO, and nobody catches it
    play(g, "R3")
    play(g, "R4")
    assert g.legal_actions() == [A.DRAW]
    refused(g, play, "R2", rule="uno-first")
    assert (1, A.UNO) in g.interjections()
    act(g, "uno")
    play(g, "R2")
    assert g.summary()["hand_winner"] == 1


def test_wrong_card_is_taken_back_with_two_drawn():
    """ "You play the wrong card ... You must reclaim your misplayed card and draw 2 more cards
    from the Stock" """
    g = cg(3, {1: ["B9", "R3", "G2"]}, top="R5")
    act(g, "misplay", card="B9")
    assert len(hand_of(g, 1)) == 5 and "B9" in hand_of(g, 1)
    assert g.awaiting() == {"kind": "play", "seat": 1}  # the turn goes on
    refused(g, act, "misplay", card="R3", rule="misplay")  # R3 matches: not a wrong card
    play(g, "R3")
    d = game(3, {1: ["B9", "R3"]}, top="R5")
    refused(d, act, "misplay", card="B9", rule="misplay")  # Disney has no such penalty


def test_winner_scores_the_cards_left_in_play():
    """ "A game Hand ends when a player discards his last. ... The Card Values are added up and
    the winner earns that many points." """
    g = cg(3, {1: ["R1"], 2: ["W4", "GS", "Y7"], 0: ["W", "B2"]}, top="R5")
    play(g, "R1")
    assert g.sheet.scores == (0, 50 + 20 + 7 + 50 + 2, 0)


def test_a_player_who_has_not_called_uno_may_draw_instead():
    """ "not allowed to discard his last card until he does so": until the call, drawing is what
    is left, even under draw_when_playable=false (found by the property test)."""
    g = cg(
        3,
        {1: ["R1", "R2"], 2: ["R3", "G8", "G9"], 0: ["R4", "G6", "G7"]},
        top="R5",
        options={"draw_when_playable": False},
    )
    play(g, "R1")
    play(g, "R3")
    play(g, "R4")
    assert g.legal_actions() == [A.DRAW]
    act(g, "draw")
    assert len(hand_of(g, 1)) == 2


def test_a_refusal_quotes_this_rulesets_own_book():
    """Errors name the rule in the words of the book being played, not the Disney one."""
    from engine.disney.hand import RuleError as Refused

    for ruleset, words in [
        ("classic", "Color or the Value"),
        ("disney", "number, color or word"),
        ("official-2018", "color, number, or symbol"),
        ("elvis", "one of three ways"),
    ]:
        g = game(3, {1: ["R5", "B1"]}, top="G7", ruleset=ruleset)
        with pytest.raises(Refused) as info:
            g.apply_event({"seat": 1, "act": "play", "card": "B1"})
        assert info.value.rule == "match" and words in str(info.value), ruleset


# ---------------------------------------------------------------- two decks for 11 to 20
def _two_deck_game(players: int, seed: int) -> Game:
    """A whole classic game of `players` greedy bots, recorded, every card counted at each step."""
    rng = random.Random(seed)
    g = Game("classic", [f"P{s}" for s in range(players)], 0, {"target": 200})
    bots = make(["greedy"], players, rng)
    while not g.is_terminal():
        g.start_hand(g.shuffled_deck(rng))
        h = g.dealt()
        assert [len(held) for held in h.hands] == [7] * players  # "Each player is dealt 7"
        assert len(h.draw) + len(h.discard) == 216 - 7 * players
        while not h.is_over():
            assert Counter(h.all_cards()) == Counter(g.deck)  # every card accounted for
            if offer_calls(g, bots):
                continue
            if g.is_chance_node():
                g.sample_chance(rng)
            else:
                g.apply_action(bots[g.current_player()].act(g))
    return g


@pytest.mark.parametrize("players", [11, 20])
def test_more_players_shuffle_two_decks_together(players):
    """ "For games that involve even more players, you can shuffle two Uno decks together and
    play with 216 cards." From 11 players (the book's one deck is for "2-10 players") the game
    deals from two decks by itself; each hand is dealt and scored as with one, and its record
    replays to the same game."""
    g = _two_deck_game(players, seed=players)
    assert len(g.deck) == 216
    assert Counter(g.deck) == Counter({c: 2 * n for c, n in Counter(CLASSIC.deck).items()})
    assert g.header()["deck"] and len(g.header()["deck"]) == 216
    for scored in g.history:  # the one who went out scores what the others hold
        assert max(scored["awarded"]) == sum(scored["held"])
    assert max(g.sheet.scores) >= 200 and g.winner is not None
    replayed, _events = record.replay(g.record())
    assert replayed.summary() == g.summary()
    assert replayed.deck == g.deck


def test_ten_players_play_one_deck_and_twenty_one_are_too_many():
    """ "2-10 players can join each game when using a standard deck of 108 cards"; two decks
    seat up to 20 (RULES-MAP: classic-two-decks), and a 21st is refused in a sentence."""
    assert len(Game("classic", [f"P{s}" for s in range(10)]).deck) == 108
    with pytest.raises(ValueError, match="is for 2-20 players, not 21"):
        Game("classic", [f"P{s}" for s in range(21)])
    with pytest.raises(ValueError, match="is for 2-10 players, not 11"):
        Game("official-2018", [f"P{s}" for s in range(11)])  # its own book names no two decks


def test_a_two_deck_deal_is_checked_against_both_decks():
    """A deck given for a game of 12 must be the 216 cards; the 108 of one deck is refused."""
    g = Game("classic", [f"P{s}" for s in range(12)])
    with pytest.raises(ValueError, match="deck of 216 cards"):
        g.start_hand(list(CLASSIC.deck))


def test_a_score_sheet_of_twelve_takes_the_second_decks_cards():
    """At the table a classic game of 12 enters a hand holding four Red 1s (two decks have four),
    where a game of ten refuses three (one deck has two)."""
    from engine.disney import table as T

    def held_red_ones(players: int, copies: int) -> None:
        names = [f"P{s}" for s in range(players)]
        t = T.apply(T.Table(), {"kind": "start", "players": names, "ruleset": "classic"})
        held = [["R1"] * copies] + [0] * (players - 2) + [None]
        T.apply(t, {"kind": "hand", "winner": players - 1, "held": held})

    held_red_ones(12, 4)
    with pytest.raises(ValueError, match="3 × Red 1 entered, but the deck has only 2"):
        held_red_ones(10, 3)


def test_the_shared_steps_seat_every_rulesets_most_players():
    """The steps made once per position (`disney.steps.PLAY_AT` ...) reach the most players any
    ruleset seats: classic's 20."""
    most = max(r.max_players for r in RULESETS.values())
    assert most == 20 and len(PLAY_AT) == len(PROTECT_AT) == MOST_SEATS >= most
