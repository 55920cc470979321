"""The official 2018 rules (shared/rules/official-2018-and-house-rules.txt, "The Mechanics" to
"The Win Condition"): one test per rule, each quoting the sentence it proves."""

from collections import Counter
from functools import partial

from engine.disney import actions as A
from engine.disney import cards as C
from engine.disney.rulesets import OFFICIAL_2018
from tests.engine.helpers import act, game, hand_of, legal_codes, play, refused

og = partial(game, ruleset="official-2018")


def test_contents_112_cards():
    """ "Uno normally consists of 112 cards: 25 in each of four color suits ... four “Wild”
    cards. Four “Wild Draw Four”, one “Wild Shuffle Hands” and three “Wild Customizable”." """
    deck = Counter(C.code(c) for c in OFFICIAL_2018.deck)
    assert len(OFFICIAL_2018.deck) == 112
    for letter in "RBGY":
        assert sum(n for code, n in deck.items() if code.startswith(letter)) == 25
    assert (deck["W"], deck["W4"], deck["WSH"], deck["WC"]) == (4, 4, 1, 3)


def test_card_values():
    """ "Numbered cards are worth their face value, all action cards are worth 20 points, and all
    Wild cards are worth 50." """
    value = {c: OFFICIAL_2018.points[C.card(c)] for c in ["R0", "Y9", "BS", "GD2", "W", "WSH"]}
    assert value == {"R0": 0, "Y9": 9, "BS": 20, "GD2": 20, "W": 50, "WSH": 50}
    assert OFFICIAL_2018.points[C.WILD_CUSTOM] == OFFICIAL_2018.points[C.WILD_DRAW4] == 50


def test_first_discard_reverse_dealer_plays_first_counterclockwise():
    """Reverse as first discard: "The dealer plays first; the play proceeds counterclockwise" """
    g = og(4, {0: ["G1", "B2"]}, top="GR")
    assert g.awaiting() == {"kind": "play", "seat": 0}
    play(g, "G1")
    assert g.current_player() == 3


def test_first_discard_draw2_left_of_dealer_draws_two_and_misses_turn():
    """Draw Two as first discard: "The player to the dealer’s left draws two cards and misses a
    turn" """
    g = og(3, {}, top="GD2")
    assert len(hand_of(g, 1)) == 9
    assert g.awaiting() == {"kind": "play", "seat": 2}


def test_first_discard_skip_left_of_dealer_misses_a_turn():
    """Skip: "The next player in sequence misses a turn" (the book's first-discard column for
    the Skip repeats the Reverse's text; the engine skips the player to the dealer's left,
    RULES-MAP: official-2018)."""
    g = og(3, {}, top="GS")
    assert g.awaiting() == {"kind": "play", "seat": 2}


def test_first_discard_wild_left_of_dealer_declares_colour_and_plays():
    """Wild as first discard: "The player to the dealer’s left declares the first color to be
    matched and takes the first turn" """
    g = og(3, {1: ["G1", "B2"]}, top="W")
    assert g.awaiting() == {"kind": "colour", "seat": 1}
    act(g, "colour", colour="green")
    play(g, "G1")


def test_first_discard_wild_draw4_is_returned():
    """Wild Draw Four as first discard: "The card is returned to the deck, then a new card is
    laid down into the discard pile" """
    g = og(3, {}, top="B4", returned=["W4"])
    assert g.summary()["discard_top"] == "B4" and g.hand.draw[0] == C.WILD_DRAW4


def test_draw_then_play_or_keep_and_keeping_ends_the_turn():
    """ "Or draw the top card from the deck, and optionally play it if possible." "If they keep it
    their turn immediately ends and no cards already in their hand may be played." """
    g = og(3, {1: ["R1", "B1"]}, top="R5", draw=["R9"])
    assert A.DRAW in g.legal_actions()  # even holding R1
    act(g, "draw")
    refused(g, play, "R1", rule="play-drawn")
    act(g, "pass")
    assert "R9" in hand_of(g, 1) and g.current_player() == 2


def test_draw_two_next_player_draws_two_and_misses_a_turn():
    """Draw Two: "The next player in sequence draws two cards and misses a turn" """
    g = og(3, {1: ["RD2", "B1", "B2"], 2: ["G3"]}, top="R5")
    play(g, "RD2")
    assert len(hand_of(g, 2)) == 3 and g.current_player() == 0


def test_wild_draw4_legal_without_the_current_colour_only():
    """ "A Wild Draw Four card can only be played if the player holding it has no other cards
    matching the current color. If the player has a card of a different color that matches the
    current number or symbol they are still able to play the Wild Draw Four Card." """
    for held, guilty in [(["W4", "G5", "B7"], False), (["W4", "R1", "B7"], True)]:
        g = og(3, {1: held, 2: ["G1", "B2"]}, top="R5")
        play(g, "W4", colour="blue")
        act(g, "challenge", target=1)
        assert (len(hand_of(g, 1)) == 6) is guilty


def test_successful_challenge_player_draws_four_instead_colour_stands():
    """ "If the challenge is successful, the challenged player must draw the four cards instead
    before play continues." "Either way, the player of the Wild Draw Four card chooses the
    color." """
    g = og(3, {1: ["W4", "R1", "B7"], 2: ["G1", "B2"]}, top="R5")
    play(g, "W4", colour="green")
    act(g, "challenge", target=1)
    assert len(hand_of(g, 1)) == 6 and len(hand_of(g, 2)) == 2
    assert g.awaiting() == {"kind": "play", "seat": 2} and g.summary()["colour"] == "green"


def test_failed_challenge_costs_six_and_the_turn():
    """ "However, if the challenge fails, the challenger must instead draw 6 cards AND miss their
    turn." """
    g = og(3, {1: ["W4", "G5", "B7"], 2: ["G1", "B2"]}, top="R5")
    play(g, "W4", colour="green")
    act(g, "challenge", target=1)
    assert len(hand_of(g, 2)) == 8
    assert g.awaiting() == {"kind": "play", "seat": 0} and g.summary()["colour"] == "green"


def test_wild_shuffle_hands_collects_shuffles_and_deals_from_the_left():
    """ "Wild Shuffle Hands allows a player to collect all cards held by the other players.The
    player then shuffles and re-deals them, starting from the player to their left." """
    g = og(3, {1: ["WSH", "R1", "B7"], 2: ["G1", "B2"], 0: ["Y3", "Y4", "Y5", "Y6"]}, top="R5")
    play(g, "WSH", colour="yellow")
    assert g.awaiting() == {"kind": "shuffle_hands", "seat": None}
    refused(g, lambda g: g.apply_event({"chance": "shuffle_hands", "deck": ["R1"]}))
    order = ["G1", "B2", "Y3", "Y4", "Y5", "Y6", "R1", "B7"]
    g.apply_event({"chance": "shuffle_hands", "deck": order})
    assert hand_of(g, 2) == ["G1", "R1", "Y4"]  # seat 1's left first, one at a time
    assert hand_of(g, 0) == ["B2", "B7", "Y5"]
    assert hand_of(g, 1) == ["Y3", "Y6"]
    assert g.awaiting() == {"kind": "play", "seat": 2} and g.summary()["colour"] == "yellow"


def test_wild_customizable_plain_or_a_house_rule_chosen_at_set_up():
    """ "Wild Customizable are blank cards that can have a house rule assigned to them." Option
    wild_customizable: wild (default), swap_hands, shuffle_hands."""
    g = og(3, {1: ["WC", "R1", "B7"]}, top="R5")
    play(g, "WC", colour="blue")
    assert g.awaiting() == {"kind": "play", "seat": 2}
    swap = {"wild_customizable": "swap_hands"}
    g = og(3, {1: ["WC", "R1", "B7"], 2: ["G1"]}, top="R5", options=swap)
    play(g, "WC", colour="blue")
    act(g, "target", target=2)
    assert hand_of(g, 1) == ["G1"] and hand_of(g, 2) == ["B7", "R1"]
    g = og(3, {1: ["WC", "R1", "B7"]}, top="R5", options={"wild_customizable": "shuffle_hands"})
    play(g, "WC", colour="blue")
    assert g.chance_kind() == "shuffle_hands"


def test_two_players_reverse_acts_like_skip():
    """ "In a Two-Player game, the rules are the same except the Reverse action card acts like a
    Skip card." """
    for ruleset in ("official-2018", "classic"):  # classic is silent: the same (RULES-MAP)
        g = game(2, {1: ["RR", "B1", "B2"]}, top="R5", ruleset=ruleset)
        play(g, "RR")
        assert g.current_player() == 1


def test_going_out_on_a_draw_card_the_next_player_still_draws():
    """ "If a Draw Two or a Wild Draw Four card is played as the final card, the next player in
    the turn order must draw the appropriate number of cards before the score is tallied." """
    for ruleset, last, drawn in [
        (r, card, n) for r in ("official-2018", "classic") for card, n in (("RD2", 2), ("W4", 4))
    ]:
        draw = ["B1", "B2", "B3", "B4"]
        g = game(3, {1: [last], 2: ["G1"]}, top="R5", draw=draw, ruleset=ruleset)
        play(g, last, colour="blue" if last == "W4" else None)
        assert len(hand_of(g, 2)) == 1 + drawn
        assert g.sheet.scores[1] == sum(
            OFFICIAL_2018.points[C.card(c)] for s in (0, 2) for c in hand_of(g, s)
        )


def test_wild_always_playable():
    """ "A Wild card can be played on any turn, even if the player holding it has other cards
    that match the current color, number, or symbol." """
    g = og(3, {1: ["W", "WSH", "WC", "R1", "B2"]}, top="R5")
    assert {"W", "WSH", "WC", "R1"} <= legal_codes(g)
