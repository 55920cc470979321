"""Every icon of the Elite Action Card Key, with the Target and Everyone modifiers."""

from __future__ import annotations

import pytest

from engine.elite import actions as A
from engine.elite import parse_cards
from tests.engine.elite.helpers import card, codes, elite, ids, pick, play, table, target, uno

HAND = ["r3e", "g1", "g2", "g3"]


def activated(card_id: str, players: int = 4, **kw):
    """Seat 0 plays a Red 3 with the Elite icon and activates `card_id` from its Lineup."""
    hands = {0: HAND, 1: ["b1", "b2", "b3"], 2: ["y1", "y2", "y3", "y4"], 3: ["g5", "b5"]}
    hands.update(kw.pop("hands", {}))
    game = table(players, hands={s: h for s, h in hands.items() if s < players}, top="r5", **kw)
    game.lineups[0] = [elite(card_id)]
    game.apply_action(play(game, "r3e"))
    game.apply_action(pick(game, card_id))
    return game


def test_skip_the_next_player_skips_their_next_turn():
    game = activated("T01-red")
    assert game.current_player() == 2


def test_skip_target_the_chosen_player_is_skipped():
    game = activated("T02-red")
    assert game.phase == "target" and game.legal_actions() == [target(1), target(2), target(3)]
    game.apply_action(target(2))
    assert game.current_player() == 1
    game.apply_action(A.DRAW, seat=1)
    assert game.current_player() == 3  # seat 2's next turn is skipped
    assert game.events[-2] == {"seat": 0, "act": "target", "target": 2}


def test_skip_everyone_every_other_player_skips_so_the_player_goes_again():
    game = activated("T03-red")
    assert game.current_player() == 0


def test_reverse_turns_the_direction():
    game = activated("T04-red")
    assert game.direction == -1 and game.current_player() == 3


def test_reverse_then_skip_skips_the_next_player_in_the_new_order():
    game = activated("T21-red")
    assert game.current_player() == 2  # 3 is skipped going the other way


def test_two_player_reverse_by_default_only_turns_and_with_the_option_skips():
    game = activated("T04-red", players=2)
    assert game.current_player() == 1
    game = activated("T04-red", players=2, options={"two_player_reverse": "skip"})
    assert game.current_player() == 0


def test_draw_the_next_player_draws_the_number_shown():
    game = activated("T05-red")
    assert len(game.hands[1]) == 5 and game.current_player() == 1


def test_draw_target_the_chosen_player_draws():
    game = activated("T06-red")
    game.apply_action(target(3))
    assert len(game.hands[3]) == 5 and len(game.hands[1]) == 3


def test_draw_everyone_every_other_player_draws():
    game = activated("T07-red")
    assert [len(h) for h in game.hands] == [3, 4, 5, 3]


def test_draw_with_nothing_left_to_draw_draws_what_there_is():
    """The book is silent: the Draw Pile is reshuffled when empty; with every other card in a
    hand, what cannot be drawn is not drawn (`draw-empty`)."""
    game = table(hands={0: HAND, 1: ["b1"]}, top="r5")
    game.draw, game.discard = [], [uno("r5")]
    game.lineups[0] = [elite("T05-red")]
    game.apply_action(play(game, "r3e"))
    assert game.chance_kind() == "reshuffle" and codes(game.chance_pool()) == ["r5"]
    game.apply_chance(game.chance_pool())
    game.apply_action(pick(game, "T05-red"))
    assert codes(game.hands[1]) == ["b1", "r5"] and game.owed == []
    assert game.current_player() == 1


def test_peek_shows_the_hand_to_the_peeking_seat_only_until_the_end_of_its_next_turn():
    game = activated("T08-red")
    assert game.phase == "target"
    game.apply_action(target(2))
    view = game.observation(0)
    assert view["peeked"]["seat"] == 2 and [c["code"] for c in view["peeked"]["hand"]] == [
        "y1",
        "y2",
        "y3",
        "y4",
    ]
    assert "peeked" not in game.observation(1) and "peeked" not in game.observation(2)
    assert "peeked" not in game.observation(None) and game.observation(None)["hand"] == []
    for seat in (1, 2, 3):
        game.apply_action(A.DRAW, seat=seat)
        if game.phase == "play_drawn":
            game.apply_action(A.PASS, seat=seat)
    assert "peeked" in game.observation(0)  # seat 0's next turn
    game.apply_action(A.DRAW, seat=0)
    if game.phase == "play_drawn":
        game.apply_action(A.PASS, seat=0)
    assert "peeked" not in game.observation(0)


def test_peek_everyone_sees_every_other_hand():
    game = activated("T09-red")
    assert [p["seat"] for p in game.observation(0)["peeks"]] == [1, 2, 3]


def test_play_again_the_player_takes_another_turn():
    game = activated("T10-red")
    assert game.current_player() == 0 and game.phase == "play"


def test_discard_the_next_player_chooses_an_uno_card_which_goes_under_the_top():
    game = activated("T11-red")
    assert game.phase == "discard" and game.current_player() == 1
    assert game.legal_actions() == [card(game, c) for c in ("b1", "b2", "b3")]
    game.apply_action(card(game, "b2"), seat=1)
    assert codes(game.hands[1]) == ["b1", "b3"]
    assert codes(game.discard[-2:]) == ["b2", "r3e"] and game.colour == "red"
    assert game.events[-1] == {"seat": 1, "act": "discard", "card": "b2"}


def test_discard_target_two_cards_by_the_chosen_player():
    game = activated("T12-red")
    game.apply_action(target(2))
    game.apply_action(card(game, "y1"), seat=2)
    game.apply_action(card(game, "y4"), seat=2)
    assert codes(game.hands[2]) == ["y2", "y3"] and game.current_player() == 1


def test_discard_everyone_in_order_of_play():
    game = activated("T23-red")
    for seat, code in ((1, "b1"), (2, "y2"), (3, "g5")):
        assert game.current_player() == seat
        game.apply_action(card(game, code), seat=seat)
    assert [len(h) for h in game.hands] == [3, 2, 3, 1]


def test_discard_leaves_a_one_card_hand_alone_unless_the_option_says_otherwise():
    game = activated("T11-red", hands={1: ["b1"]})
    assert codes(game.hands[1]) == ["b1"] and game.current_player() == 1
    game = activated("T11-red", hands={1: ["b1"]}, options={"discard_last_card": "discard"})
    game.apply_action(card(game, "b1"), seat=1)
    assert game.winner == 1


def test_discard_an_elite_card_from_the_chosen_players_lineup():
    game = activated("T13-red", lineups={2: ["T01-blue", "T04-green", "T05-yellow"]})
    game.apply_action(target(2))
    assert game.current_player() == 2
    game.apply_action(pick(game, "T04-green"), seat=2)
    assert ids(game.elite_discards[2]) == ["T04-green"] and len(game.lineups[2]) == 3


def test_recover_elite_cards_go_under_the_player_deck():
    game = table(hands={0: HAND}, top="r5", decks={0: ["T10-blue"]})
    game.lineups[0] = [elite("T14-red")]
    game.elite_discards[0] = [elite("T01-red"), elite("T04-red"), elite("T05-red")]
    game.apply_action(play(game, "r3e"))
    game.apply_action(pick(game, "T14-red"))
    game.apply_action(pick(game, "T05-red"))
    game.apply_action(pick(game, "T01-red"))
    assert ids(game.elite_discards[0]) == ["T04-red", "T14-red"]
    assert ids(game.lineups[0]) == ["T10-blue", "T05-red", "T01-red"]


def test_recover_an_uno_card_from_the_discard_pile_into_the_hand():
    game = table(hands={0: HAND}, top="r5")
    game.discard = [uno("b7"), uno("g2"), uno("r5")]
    game.lineups[0] = [elite("T15-red")]
    game.apply_action(play(game, "r3e"))
    game.apply_action(pick(game, "T15-red"))
    assert game.phase == "recover"
    assert game.legal_actions() == sorted(card(game, c) for c in ("b7", "g2", "r5"))
    game.apply_action(card(game, "g2"))
    assert codes(game.hands[0])[-1] == "g2" and codes(game.discard) == ["b7", "r5", "r3e"]
    assert game.events[-1] == {"seat": 0, "act": "recover", "card": "g2"}


def test_swap_hands_with_the_chosen_player():
    game = activated("T16-red")
    game.apply_action(target(3))
    assert codes(game.hands[0]) == ["g5", "b5"] and codes(game.hands[3]) == ["g1", "g2", "g3"]


def test_discard_colour_discards_every_card_of_the_cards_colour():
    game = activated("T17-red", hands={0: ["r3e", "r1", "g1", "r7"]})
    assert codes(game.hands[0]) == ["g1"] and codes(game.discard[-3:]) == ["r1", "r7", "r3e"]


def test_discard_colour_of_a_dual_card_is_the_colour_it_was_activated_with():
    dual = parse_cards("T30\tDual\tdriver\tblue/red\tDiscard Color uno", "t")[0]
    game = table(hands={0: ["b3e", "r1", "b1", "g1"]}, top="b5")
    game.elite_cards.append(dual)
    game.elite_index[dual.id] = len(game.elite_cards) - 1
    game.lineups[0] = [dual]
    game.apply_action(play(game, "b3e"))
    game.apply_action(pick(game, dual.id))
    assert codes(game.hands[0]) == ["r1", "g1"]


def test_discard_colour_of_the_whole_hand_keeps_the_card_the_player_chooses():
    game = activated("T17-red", hands={0: ["r3e", "r1", "r7"]})
    assert game.phase == "keep" and game.current_player() == 0
    game.apply_action(card(game, "r7"))
    assert codes(game.hands[0]) == ["r7"] and game.winner is None
    assert "r7" not in str(game.observation(1)) and "Red 7" not in str(game.observation(None))


def test_discard_colour_target_the_chosen_player_discards_the_colour():
    game = activated("T24-red", hands={2: ["r1", "y1", "r2"]})
    game.apply_action(target(2))
    assert codes(game.hands[2]) == ["y1"]


def test_search_the_top_of_another_players_deck_keep_it_or_bottom_it():
    game = activated("T18-red", decks={2: ["T01-blue", "T04-blue", "T05-blue"]})
    game.player_decks[1] = []
    assert game.legal_actions() == [target(2), target(3)]  # seat 1 has no Player Deck left
    game.apply_action(target(2))
    assert game.observation(0)["searched"]["card"]["id"] == "T01-blue"
    assert "searched" not in game.observation(2) and "searched" not in game.observation(None)
    game.apply_action(A.BOTTOM)
    assert ids(game.player_decks[2]) == ["T04-blue", "T05-blue", "T01-blue"]
    game = activated("T18-red", decks={1: ["T01-blue", "T04-blue"]})
    game.apply_action(target(1))
    game.apply_action(A.TOP)
    assert ids(game.player_decks[1]) == ["T01-blue", "T04-blue"]


def test_substitute_exchanges_with_a_discarded_card_of_a_different_symbol():
    game = table(hands={0: HAND}, top="r5", decks={0: []})
    game.lineups[0] = [elite("T19-red"), elite("T01-blue")]
    game.elite_discards[0] = [elite("T19-blue"), elite("T05-green")]
    game.apply_action(play(game, "r3e"))
    game.apply_action(pick(game, "T19-red"))
    assert game.legal_actions() == [pick(game, "T05-green")]  # not another Substitute
    game.apply_action(pick(game, "T05-green"))
    assert ids(game.lineups[0]) == ["T01-blue", "T05-green"]
    assert ids(game.elite_discards[0]) == ["T19-blue", "T19-red"]


def test_refresh_the_hand_goes_under_the_discard_pile_and_as_many_are_drawn():
    game = activated("T20-red", draw=["y7", "y8", "y9"])
    assert codes(game.hands[0]) == ["y7", "y8", "y9"]
    assert codes(game.discard[:3]) == ["g1", "g2", "g3"] and game.top.code == "r3e"


@pytest.mark.parametrize("card_id", ["T02-red", "T08-red", "T16-red", "T13-red"])
def test_every_target_choice_is_the_players_and_refused_otherwise(card_id):
    game = activated(card_id)
    with pytest.raises(Exception) as caught:
        game.apply_action(target(0))
    assert getattr(caught.value, "rule", None) == "target"
    assert game.phase == "target"


def test_with_discard_last_card_a_hand_emptied_by_discard_colour_wins_and_the_card_is_kept():
    game = activated(
        "T17-red", hands={0: ["r3e", "r1", "r7"]}, options={"discard_last_card": "discard"}
    )
    assert game.winner == 0 and game.hands[0] == [] and game.is_terminal()
    assert ids(game.elite_discards[0]) == ["T17-red"]  # not lost with the game's end


def test_a_swap_that_leaves_a_player_one_card_makes_them_call_uno():
    game = activated("T16-red", hands={0: ["r3e", "g1", "g2"], 3: ["b5"]})
    game.apply_action(target(3))
    assert codes(game.hands[0]) == ["b5"] and A.UNO in game.legal_actions(0)
    assert A.CATCH + 0 in game.legal_actions(2) and A.UNO not in game.legal_actions(3)


def test_refresh_waits_for_the_reshuffle_when_the_draw_pile_runs_out():
    game = table(hands={0: HAND}, top="r5")
    game.discard = [*game.draw[2:], game.top]
    game.draw = game.draw[:2]
    game.lineups[0] = [elite("T20-red")]
    game.apply_action(play(game, "r3e"))
    game.apply_action(pick(game, "T20-red"))
    assert game.chance_kind() == "reshuffle" and len(game.hands[0]) == 2
    game.apply_chance(game.chance_pool())
    assert len(game.hands[0]) == 3 and game.current_player() == 1
    assert {"g1", "g2", "g3"} & set(codes(game.draw + game.hands[0]))  # reshuffled in


def test_search_everyone_looks_at_every_other_deck_in_turn():
    row = "T31\tSearcher\tdriver\tred\tSearch elite Everyone"
    everyone = parse_cards(row, "t")[0]
    game = table(hands={0: HAND}, top="r5")
    game.elite_cards.append(everyone)
    game.elite_index[everyone.id] = len(game.elite_cards) - 1
    game.lineups[0] = [everyone]
    tops = [game.player_decks[s][0].id for s in (1, 2)]
    game.apply_action(play(game, "r3e"))
    game.apply_action(pick(game, everyone.id))
    for seat, top_id in zip((1, 2), tops, strict=True):
        assert game.phase == "search" and game.observation(0)["searched"]["seat"] == seat
        assert game.observation(0)["searched"]["card"]["id"] == top_id
        game.apply_action(A.BOTTOM)
    assert [game.player_decks[s][-1].id for s in (1, 2)] == tops
