"""Playing UNO Elite: matching, drawing, activating a Lineup card, UNO, winning."""

from __future__ import annotations

import copy

import pytest

from engine.elite import TERMINAL, RuleError
from engine.elite import actions as A
from tests.engine.elite.helpers import codes, ids, pick, play, table


def _snapshot(game):
    return copy.deepcopy({k: v for k, v in vars(game).items()})


def test_match_by_colour_number_or_symbol_and_wilds_on_anything():
    game = table(hands={0: ["r3", "b5", "g7", "brc", "ew", "wr", "y9e"]}, top="r5")
    legal = set(game.legal_actions())
    assert {play(game, c) for c in ("r3", "b5", "ew", "wr")} <= legal
    assert play(game, "g7") not in legal and play(game, "y9e") not in legal
    recover_on_recover = table(hands={0: ["brc", "g1"]}, top="rrc")
    assert play(recover_on_recover, "brc") in recover_on_recover.legal_actions()


def test_the_elite_icon_is_not_a_matching_symbol():
    """ "NOTE: Elite Icons do not count as a matching symbol.\""""
    game = table(hands={0: ["b7e", "b5"]}, top="r5e")
    assert play(game, "b7e") not in game.legal_actions()
    before = _snapshot(game)
    with pytest.raises(RuleError) as caught:
        game.apply_action(play(game, "b7e"))
    assert caught.value.rule == "match" and "Elite Icons do not count" in str(caught.value)
    assert _snapshot(game) == before
    game.apply_action(play(game, "b5"))  # the number matches, icon or not
    assert game.top.code == "b5"


def test_you_may_draw_even_holding_a_playable_card_and_play_the_drawn_card():
    game = table(hands={0: ["r3", "g1"]}, top="r5", draw=["r8"])
    assert A.DRAW in game.legal_actions()
    game.apply_action(A.DRAW)
    assert game.phase == "play_drawn" and game.legal_actions() == [play(game, "r8"), A.PASS]
    game.apply_action(play(game, "r8"))
    assert game.top.code == "r8" and game.current_player() == 1


def test_a_drawn_card_that_cannot_be_played_ends_the_turn():
    game = table(hands={0: ["g1"]}, top="r5", draw=["b8"])
    game.apply_action(A.DRAW)
    assert game.current_player() == 1 and codes(game.hands[0]) == ["g1", "b8"]


def test_not_your_turn_is_refused_and_nothing_changes():
    game = table(hands={1: ["r3"]}, top="r5")
    before = _snapshot(game)
    with pytest.raises(RuleError) as caught:
        game.apply_action(play(game, "r3"), seat=1)
    assert caught.value.rule == "turn" and _snapshot(game) == before


def test_elite_wild_names_the_colour_then_activates_a_lineup_card_of_it():
    """ "You choose the color that continues play. If any of the cards in your Lineup match the
    color you chose, you may activate one of those Elite Action Cards.\""""
    game = table(hands={0: ["ew", "g1", "g2"]}, top="r5", lineups={0: ["T01-green", "T01-red"]})
    game.apply_action(play(game, "ew"))
    assert game.phase == "colour"
    game.apply_action(A.COLOUR + 2)  # green
    assert game.colour == "green" and game.phase == "activate"
    assert game.legal_actions() == [pick(game, "T01-green"), A.DONE]


def test_only_a_lineup_card_of_the_played_colour_may_be_activated():
    game = table(
        hands={0: ["r3e", "g1", "g2"]},
        top="r5",
        lineups={0: ["T01-blue", "T22-blue-red", "T22-wild"]},
    )
    game.apply_action(play(game, "r3e"))
    legal = game.legal_actions()
    assert legal == [pick(game, "T22-blue-red"), pick(game, "T22-wild"), A.DONE]
    with pytest.raises(RuleError) as caught:
        game.apply_action(pick(game, "T01-blue"))
    assert caught.value.rule == "activate-colour"


def test_nitro_wild_foil_is_activated_by_any_elite_icon():
    game = table(hands={0: ["y3e", "g1", "g2"]}, top="y5", lineups={0: ["T22-nitro", "T01-red"]})
    game.apply_action(play(game, "y3e"))
    assert game.legal_actions() == [pick(game, "T22-nitro"), A.DONE]


def test_no_eligible_card_no_activation_and_a_number_without_the_icon_activates_nothing():
    game = table(hands={0: ["r3e", "r3", "g1"]}, top="r5", lineups={0: ["T01-blue"]})
    game.apply_action(play(game, "r3e"))
    assert game.current_player() == 1  # nothing to activate: the turn is over
    game = table(hands={0: ["r3", "g1"]}, top="r5", lineups={0: ["T01-red"]})
    game.apply_action(play(game, "r3"))
    assert game.current_player() == 1


def test_activation_is_optional():
    """ "NOTE: you may choose NOT to activate an eligible Elite Action Card if you want.\""""
    game = table(hands={0: ["r3e", "g1"]}, top="r5", lineups={0: ["T01-red"]}, decks={0: []})
    game.apply_action(play(game, "r3e"))
    game.apply_action(A.DONE)
    assert game.current_player() == 1 and ids(game.lineups[0]) == ["T01-red"]
    assert game.events[-1] == {"seat": 0, "act": "decline"}


def test_an_activated_card_goes_to_the_elite_discard_and_the_lineup_refills():
    game = table(
        hands={0: ["r3e", "g1"]},
        top="r5",
        lineups={0: ["T01-red", "T04-blue", "T04-green"]},
        decks={0: ["T10-red", "T10-blue"]},
    )
    game.apply_action(play(game, "r3e"))
    game.apply_action(pick(game, "T01-red"))
    assert ids(game.elite_discards[0]) == ["T01-red"]
    assert ids(game.lineups[0]) == ["T04-blue", "T04-green", "T10-red"]
    assert ids(game.player_decks[0]) == ["T10-blue"]
    assert game.stats["elite_activations"] == 1 and game.stats["icons"] == {"Skip": 1}


def test_an_empty_player_deck_is_never_reshuffled():
    """ "If your Player Deck runs out DO NOT shuffle the discards to form a new deck.\""""
    game = table(
        hands={0: ["r3e", "r4e", "g1"], 1: ["b1", "b2"], 2: ["b3", "b4"]},
        top="r5",
        lineups={0: ["T01-red", "T10-red"]},
        decks={0: []},
    )
    game.apply_action(play(game, "r3e"))
    game.apply_action(pick(game, "T10-red"))  # Play Again
    assert ids(game.lineups[0]) == ["T01-red"] and game.player_decks[0] == []
    game.apply_action(play(game, "r4e"))
    game.apply_action(pick(game, "T01-red"))
    assert game.lineups[0] == [] and game.player_decks[0] == []
    assert ids(game.elite_discards[0]) == ["T10-red", "T01-red"]


def test_recover_puts_an_elite_card_from_the_discard_under_the_player_deck():
    game = table(hands={0: ["rrc", "g1", "g2"]}, top="r5", decks={0: ["T01-blue"]})
    game.elite_discards[0] = [game.elite_cards[game.elite_index["T04-red"]]]
    game.elite_discards[0].append(game.elite_cards[game.elite_index["T05-red"]])
    game.apply_action(play(game, "rrc"))
    assert game.phase == "recover"
    assert set(game.legal_actions()) == {pick(game, "T04-red"), pick(game, "T05-red")}
    game.apply_action(pick(game, "T05-red"))  # "Take any one Elite Action Card of your choice"
    assert ids(game.player_decks[0]) == ["T01-blue", "T05-red"] and game.current_player() == 1


def test_wild_recover_takes_up_to_3_in_the_order_chosen():
    game = table(hands={0: ["wr", "g1"]}, top="r5", decks={0: []}, lineups={0: []})
    pile = ["T01-red", "T04-red", "T05-red", "T08-red"]
    game.elite_discards[0] = [game.elite_cards[game.elite_index[i]] for i in pile]
    game.apply_action(play(game, "wr"))
    game.apply_action(A.COLOUR + 1)
    assert A.DONE in game.legal_actions()
    game.apply_action(pick(game, "T08-red"))
    game.apply_action(pick(game, "T01-red"))
    game.apply_action(A.DONE)  # "up to 3"
    assert ids(game.lineups[0]) == ["T08-red", "T01-red"]  # refilled from the deck at once
    assert game.colour == "blue" and game.current_player() == 1


def test_wild_recover_stops_after_three():
    game = table(hands={0: ["wr", "g1"]}, top="r5", decks={0: ["T10-red"] * 0})
    pile = ["T01-red", "T04-red", "T05-red", "T08-red"]
    game.lineups[0] = [game.elite_cards[game.elite_index["T10-red"]]] * 3
    game.elite_discards[0] = [game.elite_cards[game.elite_index[i]] for i in pile]
    game.apply_action(play(game, "wr"))
    game.apply_action(A.COLOUR)
    for card_id in pile[:3]:
        game.apply_action(pick(game, card_id))
    assert ids(game.player_decks[0]) == pile[:3] and game.current_player() == 1


# ---------------------------------------------------------------- UNO and winning
def test_a_player_down_to_one_card_calls_uno_and_is_safe():
    game = table(hands={0: ["r3", "g1"], 1: ["b1", "b2"]}, top="r5")
    game.apply_action(play(game, "r3"))
    assert A.UNO in game.legal_actions(0) and A.CATCH + 0 in game.legal_actions(1)
    game.apply_action(A.UNO, seat=0)
    assert A.CATCH + 0 not in game.legal_actions(1)
    assert game.events[-1] == {"seat": 0, "act": "uno"}


def test_caught_without_calling_uno_draws_2():
    game = table(hands={0: ["r3", "g1"], 1: ["b1", "b2"]}, top="r5")
    game.apply_action(play(game, "r3"))
    game.apply_action(A.CATCH + 0, seat=2)
    assert len(game.hands[0]) == 3 and game.events[-1] == {"seat": 2, "act": "catch", "target": 0}


def test_the_catch_window_closes_when_the_next_player_begins_their_turn():
    game = table(hands={0: ["r3", "g1"], 1: ["r1", "b2"]}, top="r5")
    game.apply_action(play(game, "r3"))
    game.apply_action(play(game, "r1"), seat=1)
    assert A.CATCH + 0 not in game.legal_actions(2)
    with pytest.raises(RuleError) as caught:
        game.apply_action(A.CATCH + 0, seat=2)
    assert caught.value.rule == "catch-window"


def test_the_winner_plays_their_last_uno_card_and_no_power_follows():
    game = table(hands={0: ["r3e"]}, top="r5", lineups={0: ["T01-red"]})
    game.apply_action(play(game, "r3e"))
    assert game.winner == 0 and game.current_player() == TERMINAL
    assert game.legal_actions() == [] and game.stats["elite_activations"] == 0
    with pytest.raises(RuleError) as caught:
        game.apply_action(A.DRAW)
    assert caught.value.rule == "game-over"


def test_the_draw_pile_is_reshuffled_from_the_discard_pile_keeping_the_top():
    game = table(hands={0: ["r3", "g1"]}, top="r5")
    game.discard = [*game.draw[:-1], *game.discard]
    game.draw = game.draw[-1:]
    game.apply_action(A.DRAW)
    assert game.chance_kind() == "reshuffle"
    pool = game.chance_pool()
    assert len(pool) == len(game.discard) - 1
    game.apply_chance(pool)
    assert len(game.discard) == 1 and len(game.draw) == len(pool)


def test_a_game_nobody_can_move_in_is_blocked():
    game = table(players=2, hands={0: ["g1", "g2"], 1: ["b1", "b2"]}, top="r5")
    rest = game.draw + game.hands[0]
    game.hands[0], game.draw = rest, []  # every other card in seat 0's hand
    game.hands[0] = [c for c in game.hands[0] if not game.is_playable(c)]
    game.hands[1] = game.hands[1] + [c for c in rest if game.is_playable(c)]
    game.hands[1] = [c for c in game.hands[1] if not game.is_playable(c)]
    assert game.legal_actions() == [A.PASS]
    game.apply_action(A.PASS)
    assert game.legal_actions() == [A.PASS] and game.current_player() == 1
    game.apply_action(A.PASS)
    assert game.is_terminal() and game.winner is None and game.blocked
