"""Every ruleset's observation has one shape (`engine.observation`), asked through the protocol
alone, so one renderer in the page and one in the terminal draw any game: at every point of
random games, for every seat and a spectator, the same keys, the same keys of every legal action
and card, and `legal` exactly what the seat may do (its turn's actions and its calls)."""

from __future__ import annotations

import json
import random

import pytest

from engine import registry
from engine.observation import CARD_KEYS, KEYS, MOVE_KEYS
from engine.protocol import CHANCE, GameState
from tests.engine.elite.helpers import DECK, F1

RULESETS = ["disney", "classic", "official-2018", "elvis", "elite"]
STEPS = 120


def a_game(ruleset: str, players: int) -> GameState:
    names = [f"P{s}" for s in range(players)]
    files = {"cards": F1, "deck": DECK}  # (what a ruleset reads no file for, it ignores)
    inputs = {f.name: files[f.name] for f in registry.get(ruleset).inputs if f.name in files}
    return registry.new_game(ruleset, names, 0, None, inputs)


def check(game: GameState, seat: int | None) -> None:
    view = game.observation(seat)
    assert set(view) >= KEYS, KEYS - set(view)
    json.dumps(view)
    acting = game.current_player()
    assert view["seat"] == seat
    assert view["to_move"] == (acting if acting >= 0 else None)
    assert isinstance(view["prompt"], str) and view["prompt"]
    assert view["direction"] in ("left", "right")
    assert isinstance(view["uno_call"], bool)
    assert [p["seat"] for p in view["players"]] == list(range(len(game.players)))
    assert all({"seat", "name", "cards"} <= set(p) for p in view["players"])
    for card in [*view["hand"], *([view["top"]] if view["top"] else [])]:
        assert set(card) >= CARD_KEYS, card
    for move in view["legal"]:
        assert set(move) - {"elite"} == MOVE_KEYS, move
        assert isinstance(move["words"], str) and move["words"]
        assert move["card"] is None or isinstance(move["card"], str)
    may = set(game.legal_actions()) if seat is not None and acting == seat else set()
    calls = {a for s, a in game.interjections() if s == seat} if acting != CHANCE else set()
    legal = view["legal"]
    assert {m["action"] for m in legal if not m["out_of_turn"]} == may
    assert {m["action"] for m in legal if m["out_of_turn"]} == calls - may
    assert [c["a"] for c in view["calls"]] == [m["action"] for m in legal if m["out_of_turn"]]
    if seat is None:
        assert view["hand"] == view["legal"] == []


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("seed", [1, 2])
def test_every_rulesets_observation_has_the_one_shape_for_every_seat(ruleset, seed):
    rng = random.Random(seed)
    game = a_game(ruleset, 3)
    for _ in range(STEPS):
        if game.is_terminal():
            break
        if game.current_player() == CHANCE:
            game.sample_chance(rng)
            continue
        for seat in (None, *range(len(game.players))):
            check(game, seat)
        calls = game.interjections()
        if calls and rng.random() < 0.3:
            seat, action = rng.choice(calls)
            game.apply_action(action, seat)
        else:
            game.apply_action(rng.choice(game.legal_actions()))
