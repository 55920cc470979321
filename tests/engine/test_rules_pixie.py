"""The Tinker Bell cards (Draw 2, Wild Discard All 1 Color, Villain Draw 4), reneging, going out
on a draw card and the reshuffle, each tested against the sentence it proves."""

import pytest

from engine.disney import actions as A
from engine.disney import cards as C
from tests.engine.helpers import act, counts, game, hand_of, play, tinker
from tests.engine.test_rules_play import refused

# ------------------------------------------------------------------------------------ Draw 2


def test_draw2_hits_the_tinker_bell_button():
    """ "When you play this card, hit the Tinker Bell Button on the Game Tray" """
    g = game(4, {1: ["RD2", "B1", "B2"]}, top="R9")
    play(g, "RD2")
    assert g.awaiting() == {"kind": "tinker_bell", "seat": 1}
    assert g.legal_actions() == []
    refused(g, act, "draw", seat=2, rule="chance")


def test_draw2_match_player_chooses_who_draws_and_play_resumes_after_them():
    """ "If the chosen color matches the color of the Draw 2 card that was played, then the player
    gets to chose whichever player they want to draw 2 cards and forfeit their turn. Play resumes
    as if it was that player's turn." """
    g = game(5, {1: ["RD2", "B1", "B2"], 3: ["G1", "G2"]}, top="R9")
    play(g, "RD2")
    tinker(g, "red")
    assert g.awaiting() == {"kind": "target", "seat": 1}
    refused(g, act, "target", target=1, rule="draw2-target")
    act(g, "target", target=3)
    assert len(hand_of(g, 3)) == 4
    assert g.current_player() == 4


def test_draw2_no_match_next_player_draws_two_and_forfeits():
    """ "If the color Tinker Bell selects does not match the card, then the next player must draw
    2 cards and forfeit their turn." """
    g = game(4, {1: ["RD2", "B1", "B2"], 2: ["G1", "G2"]}, top="R9")
    play(g, "RD2")
    tinker(g, "green")
    assert len(hand_of(g, 2)) == 4
    assert g.current_player() == 3
    assert g.summary()["colour"] == "red"


def test_draw2_only_on_matching_colour_or_draw2():
    """ "This card may only be played on a matching color or on another Draw 2 card." """
    g = game(3, {1: ["BD2", "GD2", "B1"]}, top="RD2", dealer=0)
    tinker(g, "yellow")  # first discard: seat 1 draws 2 and is skipped
    assert g.current_player() == 2
    g2 = game(3, {1: ["BD2", "YD2", "G1"]}, top="R4")
    assert not [a for a in g2.legal_actions() if a < A.PROTECT]
    g3 = game(3, {1: ["BD2", "G1"]}, top="R4", draw=[])
    g3.hand.discard.append(C.card("RD2"))  # a red Draw 2 on top (test arrangement)
    g3.hand.draw.remove(C.card("RD2"))
    assert A.play(C.card("BD2")) in g3.legal_actions()


def test_draw2_in_two_player_returns_to_the_player():
    g = game(2, {1: ["RD2", "B1", "B2"]}, top="R9")
    play(g, "RD2")
    tinker(g, "blue")
    assert len(hand_of(g, 0)) == 9 and g.current_player() == 1


# ------------------------------------------------------------------------ Wild Discard All


def test_wda_discards_cards_of_tinker_bells_colour_last_decides():
    """ "You may discard all of the cards in your hand that match the color that was chosen by
    Tinker Bell. ... The playable color will be the color of the top card left by the player who
    played the Wild Discard All 1 Color Card." (E.g. red chosen, a red 3 on top: "the next player
    must play a red card or a 3 of any color.")"""
    g = game(3, {1: ["WDA", "R3", "R7", "B2", "G9"], 2: ["G3", "B8"]}, top="Y4")
    play(g, "WDA")
    tinker(g, "red")
    assert g.awaiting() == {"kind": "discard", "seat": 1}
    act(g, "discard", cards=["R7", "R3"])
    assert hand_of(g, 1) == ["B2", "G9"]
    s = g.summary()
    assert s["discard_top"] == "R3" and s["colour"] == "red" and g.current_player() == 2
    assert A.play(C.card("G3")) in g.legal_actions()  # a 3 of any colour
    assert A.play(C.card("B8")) not in g.legal_actions()


def test_wda_discard_only_that_colour():
    g = game(3, {1: ["WDA", "R3", "B2", "G9"]}, top="Y4")
    play(g, "WDA")
    tinker(g, "red")
    refused(g, act, "discard", cards=["R3", "B2"], rule="discard-colour")
    assert hand_of(g, 1) == ["B2", "G9", "R3"]


def test_wda_may_discard_none():
    g = game(3, {1: ["WDA", "R3", "B2"]}, top="Y4")
    play(g, "WDA")
    tinker(g, "red")
    act(g, "discard", cards=[])
    assert hand_of(g, 1) == ["B2", "R3"] and g.current_player() == 2
    assert g.summary()["colour"] == "red" and g.summary()["discard_top"] == "WDA"


def test_wda_with_nothing_of_the_colour_play_continues():
    """ "Once a player has discarded his cards, play continues with the next player." """
    g = game(3, {1: ["WDA", "B3", "B2"]}, top="Y4")
    play(g, "WDA")
    tinker(g, "green")
    assert g.awaiting() == {"kind": "play", "seat": 2}


def test_wda_command_card_left_on_top_is_void_but_matches():
    """ "If a Command Card (Draw Two, Skip, Reverse, ...) is left as the top card, then the command
    is void, however the color is still playable, and the next player can play a matching Command
    Card." """
    g = game(4, {1: ["WDA", "RS", "R2", "B2"], 2: ["YS", "B8", "G1"]}, top="Y4")
    play(g, "WDA")
    tinker(g, "red")
    act(g, "discard", cards=["R2", "RS"])
    assert g.current_player() == 2  # the Skip on top skipped nobody
    assert A.play(C.card("YS")) in g.legal_actions()  # a matching command card
    play(g, "YS")
    assert g.current_player() == 0


def test_wda_discarding_every_card_goes_out():
    g = game(3, {1: ["WDA", "R3", "R2"]}, top="Y4")
    play(g, "WDA")
    tinker(g, "red")
    act(g, "discard", cards=["R3", "R2"], uno=True)
    assert g.summary()["hand_winner"] == 1


def test_wda_discard_down_to_one_card_needs_uno():
    g = game(3, {1: ["WDA", "R3", "R2", "B5"]}, top="Y4")
    play(g, "WDA")
    tinker(g, "red")
    act(g, "discard", cards=["R3", "R2"])
    assert g.awaiting()["catchable"] == [1]


def test_discard_event_is_all_or_nothing():
    g = game(3, {1: ["WDA", "R3", "R2", "B5"]}, top="Y4")
    play(g, "WDA")
    tinker(g, "red")
    refused(g, act, "discard", cards=["R3", "R3"], rule="not-in-hand")
    assert hand_of(g, 1) == ["B5", "R2", "R3"]


# ---------------------------------------------------------------------- Villain Draw 4


def vd4_game(options=None):
    hands = {
        0: ["G1", "B1", "Y1"],  # no red: draws four
        1: ["VD4", "R1", "B2"],
        2: ["RS", "W", "B3"],  # protects with a command card
        3: ["R5", "R6", "G6"],  # protects
    }
    return game(4, hands, top="B9", options=options)


def test_villain_each_player_protects_or_draws_four_in_order_of_play():
    """ "each player will see if they have one card of that color to use as their Pixie Dust
    Protection Card! If so, lay it down into the discard pile in the order of play. If a player
    doesn't have a card in the color selected, then that player must draw four cards! The player
    of the Villain Draw 4 Card is immune." """
    g = vd4_game()
    play(g, "VD4")
    tinker(g, "red")
    assert g.awaiting() == {"kind": "protect", "seat": 2}
    act(g, "protect", card="RS")
    assert g.awaiting() == {"kind": "protect", "seat": 3}
    act(g, "protect", card="R6")
    # seat 0 held no red: drew four by itself; the player of the card is immune
    assert len(hand_of(g, 0)) == 7 and hand_of(g, 1) == ["B2", "R1"]
    assert g.summary()["discard_top"] == "R6" and g.summary()["colour"] == "red"
    assert g.current_player() == 2  # the next player plays (option villain_draw4_skips_next)


def test_villain_no_wild_as_protection():
    """ "NOTE: No Wild Card can be played as Pixie Dust Protection." """
    g = vd4_game()
    play(g, "VD4")
    tinker(g, "red")
    refused(g, act, "protect", card="W", rule="protect-no-wild")
    refused(g, act, "protect", card="B3", rule="protect-colour")


def test_villain_command_card_protection_is_void():
    """ "If a Command Card is played, the command is void and only its color counts" """
    g = vd4_game()
    play(g, "VD4")
    tinker(g, "red")
    act(g, "protect", card="RS")  # a Skip laid as protection skips nobody
    act(g, "protect", card="R5")
    assert g.current_player() == 2 and g.hand.direction == 1


def test_villain_holder_of_the_colour_must_lay_it_down():
    """ "each player will see if they have one card of that color to use as their Pixie Dust
    Protection Card! If so, lay it down" (RULES-MAP: protect-must)."""
    g = vd4_game()
    play(g, "VD4")
    tinker(g, "red")
    assert A.TAKE not in g.legal_actions()
    assert set(g.legal_actions()) == {A.protect(C.card("RS"))}
    err = refused(g, act, "take", rule="protect-must")
    assert "If so, lay it down" in str(err)
    act(g, "protect", card="RS")
    assert A.TAKE not in g.legal_actions()  # seat 3 holds red twice: must lay one of them
    refused(g, act, "take", rule="protect-must")


def test_villain_must_lay_down_applies_to_the_last_card_too():
    """Laying the colour down is no choice even when it is the player's last card: they go out."""
    g = game(3, {1: ["VD4", "G2", "G3"], 2: ["R4"], 0: ["B1", "B2"]}, top="G9")
    play(g, "VD4")
    tinker(g, "red")
    assert g.legal_actions() == [A.protect(C.card("R4"))]


def test_villain_may_take_the_four_instead():
    """Option villain_draw4_may_take: the reading this engine used to play, a player may keep
    the card and take four instead."""
    g = vd4_game({"villain_draw4_may_take": True})
    play(g, "VD4")
    tinker(g, "red")
    assert A.TAKE in g.legal_actions()
    act(g, "take")
    assert len(hand_of(g, 2)) == 7


def test_villain_option_skips_next_player():
    g = vd4_game({"villain_draw4_skips_next": True})
    play(g, "VD4")
    tinker(g, "red")
    act(g, "protect", card="RS")
    act(g, "protect", card="R5")
    assert g.current_player() == 3


def test_villain_last_card_as_protection_goes_out():
    g = game(3, {1: ["VD4", "G2", "G3"], 2: ["R4"], 0: ["B1", "B2"]}, top="G9")
    play(g, "VD4")
    tinker(g, "red")
    act(g, "protect", card="R4")
    assert g.summary()["hand_winner"] == 2


# ---------------------------------------------------------------------------- Reneging


def test_challenge_succeeds_when_player_held_the_colour():
    """ "If the player of the Villain Draw 4 card has another card that could be played, then they
    must draw 4 cards." """
    g = vd4_game()  # seat 1 holds B2 on a blue 9
    play(g, "VD4")
    assert g.awaiting()["challenge"] == [0, 2, 3]
    act(g, "challenge", seat=2, target=1)
    assert len(hand_of(g, 1)) == 6
    tinker(g, "red")  # the Villain Draw 4 still stands
    assert g.awaiting()["kind"] == "protect"


def test_wrong_challenger_draws_six():
    """ "However, if the challenger is wrong, then the challenger must draw 6 cards." """
    g = game(3, {1: ["VD4", "R1", "G2"], 2: ["Y1", "Y2"]}, top="B9")
    play(g, "VD4")
    act(g, "challenge", seat=2, target=1)
    assert len(hand_of(g, 2)) == 8 and len(hand_of(g, 1)) == 2


def test_challenge_window_closes_when_tinker_bell_chooses():
    g = vd4_game()
    play(g, "VD4")
    tinker(g, "red")
    refused(g, act, "challenge", seat=0, target=1, rule="challenge-window")


def test_challenge_own_card_refused():
    g = vd4_game()
    play(g, "VD4")
    refused(g, act, "challenge", seat=1, target=1, rule="challenge-self")


def test_renege_test_option_playable_counts_number_matches():
    hands = {1: ["VD4", "R9", "G2"]}  # R9 matches the blue 9 by number, not by colour
    strict = game(3, hands, top="B9")
    play(strict, "VD4")
    act(strict, "challenge", seat=2, target=1)
    assert len(hand_of(strict, 2)) > 7  # colour test: not guilty, challenger draws 6
    loose = game(3, hands, top="B9", options={"renege_test": "playable"})
    play(loose, "VD4")
    act(loose, "challenge", seat=2, target=1)
    assert len(hand_of(loose, 1)) == 6


# ------------------------------------------------------------------------------ Going out


@pytest.mark.parametrize(("card", "drawn"), [("RD2", 2), ("VD4", 4)])
def test_going_out_on_draw_card_next_player_still_draws(card, drawn):
    """ "If the last card played in a hand is a Draw 2 card or Villain Draw 4 card, the next
    player must draw 2 or 4 cards, depending upon the card played. These cards are counted when
    points are totaled." """
    g = game(3, {1: [card], 2: ["B1"], 0: ["B2"]}, top="R9", draw=["G5", "G6", "G7", "G8"])
    play(g, card)
    assert len(hand_of(g, 2)) == 1 + drawn
    assert g.summary()["hand_winner"] == 1
    assert g.sheet.scores[1] == 1 + 2 + sum([5, 6, 7, 8][:drawn])


# ------------------------------------------------------------------------------ Reshuffle


def test_reshuffle_discard_pile_when_draw_pile_depleted():
    """ "If no one is out of cards by the time the DRAW pile is depleted, reshuffle the DISCARD
    pile and continue play." """
    g = game(2, {0: ["B1", "B2"], 1: ["G1", "G2"]}, top="R9")
    h = g.hand
    total = counts(g)
    moved = h.draw[:-1]
    h.discard[0:0] = moved  # test arrangement: all but one card already played
    del h.draw[:-1]
    act(g, "draw")
    assert g.awaiting() == {"kind": "reshuffle", "seat": None}
    pool = h.reshuffle_pool()
    g.apply_event({"chance": "reshuffle", "deck": [C.code(c) for c in pool]})
    assert len(h.discard) == 1 and len(h.draw) == len(pool)
    assert counts(g) == total


def test_reshuffle_must_use_the_discard_pile():
    g = game(2, {0: ["B1", "B2"], 1: ["G1", "G2"]}, top="R9")
    h = g.hand
    h.discard[0:0] = h.draw[:-1]
    del h.draw[:-1]
    act(g, "draw")
    with pytest.raises(Exception, match="exactly the cards"):
        g.apply_event({"chance": "reshuffle", "deck": ["R1"]})
    assert g.awaiting()["kind"] == "reshuffle"


def test_penalty_draws_wait_for_the_reshuffle():
    g = game(3, {1: ["RD2", "B5", "B6"], 2: ["G1", "G2"]}, top="R9")
    h = g.hand
    h.discard[0:0] = h.draw[:-1]
    del h.draw[:-1]
    play(g, "RD2")
    tinker(g, "blue")  # seat 2 owes two cards; one is left
    assert g.awaiting()["kind"] == "reshuffle" and len(hand_of(g, 2)) == 3
    pool = h.reshuffle_pool()
    g.apply_reshuffle(pool)
    assert len(hand_of(g, 2)) == 4 and g.awaiting() == {"kind": "play", "seat": 0}


def test_blocked_hand_when_no_card_can_be_drawn_or_played():
    """Every card in hands and nobody able to play: the hand ends, lowest hand wins (RULES-MAP:
    blocked-hand)."""
    g = game(2, {0: ["B1", "B2"], 1: ["G1", "G2"]}, top="R9")
    h = g.hand
    h.hands[0] += h.draw  # test arrangement: nothing left to draw
    h.draw.clear()
    h.hands[0] = [
        c for c in h.hands[0] if not (c >= 64 or C.COLOUR_OF[c] == 0 or C.RANK_OF[c] == 9)
    ]
    h.hands[1] = [c for c in [C.card("G1"), C.card("G2")]]
    act(g, "draw")
    act(g, "draw")
    assert g.summary()["hand_winner"] == 1
