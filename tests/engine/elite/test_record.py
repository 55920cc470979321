"""Elite game records: every choice is an event, the header holds the cards, replay is exact,
and a broken or malformed event is refused with its line."""

from __future__ import annotations

import json
import random

import pytest

from engine import record
from engine.elite import EliteGame
from engine.elite import actions as A
from engine.elite.simulate import play_game
from engine.record import RecordError
from tests.engine.elite.helpers import F1, NAMES, elite, pick, play, table


def _game(mode="quick", seed=3, bots=("greedy", "random", "greedy")) -> EliteGame:
    game = EliteGame(NAMES[:3], {"mode": mode}, cards=F1)
    play_game(game, list(bots), random.Random(seed))
    return game


def _objects(text: str):
    return [(i, json.loads(line)) for i, line in enumerate(text.splitlines(), start=1)]


def test_the_header_holds_the_deck_and_the_cards_of_the_box():
    game = _game()
    header = game.header()
    assert header["ruleset"] == "elite" and header["options"] == {"mode": "quick"}
    assert len(header["deck"]) == 112 and len(header["elite_cards"]) == 101
    assert game.events[0]["chance"] == "deal" and game.events[1]["chance"] == "elite_shuffle"


def test_every_choice_of_an_activation_is_an_event():
    game = table(hands={0: ["r3e", "g1", "g2"]}, top="r5")
    game.lineups[0] = [elite("T06-red")]
    game.apply_action(play(game, "r3e"))
    game.apply_action(pick(game, "T06-red"))
    game.apply_action(A.TARGET + 2)
    assert game.events[-3:] == [
        {"seat": 0, "act": "play", "card": "r3e"},
        {"seat": 0, "act": "activate", "elite": "T06-red"},
        {"seat": 0, "act": "target", "target": 2},
    ]


@pytest.mark.parametrize("mode", ["quick", "draft"])
def test_a_record_replays_byte_for_byte(mode):
    game = _game(mode)
    text = record.dumps(game)
    again, count = record.replay_objects(_objects(text))
    assert count == len(game.events) and record.dumps(again) == text
    assert record.summary(again)["winner"] == game.winner is not None


def test_an_event_out_of_turn_stops_the_replay_with_its_line_and_rule():
    text = record.dumps(_game())
    lines = text.splitlines()
    first_play = next(i for i, x in enumerate(lines) if '"act": "play"' in x)
    event = json.loads(lines[first_play])
    event["seat"] = (event["seat"] + 1) % 3
    lines[first_play] = json.dumps(event)
    with pytest.raises(RecordError) as caught:
        record.replay_objects(_objects("\n".join(lines)))
    assert caught.value.line == first_play + 1 and caught.value.rule == "turn"
    assert caught.value.event == first_play
    assert caught.value.game.current_player() == json.loads(text.splitlines()[first_play])["seat"]


@pytest.mark.parametrize(
    "event, message",
    [
        ({"seat": 0, "act": "fly"}, "unknown act 'fly'"),
        ({"act": "draw"}, "integer 'seat'"),
        ({"seat": 0, "act": "play", "card": "r99"}, "no UNO card 'r99'"),
        ({"seat": 0, "act": "activate", "elite": "999-red"}, "no Elite Action Card '999-red'"),
        ({"chance": "reshuffle", "deck": []}, "a reshuffle event came where the game waits"),
        ({"seat": 0, "act": "colour", "colour": "pink"}, "'colour' must be one of"),
    ],
)
def test_a_malformed_event_is_refused_with_its_line(event, message):
    lines = record.dumps(_game()).splitlines()[:3]
    with pytest.raises(RecordError) as caught:
        record.replay_objects(_objects("\n".join([*lines, json.dumps(event)])))
    assert caught.value.line == 4 and message in str(caught.value)


def test_an_act_that_is_not_the_one_the_game_waits_for_is_refused():
    game = table(hands={0: ["r3e", "g1", "g2"], 1: ["b1", "b2"]}, top="r5")
    game.lineups[0] = [elite("T11-red")]
    game.apply_action(play(game, "r3e"))
    game.apply_action(pick(game, "T11-red"))
    with pytest.raises(Exception, match="waits for 'discard', not 'recover'"):
        game.apply_event({"seat": 1, "act": "recover", "card": "b1"})
    game.apply_event({"seat": 1, "act": "discard", "card": "b1"})
    assert [c.code for c in game.hands[1]] == ["b2"]


@pytest.mark.parametrize(
    "change, message",
    [
        ({"format": "x"}, "not a game record"),
        ({"deck": ["r3", "zz"]}, "unknown UNO card 'zz'"),
        ({"elite_cards": ["001\tA\tdriver\tred\tJump"]}, "header, line 1: unknown icon"),
        ({"players": "Ann"}, "'players' must be a list"),
    ],
)
def test_a_bad_header_is_refused_on_line_1(change, message):
    header = {**_game().header(), **change}
    with pytest.raises(RecordError) as caught:
        record.replay_objects([(1, header)])
    assert caught.value.line == 1 and message in str(caught.value)
