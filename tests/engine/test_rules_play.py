"""Let's Play, the command cards, UNO and the two-player rules of the Disney text."""

import pytest

from engine.disney import actions as A
from engine.disney import cards as C
from engine.disney.hand import RuleError
from tests.engine.helpers import act, counts, game, hand_of, play, tinker

NUMS = ["B1", "B2", "B3", "B4", "B6"]


def refused(g, fn, *args, rule=None, **kw):
    """Apply and expect a RuleError that changes nothing at all."""
    before = (g.summary(), counts(g), list(g.events))
    with pytest.raises(RuleError) as info:
        fn(g, *args, **kw)
    assert (g.summary(), counts(g), list(g.events)) == before
    if rule:
        assert info.value.rule == rule
    return info.value


def test_match_by_number_colour_or_word():
    """ "Match the top card on the DISCARD pile either by number, color or word. For example, if
    the card is a Green 7, you must play a Green card or any color 7." """
    g = game(3, {1: ["G2", "R7", "B5", "RS", *NUMS[:3]], 2: ["GS", "B9"], 0: ["YS"]}, top="G7")
    legal = {C.code(a // 8) for a in g.legal_actions() if a < A.PROTECT}
    assert legal == {"G2", "R7"}
    err = refused(g, play, "B5", rule="match")
    assert "match" in str(err)
    play(g, "G2")
    play(g, "GS")  # by colour; seat 2's Skip skips seat 0
    assert g.current_player() == 1


def test_word_match_skip_on_skip():
    """ "This card may only be played on a matching color or on another Skip card." """
    g = game(2, {1: ["YS", *NUMS]}, top="GS", dealer=1)  # the Skip turned up skips seat 0
    assert g.current_player() == 1
    play(g, "YS")
    assert g.current_player() == 1  # two players: Skip plays again


def test_wild_cards_always_playable_even_holding_a_match():
    """ "Or, you may play the Wild card or a Villain Draw 4 card, or a Wild Discard all 1 color
    card." "You may play a Wild card even if you have another playable card in hand." """
    g = game(3, {1: ["R3", "W", "VD4", "WDA", *NUMS[:3]]}, top="R9")
    legal = {C.code(a // 8) for a in g.legal_actions() if a < A.PROTECT}
    assert {"R3", "W", "VD4", "WDA"} <= legal
    play(g, "W", colour="blue")
    assert g.summary()["colour"] == "blue"


def test_wild_changes_colour_to_any_colour_including_current():
    """ "you may change the color being played to any color (including the current color)" """
    g = game(3, {1: ["W", *NUMS]}, top="R9")
    assert {a for a in g.legal_actions() if a // 8 == C.WILD} == {
        A.play(C.WILD, c) for c in range(4)
    }
    play(g, "W", colour="red")
    assert g.summary()["colour"] == "red"


def test_wild_needs_a_colour_and_only_wild_takes_one():
    g = game(3, {1: ["W", "R3", *NUMS]}, top="R9")
    refused(g, act, "play", card="W", rule="colour")
    refused(g, act, "play", card="R3", colour="blue", rule="colour")


def test_must_draw_when_nothing_matches_and_play_drawn_card():
    """ "If you don't have anything that matches, you must pick a card from the DRAW pile. If you
    draw a card you can play, play it." """
    g = game(3, {1: ["B5", *NUMS]}, top="R9", draw=["R4"])
    assert g.legal_actions() == [A.DRAW]
    act(g, "draw")
    assert g.awaiting() == {"kind": "play_drawn", "seat": 1}
    refused(g, play, "B5", rule="play-drawn")
    play(g, "R4")
    assert g.current_player() == 2


def test_drawn_unplayable_card_ends_the_turn():
    """ "Otherwise, play moves to the next person." """
    g = game(3, {1: ["B5", *NUMS]}, top="R9", draw=["G4"])
    act(g, "draw")
    assert g.current_player() == 2 and "G4" in hand_of(g, 1)


def test_no_drawing_while_holding_a_match_by_default():
    """Default reading of "If you don't have anything that matches, you must pick a card":
    drawing is for when nothing matches (option draw_when_playable)."""
    g = game(3, {1: ["R5", *NUMS]}, top="R9")
    refused(g, act, "draw", rule="draw-when-stuck")
    g2 = game(3, {1: ["R5", *NUMS]}, top="R9", options={"draw_when_playable": True})
    assert A.DRAW in g2.legal_actions()
    act(g2, "draw")


def test_drawn_playable_card_may_be_kept_unless_option_says_must():
    """ "If you draw a card you can play, play it." Default: may (RULES-MAP must_play_drawn)."""
    g = game(3, {1: NUMS}, top="R9", draw=["R4"])
    act(g, "draw")
    act(g, "pass")
    assert g.current_player() == 2 and "R4" in hand_of(g, 1)
    strict = game(3, {1: NUMS}, top="R9", draw=["R4"], options={"must_play_drawn": True})
    act(strict, "draw")
    assert A.PASS not in strict.legal_actions()
    refused(strict, act, "pass", rule="must-play-drawn")


def test_not_your_turn_is_refused():
    g = game(3, {2: ["R1"]}, top="R9")
    err = refused(g, play, "R1", seat=2, rule="turn")
    assert "P1" in str(err)


def test_card_not_in_hand_is_refused():
    g = game(3, {1: NUMS}, top="B9")
    err = refused(g, play, "B9", rule="not-in-hand")
    assert str(err) == 'P1 has no Blue 9 to play: "drawing a card from your hand to play"'


def test_reverse_changes_direction():
    """ "This card reverses direction of play. Play to the left now passes to the right" """
    g = game(4, {1: ["RR", *NUMS]}, top="R9")
    play(g, "RR")
    assert g.current_player() == 0 and g.hand.direction == -1


def test_skip_skips_the_next_player():
    """ "the next person in line to play after this card is skipped" """
    g = game(4, {1: ["RS", *NUMS]}, top="R9")
    play(g, "RS")
    assert g.current_player() == 3


def test_two_players_reverse_works_like_skip():
    """ "1. Playing a Reverse card works like playing a Skip card. By playing the Reverse card, you
    may immediately play another card." """
    g = game(2, {1: ["RR", "R2", *NUMS[:3]]}, top="R9")
    play(g, "RR")
    assert g.current_player() == 1
    play(g, "R2")
    assert g.current_player() == 0


def test_two_players_skip_plays_again():
    """ "2. By playing a Skip card, you may immediately play another card." """
    g = game(2, {1: ["RS", "R2", *NUMS[:3]]}, top="R9")
    play(g, "RS")
    assert g.current_player() == 1


# ---------------------------------------------------------------------------- UNO
def forgot_uno():
    """Seat 1 plays its next-to-last card without calling UNO."""
    g = game(3, {0: ["G1", "G2"], 1: ["R5", "B5"], 2: ["B7", "Y2"]}, top="R9", draw=["Y9"])
    play(g, "R5")
    return g


def test_uno_called_with_next_to_last_card_is_safe():
    """ "Before playing your next to last card, you must say UNO." """
    g = game(3, {1: ["R5", "B5"]}, top="R9")
    play(g, "R5", uno=True)
    assert "catchable" not in g.awaiting()
    assert not [a for _, a in g.interjections()]


def test_caught_without_uno_draws_two():
    """ "If you don't say UNO and another player catches you with just one card before the next
    player begins their turn, you must pick TWO more cards from the DRAW pile." """
    g = forgot_uno()
    assert g.awaiting()["catchable"] == [1]
    act(g, "catch", seat=0, target=1)
    assert len(hand_of(g, 1)) == 3 and "Y9" in hand_of(g, 1)
    assert "catchable" not in g.awaiting()


def test_not_caught_before_next_player_draws_is_safe():
    """ "If you are not caught before the next player either draws a card from the DRAW pile or
    draws a card from their hand to play, you do not have to draw the extra cards." """
    g = forgot_uno()
    act(g, "draw")  # seat 2 has nothing red or 5: begins the turn by drawing
    refused(g, act, "catch", seat=0, target=1, rule="catch-window")


def test_not_caught_before_next_player_plays_is_safe():
    g = game(3, {1: ["R5", "B5"], 2: ["R7", "Y2"]}, top="R9")
    play(g, "R5")
    play(g, "R7")
    refused(g, act, "catch", seat=0, target=1, rule="catch-window")


def test_beginning_a_turn_is_defined_as_drawing_or_playing():
    """ "Beginning a turn" is defined as either drawing a card from the DRAW pile or drawing a
    card from your hand to play. A Tinker Bell pick in between does not close the window."""
    g = game(3, {0: ["G1", "G2"], 1: ["RD2", "B5"], 2: ["B7", "Y2"]}, top="R9")
    play(g, "RD2")
    tinker(g, "blue")  # no match: seat 2 draws 2 and forfeits, without beginning a turn
    assert g.awaiting()["catchable"] == [1]
    act(g, "catch", seat=2, target=1)
    assert len(hand_of(g, 1)) == 3


def test_catching_yourself_first_is_safe():
    """ "If you forget to say UNO before your second to last card touches the DISCARD pile, but
    you "catch" yourself before any other player catches you, you are safe" """
    g = forgot_uno()
    act(g, "uno", seat=1)
    refused(g, act, "catch", seat=2, target=1, rule="catch-window")
    assert hand_of(g, 1) == ["B5"]


def test_cannot_catch_before_second_to_last_card_touches_the_pile():
    """ "You may not catch a player for failure to say UNO! until his/her second-to-last card
    touches the DISCARD pile." """
    g = game(3, {1: ["R5", "B5"]}, top="R9")
    refused(g, act, "catch", seat=0, target=1, rule="catch-window")


def test_uno_flag_only_with_the_next_to_last_card():
    g = game(3, {1: ["R5", *NUMS]}, top="R9")
    refused(g, play, "R5", uno=True, rule="uno-call")


def test_catch_yourself_is_refused_call_uno_instead():
    g = forgot_uno()
    refused(g, act, "catch", seat=1, target=1, rule="catch-self")


def test_going_out_ends_the_hand_and_scores_the_others_cards():
    """ "Once a player plays their last card, the hand is over. Points are tallied" and "you get
    points for the cards left in the other players hands" """
    g = game(3, {0: ["G1", "W"], 1: ["R5"], 2: ["BD2", "Y2", "VD4"]}, top="R9")
    play(g, "R5")
    assert g.awaiting() == {"kind": "new_hand", "seat": None}
    assert g.summary()["hand_winner"] == 1
    assert g.sheet.scores == (0, 1 + 50 + 20 + 2 + 75, 0)
    refused(g, act, "draw", seat=2, rule="hand-over")
