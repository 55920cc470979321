"""House rules of shared/rules/official-2018-and-house-rules.txt as named options (on classic and
official-2018), one test per rule quoting its sentence, and the corners where they combine
(decided in docs/RULES-MAP.md, "House rules")."""

import random
from functools import partial

import pytest

from engine import record
from engine.disney import actions as A
from engine.disney import cards as C
from engine.disney.game import Game
from engine.disney.simulate import simulate
from engine.errors import RuleError
from tests.engine.helpers import act, deck_for, game, hand_of, legal_codes, play, refused

og = partial(game, ruleset="official-2018")
SAME = {"stacking": "same"}
MIXED = {"stacking": "mixed"}


# ---------------------------------------------------------------- Progressive or Stacking UNO
def test_stacking_adds_to_the_penalty_and_passes_it_on():
    """ "If a player plays a draw card, the next player in turn order has a card with the same
    symbol, that player can play that card and “stack” the penalty. This adds to the current
    penalty and passes it to the next player" """
    g = og(
        4, {1: ["RD2", "B1", "B2"], 2: ["GD2", "B3", "B4"], 3: ["Y1", "Y2"]}, top="R5", options=SAME
    )
    play(g, "RD2")
    assert g.awaiting() == {"kind": "respond", "seat": 2}
    assert legal_codes(g) == {"GD2"} and A.TAKE in g.legal_actions()
    assert A.CHALLENGE not in g.legal_actions()
    play(g, "GD2")
    assert len(hand_of(g, 3)) == 2 + 4  # seat 3 holds no Draw 2: takes the four at once
    assert g.awaiting() == {"kind": "play", "seat": 0}


def test_stacking_never_mixes_unless_the_option_says_so():
    """ "(although a +4 cannot be stacked on a +2, or vice versa)"; stacking=mixed allows it."""
    hands = {1: ["RD2", "B1", "B2"], 2: ["W4", "GD2", "B4"], 3: ["Y1", "Y2"]}
    g = og(4, hands, top="R5", options=SAME)
    play(g, "RD2")
    assert legal_codes(g) == {"GD2"}
    err = refused(g, play, "W4", colour="blue", rule="stacking")
    assert "a +4 cannot be stacked on a +2" in str(err)
    g = og(4, hands, top="R5", options=MIXED)
    play(g, "RD2")
    assert legal_codes(g) == {"GD2", "W4"}
    play(g, "W4", colour="yellow")
    assert g.awaiting() == {"kind": "respond", "seat": 3}  # a Draw 4: take or challenge
    act(g, "take")
    assert len(hand_of(g, 3)) == 2 + 6


def test_no_stacking_by_default():
    """Stacking "was not part of the standard rules of Uno": without the option the next player
    draws at once, holding a Draw 2 or not."""
    g = og(3, {1: ["RD2", "B1", "B2"], 2: ["GD2", "B3"]}, top="R5")
    play(g, "RD2")
    assert len(hand_of(g, 2)) == 4 and g.awaiting() == {"kind": "play", "seat": 0}


def test_stacked_wild_draw4_challenge_concerns_the_last_one_and_the_whole_stack():
    """A challenge of a stacked Wild Draw 4 judges the last one; the loser draws the whole stack
    (plus 2 for a wrong challenger) (RULES-MAP: stack-challenge)."""
    hands = {1: ["W4", "G1", "G2"], 2: ["W4", "B3", "B4"], 3: ["Y1", "Y2"]}
    g = og(4, hands, top="R5", options=SAME)
    play(g, "W4", colour="blue")
    play(g, "W4", colour="green")  # seat 2 held blue: guilty
    act(g, "challenge", target=2)
    assert len(hand_of(g, 2)) == 2 + 8 and g.awaiting() == {"kind": "play", "seat": 3}
    g = og(4, {**hands, 2: ["W4", "Y3", "Y4"]}, top="R5", options=SAME)
    play(g, "W4", colour="blue")
    play(g, "W4", colour="green")
    act(g, "challenge", target=2)
    assert len(hand_of(g, 3)) == 2 + 10 and g.current_player() == 0


# ---------------------------------------------------------------- Seven-O
def test_seven_swaps_hands_with_a_player_of_their_choice():
    """ "Every time a “7” is played, whoever played it must swap hands with another player of
    their choice before ending their turn." """
    g = og(
        3,
        {1: ["R7", "B1", "B2"], 2: ["G1"], 0: ["Y1", "Y2", "Y3"]},
        top="R5",
        options={"seven_o": True},
    )
    play(g, "R7")
    assert g.awaiting() == {"kind": "target", "seat": 1}
    refused(g, act, "target", target=1, rule="swap-target")
    act(g, "target", target=2)
    assert hand_of(g, 1) == ["G1"] and hand_of(g, 2) == ["B1", "B2"]
    assert g.awaiting() == {"kind": "play", "seat": 2}


def test_zero_passes_every_hand_along_the_direction_of_play():
    """ "Every time a “0” is played, all players pass their hands to the next player in the
    current direction of play, after which play continues normally." """
    g = og(
        3,
        {1: ["R0", "B1", "B2"], 2: ["G1"], 0: ["Y1", "Y2", "Y3"]},
        top="R5",
        options={"seven_o": True},
    )
    play(g, "R0")
    assert hand_of(g, 2) == ["B1", "B2"] and hand_of(g, 0) == ["G1"]
    assert hand_of(g, 1) == ["Y1", "Y2", "Y3"]
    assert g.awaiting() == {"kind": "play", "seat": 2}
    g = og(
        3,
        {1: ["RR", "B1"], 0: ["R0", "Y1", "Y2"], 2: ["G1", "G2"]},
        top="R5",
        options={"seven_o": True},
    )
    play(g, "RR")
    play(g, "R0")  # direction is now right: seat 0's hand goes to seat 2
    assert hand_of(g, 2) == ["Y1", "Y2"] and hand_of(g, 1) == ["G1", "G2"]


def test_seven_swap_leaving_someone_on_one_card_owes_no_uno():
    """Corner: a hand received by a swap was not "played down" to one card, so its new holder
    cannot be caught; the 7's player, now holding more, cannot either (RULES-MAP: swap-uno)."""
    g = og(3, {1: ["R7", "B1"], 2: ["G1", "G2", "G3"]}, top="R5", options={"seven_o": True})
    play(g, "R7")  # down to one card without UNO: catchable until the swap
    assert g.awaiting()["catchable"] == [1]
    act(g, "target", target=2)
    assert hand_of(g, 2) == ["B1"] and "catchable" not in g.awaiting()


def test_seven_o_with_two_players_swaps_at_once():
    """Corner: with two players the 7's "player of their choice" can only be the other one, so
    the engine swaps without a `target` event; the 0 swaps too (RULES-MAP: seven-o-two)."""
    for card in ("R7", "R0"):
        g = og(2, {1: [card, "B1", "B2"], 0: ["G1"]}, top="R5", options={"seven_o": True})
        play(g, card)
        assert hand_of(g, 0) == ["B1", "B2"] and hand_of(g, 1) == ["G1"]
        assert g.awaiting() == {"kind": "play", "seat": 0}


def test_seven_as_the_last_card_goes_out_without_swapping():
    """Corner: "Once a player plays their last card" the hand is over, so a last 7 or 0 swaps
    nothing."""
    g = og(3, {1: ["R7"], 2: ["G1"]}, top="R5", options={"seven_o": True})
    play(g, "R7")
    assert g.summary()["hand_winner"] == 1 and hand_of(g, 2) == ["G1"]


# ---------------------------------------------------------------- Jump-In
def test_jump_in_with_the_identical_card_out_of_turn():
    """ "If a player has exactly the same card (both number and color) as the top card of the
    discard pile, they may play it immediately, even if it is not their turn. Play then
    continues as if that player had just taken their turn." """
    g = og(4, {1: ["G5", "B1", "B2"], 3: ["G5", "G4", "W"]}, top="R5", options={"jump_in": True})
    play(g, "G5")
    assert (3, A.play(C.card("G5"))) in g.interjections()
    play(g, "G5", seat=3)
    assert g.awaiting() == {"kind": "play", "seat": 0}  # seat 2 was jumped over
    assert g.events[-1] == {"seat": 3, "act": "play", "card": "G5"}


def test_jump_in_only_with_the_identical_coloured_card():
    """ "exactly the same card (both number and color)": another card, a wild, or no Jump-In
    option is refused."""
    g = og(4, {1: ["G5", "B1", "B2"], 3: ["G4", "W", "B5"]}, top="R5", options={"jump_in": True})
    play(g, "G5")
    refused(g, play, "G4", seat=3, rule="jump-in")
    refused(g, play, "B5", seat=3, rule="jump-in")
    g = og(4, {1: ["W", "B1", "B2"], 3: ["W", "B5"]}, top="R5", options={"jump_in": True})
    play(g, "W", colour="blue")
    refused(g, play, "W", seat=3, colour="blue", rule="jump-in")
    g = og(4, {1: ["G5", "B1", "B2"], 3: ["G5", "B5"]}, top="R5")
    play(g, "G5")
    refused(g, play, "G5", seat=3, rule="turn")


def test_jump_in_only_between_turns():
    """Corner: a jump-in waits until no turn is half done (not after a draw, nor while a player
    chooses whom to swap with) (RULES-MAP: jump-in-when)."""
    g = og(4, {1: ["B1", "B2"], 3: ["R5", "B5"]}, top="R5", draw=["R9"], options={"jump_in": True})
    act(g, "draw")
    assert g.awaiting()["kind"] == "play_drawn"
    refused(g, play, "R5", seat=3, rule="jump-in")


def test_jump_in_during_a_stack_adds_to_it():
    """Corner: with stacking, an identical Draw 2 jumping in on a pending stack is a stack: the
    total grows and passes to the player after the jumper (RULES-MAP: jump-in-stack)."""
    hands = {1: ["RD2", "B1", "B2"], 2: ["BD2", "B3"], 0: ["RD2", "Y1", "Y2"], 3: ["G1", "G2"]}
    g = og(4, hands, top="R5", options={"jump_in": True, **SAME})
    play(g, "RD2")
    assert g.awaiting() == {"kind": "respond", "seat": 2}
    play(g, "RD2", seat=0)
    assert len(hand_of(g, 1)) == 2 + 4  # seat 1 holds no Draw 2: takes the four
    assert len(hand_of(g, 2)) == 2 and g.awaiting() == {"kind": "play", "seat": 2}


def test_jump_in_records_replay():
    """A jump-in is written as a `play` by a seat that is not the one to move, and replays."""
    g = Game("official-2018", ["A", "B", "C", "D"], 0, {"jump_in": True})
    sevens = {
        1: ["G5", "B1", "B2", "B3", "B4", "B6", "B7"],
        3: ["G5", "G4", "Y1", "Y2", "Y3", "Y4", "Y6"],
    }
    g.start_hand(deck_for(4, sevens, top="R5", ruleset="official-2018"))
    play(g, "G5")
    play(g, "G5", seat=3)
    assert g.current_player() == 0
    replayed, _ = record.replay(record.dumps(g))
    assert replayed.summary() == g.summary()


# ---------------------------------------------------------------- Keep-Drawing
def test_keep_drawing_until_a_playable_card():
    """ "When it’s a player’s turn and they don’t have a card in their hand that they can play,
    the player will have to draw until they find a playable card." """
    g = og(3, {1: ["B1", "B2"]}, top="R5", draw=["G1", "Y2", "R9"], options={"keep_drawing": True})
    act(g, "draw")
    assert g.awaiting() == {"kind": "play", "seat": 1} and g.legal_actions() == [A.DRAW]
    act(g, "draw")
    act(g, "draw")
    assert g.awaiting() == {"kind": "play_drawn", "seat": 1}
    play(g, "R9")
    g = og(3, {1: ["B1", "B2"]}, top="R5", draw=["G1"])
    act(g, "draw")
    assert g.current_player() == 2  # without the option one card ends the turn


def test_keep_drawing_is_for_players_without_a_playable_card():
    """Corner: a player who draws while holding a playable card (allowed by the 2018 rules) ends
    the turn on an unplayable draw as usual (RULES-MAP: keep-drawing-when)."""
    g = og(3, {1: ["R1", "B2"]}, top="R5", draw=["G1"], options={"keep_drawing": True})
    act(g, "draw")
    assert g.current_player() == 2


def test_house_rules_play_on_classic_too_and_not_on_disney():
    """The options belong to classic and official-2018; Disney's Draw 2 goes through Tinker Bell,
    so it takes none of them."""
    g = game(3, {1: ["R7", "B1", "B2"]}, top="R5", ruleset="classic", options={"seven_o": True})
    play(g, "R7")
    assert g.awaiting()["kind"] == "target"
    with pytest.raises(ValueError, match="unknown option 'seven_o'"):
        game(3, {}, top="R5", options={"seven_o": True})


# ---------------------------------------------------------------- 6-Smackdown
SIX = {"six_smackdown": True}
RACE_HANDS = {1: ["R6", "B1", "B2"], 2: ["G1", "G2"], 3: ["Y1", "Y2"], 0: ["B3", "B4"]}


def slap(g: Game, seat: int) -> None:
    act(g, "slap", seat=seat)


def test_six_smackdown_every_player_must_place_their_hand_on_the_six():
    """ "When a “6” is played, players must place their hand on top of the card": every player,
    the one who played it too, is offered a hand on the 6 (out of turn), and nobody plays on
    until every hand is there."""
    g = og(4, RACE_HANDS, top="R5", options=SIX)
    play(g, "R6")
    assert g.chance_kind() == "smackdown" and g.legal_actions() == []
    assert g.awaiting() == {"kind": "smackdown", "seat": None, "slapped": []}
    assert sorted(g.interjections()) == [(s, A.SLAP + s) for s in range(4)]
    refused(g, play, "G1", seat=2, rule="chance")  # seat 2's turn waits for the race
    for seat in (2, 0, 1):
        slap(g, seat)
        assert g.chance_kind() == "smackdown"
    assert g.awaiting()["slapped"] == [2, 0, 1] and g.interjections() == [(3, A.SLAP + 3)]


def test_six_smackdown_the_last_hand_on_the_card_draws_two():
    """ "whoever is the last player to place their hand on the card will have to draw 2 cards";
    then the turn goes on to the next player, as after any 6."""
    g = og(4, RACE_HANDS, top="R5", draw=["G7", "G8"], options=SIX)
    play(g, "R6")
    for seat in (3, 1, 0, 2):
        slap(g, seat)
    assert hand_of(g, 2) == ["G1", "G2", "G7", "G8"]
    assert [len(hand_of(g, s)) for s in (0, 1, 3)] == [2, 2, 2]
    assert g.awaiting() == {"kind": "play", "seat": 2}
    assert g.summary()["discard_top"] == "R6"


def test_six_smackdown_the_player_of_the_six_can_be_last_too():
    """ "players must place their hand": the one who played the 6 is in the race like anyone."""
    g = og(3, {1: ["R6", "B1", "B2"]}, top="R5", draw=["G7", "G8"], options=SIX)
    play(g, "R6")
    for seat in (0, 2, 1):
        slap(g, seat)
    assert len(hand_of(g, 1)) == 2 + 2 and g.awaiting() == {"kind": "play", "seat": 2}


def test_six_smackdown_one_hand_each_and_only_ones_own():
    """A hand is placed once, and each player places their own."""
    g = og(3, {1: ["R6", "B1", "B2"]}, top="R5", options=SIX)
    play(g, "R6")
    slap(g, 2)
    refused(g, slap, 2, rule="smackdown-once")
    with pytest.raises(RuleError) as info:
        g.apply_action(A.SLAP + 0, 1)  # seat 1 slapping for seat 0
    assert info.value.rule == "smackdown-own"


def test_six_smackdown_outside_a_race_is_refused_in_a_sentence():
    """No 6 waiting, no hand on it; without the option a 6 is a number card and nobody slaps."""
    g = og(3, {1: ["R6", "B1", "B2"], 2: ["G6", "B3"]}, top="R5", options=SIX)
    refused(g, slap, 0, rule="smackdown")
    g = og(3, {1: ["R6", "B1", "B2"], 2: ["G6", "B3"]}, top="R5")
    play(g, "R6")
    assert g.awaiting() == {"kind": "play", "seat": 2}
    err = refused(g, slap, 0, rule="smackdown")
    assert "not played at this table" in str(err)


def test_six_smackdown_a_six_that_goes_out_ends_the_hand_without_a_race():
    """Corner: "Once a player plays their last card, the hand is over": a 6 that goes out starts
    no race (RULES-MAP: smackdown-going-out); nor does a 6 turned up by the dealer, which is
    not played (smackdown-first-discard)."""
    g = og(3, {1: ["R6"]}, top="R5", options=SIX)
    play(g, "R6")
    assert g.hand.is_over() and g.chance_kind() == "new_hand"
    g = og(3, {1: ["G1"]}, top="R6", options=SIX)
    assert g.awaiting() == {"kind": "play", "seat": 1}


def test_six_smackdown_the_order_is_in_the_record_and_replays():
    """Every hand on the 6 is a `slap` event in the order it came, so a replay of the record
    makes the same player draw two; another order names another."""
    g = Game("official-2018", ["Ann", "Ben", "Cy", "Di"], 0, SIX)
    g.start_hand(deck_for(4, RACE_HANDS, top="R5", ruleset="official-2018"))  # seven each
    play(g, "R6")
    for seat in (1, 3, 2, 0):
        slap(g, seat)
    assert [e for e in g.events if e.get("act") == "slap"] == [
        {"seat": s, "act": "slap"} for s in (1, 3, 2, 0)
    ]
    replayed, _ = record.replay(record.dumps(g))
    assert replayed.summary() == g.summary() and len(hand_of(replayed, 0)) == 7 + 2
    lines = record.dumps(g).splitlines()
    lines[-1], lines[-2] = lines[-2], lines[-1]  # seat 0's hand before seat 2's
    other, _ = record.replay("\n".join(lines))
    assert len(hand_of(other, 2)) == 7 + 2 and len(hand_of(other, 0)) == 7


def test_six_smackdown_chance_orders_the_hands_when_nobody_calls():
    """Where no one lays their own hand (a simulation), chance names the next hand on the 6,
    each of those still to slap as likely, and takes it as that seat's slap."""
    g = og(4, RACE_HANDS, top="R5", options=SIX)
    play(g, "R6")
    slap(g, 3)
    assert g.chance_outcomes() == [(A.SLAP + s, 1 / 3) for s in (0, 1, 2)]
    g.sample_chance(random.Random(5))
    assert len(g.awaiting()["slapped"]) == 2
    assert g.events[-1]["act"] == "slap" and g.events[-1]["seat"] != 3


def test_six_smackdown_bots_play_it_in_a_simulation_and_its_records_replay():
    """`simulate --option six_smackdown=true`: the bots race on every 6 (chance orders them),
    the last draws two, and each recorded game replays to the same state."""
    games: list[Game] = []
    simulate(
        players=4,
        seed=7,
        games=2,
        bots=["greedy", "random"],
        options=SIX,
        ruleset="official-2018",
        record=True,
        on_game=games.append,
    )
    races = 0
    for g in games:
        slaps = [e["seat"] for e in g.events if e.get("act") == "slap"]
        assert len(slaps) % 4 == 0
        for first in range(0, len(slaps), 4):  # each race: every seat's hand, once
            assert sorted(slaps[first : first + 4]) == [0, 1, 2, 3]
        races += len(slaps) // 4
        replayed, _ = record.replay(g.record())
        assert replayed.summary() == g.summary()
    assert races > 0


def test_six_smackdown_calls_stay_open_during_the_race():
    """Corner (smackdown-calls): a 6 played from two cards without UNO can be caught while the
    hands are on it (nobody has begun a turn), and the race goes on after the catch."""
    g = og(3, {1: ["R6", "B1", "B2"], 2: ["G1", "G2"]}, top="R5", draw=["G7", "G8"], options=SIX)
    g.dealt().hands[1].remove(C.card("B2"))  # (two cards: the R6 leaves one)
    g.dealt().draw.insert(0, C.card("B2"))
    play(g, "R6")
    assert (0, A.CATCH + 1) in g.interjections() and (0, A.SLAP + 0) in g.interjections()
    act(g, "catch", seat=0, target=1)
    assert len(hand_of(g, 1)) == 1 + 2 and g.chance_kind() == "smackdown"
    for seat in (0, 1, 2):
        slap(g, seat)
    assert g.awaiting() == {"kind": "play", "seat": 2} and len(hand_of(g, 2)) == 4
