"""Every ruleset's game is played through `engine.protocol.GameState` alone: who acts, the
legal actions, chance (listed outcomes through `apply_action`, the rest by `sample_chance`),
interjections, a seat's observation, and a record that replays, event by event through
`apply_event`, to the same state. UNO Elite is one more ruleset here, in each of its modes."""

import json
import random
from collections.abc import Callable

import pytest

from engine import record
from engine.bots import make
from engine.elite import EliteGame, parse_cards
from engine.elite import record as elite_record
from engine.game import Game
from engine.protocol import CHANCE, FEATURES, TERMINAL, GameState
from engine.rulesets import RULESETS
from tests.engine.elite.helpers import CARDS, DYNASTY_ROWS

MEMBERS = sorted(name for name in vars(GameState) if not name.startswith("_"))
CONTRACT = {
    "players", "events", "apply_event", "header", "winner", "chance_kind", "features",
    "describe", "current_player", "legal_actions", "apply_action", "chance_outcomes",
    "sample_chance", "interjections", "observation", "record", "is_terminal", "clone",
    "determinise", "hints",  # what the one set of bots and the one search bot play by
}  # fmt: skip
DYNASTY_DECK = parse_cards("\n".join(DYNASTY_ROWS), "dynasty deck")
ELITE_MODES = {
    "quick": {"mode": "quick", "box": "all"},
    "draft": {"mode": "draft", "box": "all"},
    "dynasty": {"mode": "dynasty", "decks": [DYNASTY_DECK] * 3},
}
FROM_HEADER: dict[str, Callable[[dict], GameState]] = {"elite": elite_record.game_from_header}


def every_game() -> dict[str, Callable[[], GameState]]:
    games: dict[str, Callable[[], GameState]] = {
        name: (lambda name=name: Game(name, ["a", "b", "c"], 0, {"target": 100}))
        for name in sorted(RULESETS)
    }
    for mode, options in ELITE_MODES.items():
        games[f"elite-{mode}"] = lambda options=options: EliteGame(
            ["a", "b", "c"], options, cards=CARDS
        )
    return games


GAMES = every_game()


def test_the_protocol_is_the_contract():
    assert set(MEMBERS) == CONTRACT


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_has_every_member_of_the_protocol(name):
    state = GAMES[name]()
    assert {m for m in MEMBERS if not hasattr(state, m)} == set()
    for member in MEMBERS:
        if member not in (
            "players",
            "events",
            "features",
            "winner",
            "hints",
        ):
            assert callable(getattr(state, member)), member
    assert state.features <= FEATURES
    assert all(callable(getattr(state.hints, name)) for name in ("act", "interject", "playout"))


def play_through_the_protocol(state: GameState, rng: random.Random, moves: int) -> int:
    """Random play through the protocol alone; how many listed chance outcomes were taken."""
    listed = 0
    for _ in range(moves):
        who = state.current_player()
        if who == TERMINAL:
            break
        if who == CHANCE:
            outcomes = state.chance_outcomes()
            if outcomes and rng.random() < 0.9:
                state.apply_action(rng.choice(outcomes)[0])
                listed += 1
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
    return listed


def replay(state: GameState) -> GameState:
    """A new state from the record's header, every event applied through `apply_event`."""
    lines = state.record().splitlines()
    header = json.loads(lines[0])
    again = FROM_HEADER.get(header["ruleset"], record.game_from_header)(header)
    for line in lines[1:]:
        again.apply_event(json.loads(line))
    return again


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_played_through_the_protocol_replays_from_its_record(name):
    rng = random.Random(name)
    state = GAMES[name]()
    listed = play_through_the_protocol(state, rng, 600)
    assert (name != "elite-draft" and name != "elite-dynasty") or listed > 0
    again = replay(state)
    assert again.record() == state.record()
    assert again.observation(None) == state.observation(None)
    for seat in range(len(state.players)):
        assert again.observation(seat) == state.observation(seat)
    assert state.observation(None)["hand"] == []  # a spectator sees nobody's cards


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_clone_plays_on_alone(name):
    rng = random.Random(name)
    state = GAMES[name]()
    play_through_the_protocol(state, rng, 40)
    before = state.observation(None)
    twin = state.clone()
    play_through_the_protocol(twin, rng, 40)
    assert state.observation(None) == before


@pytest.mark.parametrize("name", sorted(GAMES))
def test_one_set_of_bots_plays_every_ruleset_through_the_protocol(name):
    """Random, greedy (by the ruleset's hints) and search bots: each answer is legal."""
    rng = random.Random(name)
    state = GAMES[name]()
    players = make(["search:6", "greedy", "random"], 3, rng)
    for _ in range(150):
        who = state.current_player()
        if who == TERMINAL:
            break
        if who == CHANCE:
            state.sample_chance(rng)
            continue
        offered = state.interjections()
        seats = {seat for seat, _ in offered}
        called = False
        for seat in sorted(seats):
            options = [a for s, a in offered if s == seat]
            action = players[seat].interject(state, seat, options)
            assert action is None or action in options
            if action is not None:
                state.apply_action(action, seat)
                called = True
                break
        if called:
            continue
        action = players[who].act(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert len(state.events) > 10


def test_a_disney_engine_ruleset_declares_tinker_bell_only_where_a_card_calls_her():
    from engine import actions as A
    from engine.rulesets import RULESETS

    declared = {name: Game(name, ["Ann", "Ben"]).features for name in RULESETS}
    assert declared == {
        "disney": frozenset({"tinker_bell", "points"}),
        "classic": frozenset({"points"}),
        "official-2018": frozenset({"points"}),
        "elvis": frozenset({"points"}),
    }
    game = Game("disney", ["Ann", "Ben"])
    assert game.describe(A.CATCH + 1) == "catch Ben without UNO"
    assert game.describe(A.play(0x13)) == "play Blue 3"
