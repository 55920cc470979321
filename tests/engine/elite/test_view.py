"""What a seat sees (the contract with digital play): its own hand, every Lineup, nothing else."""

from __future__ import annotations

import json
import random

from engine.elite import EliteGame
from engine.elite.hints import greedy_bot
from tests.engine.elite.helpers import F1, NAMES, elite, new_game, pick, play, table

KEYS = {
    "ruleset",
    "mode",
    "players",
    "to_move",
    "phase",
    "prompt",
    "top",
    "colour",
    "direction",
    "draw_pile",
    "discard_pile",
    "seats",
    "winner",
    "log",
}


def test_a_seat_sees_its_hand_every_lineup_and_its_legal_actions_in_words():
    game = new_game(3)
    view = game.observation(0)
    assert KEYS | {"hand", "legal"} <= set(view) and view["ruleset"] == "elite"
    assert [c["code"] for c in view["hand"]] == [c.code for c in game.hands[0]]
    assert [len(s["lineup"]) for s in view["seats"]] == [3, 3, 3]
    assert view["seats"][1]["hand_count"] == 7 and view["seats"][1]["player_deck"] == 5
    assert {x["action"] for x in view["legal"]} == set(game.legal_actions(0))
    assert all(isinstance(x["words"], str) and x["words"] for x in view["legal"])
    assert game.observation(1)["legal"] == []
    json.dumps(view)


def test_the_public_view_has_no_hand_and_no_legal_actions():
    game = new_game(4)
    view = game.observation(None)
    assert set(view) == KEYS | {"seat", "hand", "legal", "uno_call", "calls", "panels", "seen"}
    assert view["hand"] == view["legal"] == view["calls"] == view["seen"] == []
    other_codes = {c.code for s in range(4) for c in game.hands[s]} - {game.top.code}
    text = json.dumps({k: v for k, v in view.items() if k != "log"})
    assert not any(f'"code": "{code}"' in text for code in other_codes if code != game.top.code)


def test_no_seat_ever_sees_another_seats_hand_in_a_whole_game():
    game = EliteGame(NAMES[:3], {"mode": "draft"}, cards=F1)
    rng = random.Random(8)
    while not game.is_terminal():
        if game.is_chance_node():
            game.sample_chance(rng)
            continue
        for seat in range(3):
            view = game.observation(seat)
            assert [c["code"] for c in view["hand"]] == [c.code for c in game.hands[seat]]
            assert ("peeked" in view) == bool(game.peeks[seat])
        seat = game.current_player()
        game.apply_action(greedy_bot(game, seat, rng), seat)


def test_the_prompt_says_what_is_being_chosen():
    game = table(hands={0: ["r3e", "g1", "g2"]}, top="r5")
    game.lineups[0] = [elite("T06-red")]
    assert game.observation(0)["prompt"] == "Your move: play a card (or draw)."  # as Disney's
    assert game.observation(1)["prompt"] == f"{game.players[0]} to play a card (or draw)."
    assert game.observation(None)["prompt"] == f"{game.players[0]} to play a card (or draw)."
    game.apply_action(play(game, "r3e"))
    assert game.observation(0)["prompt"].startswith("Your move: activate")
    words = {x["words"] for x in game.observation(0)["legal"]}
    assert "activate Tester Draw Target (red)" in words and "do not activate" in words
    game.apply_action(pick(game, "T06-red"))
    assert game.observation(0)["prompt"] == "Your move: choose the player for Draw 3, Target."
    assert "make Ben draw 3" in {x["words"] for x in game.observation(0)["legal"]}


def test_bots_answer_for_a_seat_out_of_turn_with_a_call():
    from engine.elite import actions as A

    game = table(hands={0: ["r3", "g1"], 1: ["b1", "b2"]}, top="r5")
    game.apply_action(play(game, "r3"))
    rng = random.Random(0)
    assert greedy_bot(game, 0, rng) == A.UNO  # its own UNO first, even to move... or not
    assert greedy_bot(game, 2, rng) == A.CATCH + 0
    assert game.legal_actions(2) == [A.CATCH + 0]  # its only legal action
    game.apply_action(A.UNO, 0)
    try:
        greedy_bot(game, 2, rng)
    except Exception as exc:
        assert getattr(exc, "rule", None) == "turn"
    else:
        raise AssertionError("a bot with no move answered")


def test_the_greedy_bot_plays_for_its_lineup_and_activates_it():
    from engine.elite import actions as A

    game = table(hands={0: ["r3", "r4e", "ew", "g1"]}, top="r5")
    game.lineups[0] = [elite("T06-red"), elite("T01-blue")]
    rng = random.Random(0)
    assert greedy_bot(game, 0, rng) == play(game, "r4e")  # the card that activates, not the wild
    game.apply_action(play(game, "r4e"))
    assert greedy_bot(game, 0, rng) == pick(game, "T06-red")
    game.apply_action(pick(game, "T06-red"))
    fewest = min((1, 2), key=lambda s: len(game.hands[s]))
    assert greedy_bot(game, 0, rng) == A.TARGET + fewest


def test_each_legal_action_names_its_kind_and_the_card_it_plays_or_chooses():
    game = table(hands={0: ["r3", "r4e", "ew", "g1"]}, top="r5")
    game.lineups[0] = [elite("T06-red"), elite("T01-blue")]
    moves = game.observation(0)["legal"]
    plays = {m["card"] for m in moves if m["kind"] == "play"}
    assert plays == {"r3", "r4e", "ew"} and {"draw"} <= {m["kind"] for m in moves}
    game.apply_action(play(game, "r4e"))
    [activate] = [m for m in game.observation(0)["legal"] if m["kind"] == "elite"]
    assert activate["elite"]["id"] == "T06-red" and activate["elite"]["powers"] == [
        "Draw 3, Target"
    ]
    assert activate["action"] == pick(game, "T06-red")
