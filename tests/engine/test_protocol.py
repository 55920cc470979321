"""Every ruleset's game is played through `engine.protocol.GameState` alone: who acts, the
legal actions, chance (listed outcomes through `apply_action`, the rest by `sample_chance`),
interjections, a seat's observation, and a record that replays to the same state."""

import random

import pytest

from engine import record
from engine.game import Game
from engine.protocol import CHANCE, TERMINAL, GameState
from engine.rulesets import RULESETS

MEMBERS = sorted(name for name in vars(GameState) if not name.startswith("_"))


def test_the_game_has_every_member_of_the_protocol():
    assert "apply_action" in MEMBERS and "observation" in MEMBERS
    for name in MEMBERS:
        assert callable(getattr(Game, name)), name


def play_through_the_protocol(state: GameState, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        who = state.current_player()
        if who == TERMINAL:
            break
        if who == CHANCE:
            outcomes = state.chance_outcomes()
            if outcomes:
                state.apply_action(rng.choice(outcomes)[0])
            else:
                state.sample_chance(rng)
            continue
        calls = state.interjections()
        if calls and rng.random() < 0.3:
            seat, action = rng.choice(calls)
            state.apply_action(action, seat)
            continue
        seen = state.observation(who)
        legal = state.legal_actions()
        assert {move["a"] for move in seen["moves"]} <= set(legal)  # what the seat is shown
        state.apply_action(rng.choice(legal))


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_a_game_played_through_the_protocol_replays_from_its_record(ruleset):
    rng = random.Random(ruleset)
    state = Game(ruleset, ["a", "b", "c"], 0, {"target": 100})
    play_through_the_protocol(state, rng, 600)
    replayed, _count = record.replay(state.record())
    assert replayed.summary() == state.summary()
    assert state.observation(None)["hand"] == []  # a spectator sees nobody's cards
