"""One chance node for every ruleset (engine/chance.py): the shared pieces (uniform and
weighted outcomes, the unbiased sample, the check that an order is exactly the cards due, the
event read and written), the record's chance events of both rulesets refused with their line
and the rule, and Tinker Bell's one way in (her outcome through `apply_action`)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine import chance, record
from engine.disney import actions as A
from engine.disney import cards as C
from engine.disney.game import Game
from engine.elite import EliteGame
from engine.errors import EventError, RuleError
from engine.protocol import CHANCE
from engine.record import RecordError
from tests.engine.elite.helpers import F1, NAMES, until_chance


def test_outcomes_are_as_likely_as_their_copies_and_uniform_where_each_is_one():
    assert chance.listed([7, 3, 7, 7]) == [(3, 0.25), (7, 0.75)]
    assert chance.listed([12, 10, 11]) == [(10, 1 / 3), (11, 1 / 3), (12, 1 / 3)]


def test_the_cards_left_are_the_pool_less_one_copy_of_each_placed_in_the_pools_order():
    assert chance.left([5, 1, 5, 2, 5], [5, 2], lambda c: c) == [1, 5, 5]
    assert chance.left(["a", "b"], [], str) == ["a", "b"]


def test_a_sample_with_nothing_placed_is_the_pool_shuffled_once():
    pool = list(range(40))
    want = list(pool)
    random.Random(5).shuffle(want)
    assert chance.shuffled(list(pool), [], lambda c: c, random.Random(5)) == want


def test_a_sample_keeps_the_placed_cards_on_top_and_draws_every_order_of_the_rest():
    seen = Counter(
        tuple(chance.shuffled([1, 2, 2, 3], [2], lambda c: c, random.Random(s)))
        for s in range(3000)
    )
    assert set(seen) == {(2, 1, 2, 3), (2, 1, 3, 2), (2, 2, 1, 3), (2, 2, 3, 1), (2, 3, 1, 2),
                         (2, 3, 2, 1)}  # fmt: skip
    assert min(seen.values()) > 400  # each of the 6 about 500 times: no order favoured


def test_an_order_that_is_not_the_pool_names_what_is_missing_and_what_is_extra():
    chance.check([3, 1, 2], [1, 2, 3], "the pile", lambda c: c, str)
    with pytest.raises(RuleError) as caught:
        chance.check([1, 1, 2], [1, 2, 3], "the pile", lambda c: c, str)
    assert caught.value.rule == "chance"
    assert "not the pile" in str(caught.value) and "missing ['3'], extra ['1']" in str(caught.value)


def test_an_events_order_is_read_and_written_under_its_key():
    event = chance.event("reshuffle", "deck", [C.card("R7"), C.card("W")], C.code)
    assert event == {"chance": "reshuffle", "deck": ["R7", "W"]}
    assert chance.read(event, "deck", C.card) == [C.card("R7"), C.card("W")]
    with pytest.raises(EventError, match="a reshuffle event needs a list 'deck'"):
        chance.read({"chance": "reshuffle", "deck": "R7"}, "deck", C.card)


# ------------------------------------------------------------------ records, both rulesets
def disney_record_until(kind: str, seed: int = 1) -> str:
    """A seeded Disney record that stops where `kind` is the pending chance (a second hand's
    deck, a reshuffle)."""
    for s in range(seed, seed + 200):
        rng = random.Random(s)
        g = Game("disney", ["Ann", "Ben", "Cy"], 0, {"target": 500})
        while not g.is_terminal():
            if g.current_player() != CHANCE:
                g.apply_action(rng.choice(g.legal_actions()))
            elif g.chance_kind() == kind and g.hand_no >= 1:
                return g.record()
            else:
                g.sample_chance(rng)
    raise AssertionError(f"no {kind} in 200 seeded games")


def refused(text: str, event: dict) -> RecordError:
    lines = text.rstrip("\n").split("\n")
    with pytest.raises(RecordError) as caught:
        record.replay("\n".join([*lines, json.dumps(event)]))
    assert caught.value.line == len(lines) + 1 and caught.value.event == len(lines)
    return caught.value


def test_a_recorded_deck_that_is_not_the_deck_is_refused_with_its_line_and_rule():
    """Before the fold, a new hand's event with a deck of the wrong cards escaped the replay as
    a bare ValueError (a traceback in `tinker-tray replay`)."""
    text = disney_record_until("new_hand")
    err = refused(text, {"chance": "new_hand", "deck": ["R1"] * 112})
    assert err.rule == "chance" and "missing ['R0'" in str(err) and "extra ['R1'" in str(err)


def test_a_recorded_reshuffle_of_other_cards_or_of_no_card_is_refused_with_its_line():
    text = disney_record_until("reshuffle")
    err = refused(text, {"chance": "reshuffle", "deck": ["R1"]})
    assert err.rule == "chance" and "the reshuffle" in str(err) and "1 given" in str(err)
    err = refused(text, {"chance": "reshuffle", "deck": ["R1", "Q9"]})
    assert "unknown card 'Q9'" in str(err)


def test_a_chance_event_where_the_game_waits_for_a_player_names_what_it_waits_for():
    text = disney_record_until("reshuffle")
    lines = text.split("\n")[:3]  # the header and two events: a player's move is due
    game, _ = record.replay("\n".join(lines))
    waits = game.summary()["awaiting"]["kind"]
    err = refused("\n".join(lines), {"chance": "reshuffle", "deck": []})
    assert (
        err.rule == "chance"
        and f"a reshuffle event came where the game waits for {waits}" in str(err)
    )


def elite_header() -> str:
    return json.dumps(EliteGame(NAMES[:3], {"mode": "quick"}, cards=F1).header())


def test_an_elite_deal_of_other_cards_or_a_card_of_no_name_is_refused_with_its_line():
    header = elite_header()
    deck = json.loads(header)["deck"]
    err = refused(header, {"chance": "deal", "deck": deck[:-1] + deck[:1]})
    assert err.rule == "chance" and "not an order of the cards of the deal" in str(err)
    err = refused(header, {"chance": "deal", "deck": [*deck[:-1], "zz"]})
    assert "no UNO card 'zz'" in str(err)


def test_an_elite_player_deck_of_a_card_of_no_name_is_refused_with_its_line():
    game = until_chance(
        EliteGame(NAMES[:2], {"mode": "draft"}, cards=F1), "player_decks", random.Random(3)
    )
    text = game.record()
    decks = [[c.id for c in d] for d in game.draft.picked]
    err = refused(text, {"chance": "player_decks", "decks": [decks[0], [*decks[1][:-1], "nope"]]})
    assert "no Elite Action Card 'nope'" in str(err)
    err = refused(text, {"chance": "player_decks", "decks": [decks[0], decks[0]]})
    assert err.rule == "chance" and "seat 1's Player Deck" in str(err)


def test_an_elite_outcome_not_listed_is_refused_by_the_rule_and_changes_nothing():
    game = EliteGame(NAMES[:2], {}, cards=F1)
    game.apply_action(game.chance_outcomes()[0][0])
    before = (list(game.ordered), game.chance_outcomes(), game.events)
    for action in (-1, 999_999, 1000, 2000 + len(game.kinds), 10_000):
        with pytest.raises(RuleError) as caught:
            game.apply_action(action)
        assert caught.value.rule == "chance" and "not an outcome" in str(caught.value)
    assert (list(game.ordered), game.chance_outcomes(), game.events) == before


def test_one_record_module_replays_and_summarises_every_ruleset():
    disney = Game("disney", ["Ann", "Ben"], 0, {"target": 500})
    disney.sample_chance(random.Random(2))
    elite = EliteGame(NAMES[:2], {}, cards=F1)
    elite.sample_chance(random.Random(2))
    for game in (disney, elite):
        again, count = record.replay(record.dumps(game))
        assert type(again) is type(game) and count == len(game.events)
        assert record.summary(again) == record.summary(game) == game.summary()
    with pytest.raises(ValueError, match="without recording"):
        record.dumps(Game("disney", ["Ann", "Ben"], 0, None, record=False))


# ------------------------------------------------------------------ Tinker Bell
def at_her_pick(seed: int = 1) -> Game:
    rng = random.Random(seed)
    g = Game("disney", ["Ann", "Ben", "Cy"], 0, {"target": 500})
    while g.chance_kind() != "tinker_bell":
        if g.current_player() == CHANCE:
            g.sample_chance(rng)
        else:
            g.apply_action(rng.choice(g.legal_actions()))
    return g


def test_every_way_to_her_pick_is_her_outcome_through_apply_action():
    """The tray's colour, a record's event and a colour index make the same game."""
    by_outcome, by_event, by_index = at_her_pick(), at_her_pick(), at_her_pick()
    by_outcome.apply_action(by_outcome.tinker_bell_outcome("green"))
    by_event.apply_event({"chance": "tinker_bell", "colour": "green"})
    by_index.apply_action(A.PICK + C.colour("green"))
    assert by_outcome.record() == by_event.record() == by_index.record()
    assert by_outcome.events[-1] == {"chance": "tinker_bell", "colour": "green"}
    assert by_outcome.tinker_bell_outcome("green") == A.PICK + C.colour("green")


def test_a_pick_that_is_no_colour_of_hers_or_in_a_ruleset_without_her_is_refused():
    g = at_her_pick()
    before = g.record()
    with pytest.raises(RuleError, match="Waiting for Tinker Bell's pick"):
        g.apply_action(A.PICK + 4)
    with pytest.raises(C.CardError, match="unknown colour 'pink'"):
        g.tinker_bell_outcome("pink")
    assert g.record() == before and g.chance_kind() == "tinker_bell"
    classic = Game("classic", ["Ann", "Ben"], 0, {"target": 500})
    classic.sample_chance(random.Random(1))
    with pytest.raises(RecordError) as caught:
        record.replay(classic.record() + json.dumps({"chance": "tinker_bell", "colour": "red"}))
    assert caught.value.rule == "tinker-bell" and "no Tinker Bell" in str(caught.value)
