"""Each mode's set-up, from the rule book: quick play, draft and dynasty."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from engine.elite import CHANCE, DeckRuleError, EliteGame, RuleError, check_deck
from engine.elite.uno import ACTIONS
from tests.engine.elite.helpers import CARDS, DECK, F1, NAMES, elite, ids, new_game, pick


def test_quick_play_deals_7_uno_cards_and_8_elite_cards_each_and_a_lineup_of_3():
    game = EliteGame(NAMES[:4], {"mode": "quick"}, cards=F1)
    assert game.current_player() == CHANCE and game.chance_kind() == "deal"
    rng = random.Random(5)
    game.sample_chance(rng)
    assert [len(h) for h in game.hands] == [7] * 4
    assert game.chance_kind() == "elite_shuffle"
    box = game.chance_pool()
    assert len(box) == 404  # the default box: the four base colours of each number
    rng.shuffle(box)
    game.apply_chance(box)
    assert [len(x) for x in game.lineups] == [3] * 4
    assert [len(d) for d in game.player_decks] == [5] * 4
    # one at a time round the table: seat 1's deck is cards 1, 5, 9 ... of the shuffle
    assert ids(game.lineups[1] + game.player_decks[1]) == ids(box[1::4][:8])
    assert game.current_player() == 0 and game.phase == "play"


def test_the_deal_is_one_card_at_a_time_and_an_action_card_turned_up_is_ignored():
    game = EliteGame(NAMES[:2], {}, cards=F1)
    order = sorted(DECK, key=lambda c: c.rank in ACTIONS)  # numbers first
    actions = [c for c in order if c.rank in ACTIONS]
    numbers = [c for c in order if c.rank not in ACTIONS]
    stacked = numbers[:14] + actions[:3] + numbers[14:] + actions[3:]
    game.apply_chance(stacked)
    assert game.hands[0] == stacked[0:14:2] and game.hands[1] == stacked[1:14:2]
    assert game.discard == [numbers[14]]  # three action cards turned up went under the pile
    assert game.draw[:3] == actions[:3][::-1]  # the bottom of the draw pile (top is the end)
    assert game.colour == numbers[14].colour


def test_a_chance_order_of_other_cards_is_refused_and_changes_nothing():
    game = EliteGame(NAMES[:2], {}, cards=F1)
    with pytest.raises(RuleError, match="not an order of the cards of the deal"):
        game.apply_chance(DECK[:-1] + DECK[:1])
    assert game.chance_kind() == "deal" and game.hands == [[], []]


def _draft_game(players: int, seed: int = 3) -> EliteGame:
    game = EliteGame(NAMES[:players], {"mode": "draft"}, cards=F1)
    rng = random.Random(seed)
    game.sample_chance(rng)
    game.sample_chance(rng)
    return game


def test_draft_turns_up_players_plus_2_and_the_youngest_seat_0_drafts_first():
    game = _draft_game(4)
    assert game.phase == "draft" and len(game.draft.showing) == 6
    assert game.current_player() == 0
    assert game.legal_actions() == [pick(game, c.id) for c in game.draft.showing]


def test_draft_goes_clockwise_then_snakes_back_and_returns_two_to_the_bottom():
    game = _draft_game(3)
    order = []
    for _ in range(3):
        order.append(game.current_player())
        if len(order) == 3:
            last = game.legal_actions()[0]
            left = [c for c in game.draft.showing if pick(game, c.id) != last]
        game.apply_action(game.legal_actions()[0])
    assert order == [0, 1, 2] and len(left) == 2
    assert game.draft.pile[-2:] == left  # "Return the undrafted cards to the bottom"
    order = []
    for _ in range(3):
        order.append(game.current_player())
        game.apply_action(game.legal_actions()[-1])
    assert order == [2, 1, 0]  # "the player that chose last chooses first ... reverse order"
    assert game.current_player() == 0 and game.draft.round == 2


def test_draft_ends_with_8_each_recorded_as_events_then_each_deck_is_shuffled():
    game = _draft_game(3)
    while game.phase == "draft":
        game.apply_action(game.legal_actions()[0])
    picks = [e for e in game.events if e.get("act") == "draft"]
    assert len(picks) == 24 and Counter(e["seat"] for e in picks) == {0: 8, 1: 8, 2: 8}
    assert game.chance_kind() == "player_decks"
    decks = game.chance_pool()
    assert [ids(d) for d in decks] == [
        [e["elite"] for e in picks if e["seat"] == s] for s in range(3)
    ]
    game.sample_chance(random.Random(1))
    assert [len(x) for x in game.lineups] == [3, 3, 3] and game.phase == "play"
    assert game.events[-1]["chance"] == "player_decks"


def test_draft_needs_8_cards_per_player():
    with pytest.raises(ValueError, match="at least 24 Elite Action Cards"):
        EliteGame(NAMES[:3], {"mode": "draft"}, cards=F1[:20])


# ---------------------------------------------------------------- dynasty
def _legal_deck() -> list:
    return [
        elite(i)
        for i in (
            "001-red",
            "004-blue",
            "007-green",
            "013-yellow",
            "028-red",
            "048-blue",
            "067-green",
            "072-yellow",
        )
    ]


def test_a_legal_dynasty_deck_plays():
    decks = [_legal_deck(), _legal_deck()]
    game = EliteGame(NAMES[:2], {"mode": "dynasty", "decks": decks}, cards=None)
    rng = random.Random(2)
    game.sample_chance(rng)
    assert game.chance_kind() == "player_decks"
    game.sample_chance(rng)
    assert {c.id for c in game.lineups[0] + game.player_decks[0]} == {
        f"s0-{c.id}" for c in decks[0]
    }
    assert game.phase == "play"


def test_rule_1_eight_cards():
    with pytest.raises(DeckRuleError, match="rule 1: it must have 8 Elite Action Cards, not 7"):
        check_deck(_legal_deck()[:7], "Ann")


def test_rule_2_one_card_of_a_person_by_name():
    deck = _legal_deck()
    deck[1] = elite("002-blue")  # a second Alex Albon
    with pytest.raises(DeckRuleError, match=r"rule 2: .*Alex Albon.*001-red, 002-blue"):
        check_deck(deck, "Ann")


def test_rule_3_every_colour_dual_counts_for_both():
    deck = _legal_deck()
    deck[3], deck[7] = elite("017-blue"), elite("070-red")  # no yellow left
    with pytest.raises(DeckRuleError, match="rule 3: at least 1 yellow card"):
        check_deck(deck, "Ann")
    deck[3] = elite("017-green-yellow")  # a dual Green/Yellow counts for yellow
    check_deck(deck, "Ann")


def test_rule_4_at_most_four_of_an_icon_modifiers_do_not_make_it_unique():
    deck = [
        elite(i)
        for i in (
            "009-red",  # Skip
            "011-blue",  # Skip Target
            "021-green",  # Skip
            "025-yellow",  # Skip Target
            "033-red",  # Skip Target
            "003-blue",
            "006-green",
            "018-yellow",
        )
    ]
    with pytest.raises(DeckRuleError) as caught:
        check_deck(deck, "Ann")
    assert caught.value.rule == 4
    assert "5 Skip icons, at most 4 (on 009-red, 011-blue, 021-green, 025-yellow, 033-red" in str(
        caught.value
    )


def test_rule_4_each_icon_of_a_card_counts():
    deck = _legal_deck()
    deck[:5] = [elite(i) for i in ("007-red", "041-blue", "019-green", "060-yellow", "009-red")]
    deck[4] = replace(elite("009-red"), name="Someone Else")
    with pytest.raises(DeckRuleError, match="5 Skip icons"):
        check_deck(deck, "Ann")


def test_a_dynasty_game_names_the_broken_rule_and_the_player():
    bad = _legal_deck()[:7]
    with pytest.raises(DeckRuleError, match="Ben's Player Deck breaks construction rule 1"):
        EliteGame(NAMES[:2], {"mode": "dynasty", "decks": [_legal_deck(), bad]})


@pytest.mark.parametrize("decks", [None, "001,002", [["001"], ["002"]], [_legal_deck(), ["001"]]])
def test_a_dynasty_deck_that_is_no_cards_is_refused_in_a_sentence(decks):
    """Words (a web request's, say) are no Player Deck: only cards its caller read from files."""
    with pytest.raises(ValueError, match="own Player Deck, read from files"):
        EliteGame(NAMES[:2], {"mode": "dynasty", "decks": decks})


def test_unknown_options_and_values_are_refused():
    with pytest.raises(ValueError, match="unknown Elite option 'target'"):
        EliteGame(NAMES[:2], {"target": 500}, cards=CARDS)
    with pytest.raises(ValueError, match="mode must be one of quick, draft, dynasty"):
        EliteGame(NAMES[:2], {"mode": "sealed"}, cards=CARDS)


def test_a_game_is_deterministic_for_a_seed():
    a, b = new_game(4, seed=9), new_game(4, seed=9)
    assert a.hands == b.hands and a.lineups == b.lineups and a.events == b.events
