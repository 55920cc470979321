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
from engine.disney.game import Game
from engine.disney.rulesets import RULESETS
from engine.elite import EliteGame, parse_cards
from engine.errors import RuleError
from engine.protocol import (
    CHANCE,
    PROTOCOL_FEATURES,
    TERMINAL,
    GameState,
    ScoreSheet,
    TinkerBellTray,
    score_sheet,
    tinker_bell,
)
from tests.engine.elite.helpers import CARDS, DYNASTY_ROWS

MEMBERS = sorted(name for name in vars(GameState) if not name.startswith("_"))
CONTRACT = {
    "players", "events", "apply_event", "header", "winner", "chance_kind", "features",
    "describe", "current_player", "legal_actions", "apply_action", "chance_outcomes",
    "apply_listed",  # the engine's own policies: an action just listed, not listed again
    "sample_chance", "interjections", "observation", "record", "is_terminal", "clone",
    "determinise", "hints",  # what the one set of bots and the one search bot play by
    "header_ready",
    "recording", "summary",  # the one record module's (engine.record: dumps, summary)
}  # fmt: skip
DYNASTY_DECK = parse_cards("\n".join(DYNASTY_ROWS), "dynasty deck")
ELITE_MODES = {
    "quick": {"mode": "quick", "box": "all"},
    "draft": {"mode": "draft", "box": "all"},
    "dynasty": {"mode": "dynasty", "decks": [DYNASTY_DECK] * 3},
}


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
            "recording",
        ):
            assert callable(getattr(state, member)), member
    assert all(isinstance(f, str) and f for f in state.features)
    for feature, protocol in (("points", "finished_hands"), ("tinker_bell", "tinker_bell_card")):
        assert (feature in state.features) <= hasattr(state, protocol)  # declared: implemented
    assert {"points", "tinker_bell", "smackdown"} == PROTOCOL_FEATURES
    assert all(callable(getattr(state.hints, name)) for name in ("act", "interject", "playout"))


def play_through_the_protocol(
    state: GameState,
    rng: random.Random,
    moves: int,
    probe: Callable[[GameState], object] | None = None,
    trusted: bool = False,
) -> int:
    """Random play through the protocol alone; how many listed chance outcomes were taken.
    `probe` looks at every state a player acts in, before the move; `trusted`: the players'
    moves and calls, taken from the listings, go through `apply_listed`."""
    listed = 0
    apply = state.apply_listed if trusted else state.apply_action
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
        if probe is not None:
            probe(state)
        calls = state.interjections()
        if calls and rng.random() < 0.3:
            seat, action = rng.choice(calls)
            apply(action, seat)
            continue
        seen = state.observation(who)
        legal = state.legal_actions()
        shown = {m["action"] for m in seen["legal"] if not m["out_of_turn"]}
        assert shown <= set(legal)  # what the seat is shown
        apply(rng.choice(legal))
    return listed


def replay(state: GameState) -> GameState:
    """A new state from the record's header, every event applied through `apply_event`."""
    lines = state.record().splitlines()
    header = json.loads(lines[0])
    again = record.game_from_header(header)
    for line in lines[1:]:
        again.apply_event(json.loads(line))
    return again


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_played_through_the_protocol_replays_from_its_record(name):
    rng = random.Random(name)
    state = GAMES[name]()
    listed = play_through_the_protocol(state, rng, 600)
    assert listed > 0  # every ruleset's orders of cards list their next card
    again = replay(state)
    assert again.record() == state.record()
    assert again.observation(None) == state.observation(None)
    for seat in range(len(state.players)):
        assert again.observation(seat) == state.observation(seat)
    assert state.observation(None)["hand"] == []  # a spectator sees nobody's cards


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_action_just_listed_does_through_apply_listed_what_it_does_checked(name):
    """The engine's own policies skip the second listing (`apply_listed`); the game, its
    record and every seat's view come out the same as through `apply_action`."""
    checked, trusted = GAMES[name](), GAMES[name]()
    play_through_the_protocol(checked, random.Random(name), 400)
    play_through_the_protocol(trusted, random.Random(name), 400, trusted=True)
    assert trusted.record() == checked.record()
    for seat in [None, *range(len(checked.players))]:
        assert trusted.observation(seat) == checked.observation(seat)


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
    from engine.disney import actions as A
    from engine.disney.rulesets import RULESETS

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


def step(state: GameState, rng: random.Random) -> None:
    """One random step through the protocol (chance by `sample_chance`)."""
    if state.current_player() == CHANCE:
        state.sample_chance(rng)
    else:
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_header_kept_once_it_is_ready_replays_the_game(name):
    """A journal keeps a game's header once `header_ready`: that header, with every event
    since, rebuilds the game (a Disney game's header is ready with its first deal)."""
    rng = random.Random(name)
    state = GAMES[name]()
    chance_first = 0
    while not state.header_ready():
        assert state.current_player() == CHANCE and chance_first < 3
        state.sample_chance(rng)
        chance_first += 1
    assert chance_first == (0 if "lineups" in state.features else 1)
    header, kept = state.header(), len(state.events)
    for _ in range(200):
        if state.is_terminal():
            break
        step(state, rng)
    assert state.header() == header
    again = record.game_from_header(header)
    for event in state.events[kept:]:
        again.apply_event(event)
    assert again.observation(None) == state.observation(None)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_finished_hands_are_the_score_sheets_hands_where_there_are_points(name):
    rng = random.Random(name)
    state = GAMES[name]()
    n = len(state.players)
    for _ in range(3000):
        if state.is_terminal():
            break
        step(state, rng)
    sheet = score_sheet(state)
    if sheet is None:
        assert "points" not in state.features
        return
    hands = sheet.finished_hands()
    shown = state.observation(None)["hands"]  # the hands every seat sees on the sheet
    assert (
        [x["hand"] for x in hands] == [x["hand"] for x in shown] == list(range(1, len(hands) + 1))
    )
    assert [state.players[x["winner"]] for x in hands] == [x["winner"] for x in shown]
    assert len(hands) > 0 and all(len(x["held"]) == n for x in hands)
    hands[0]["held"].append(99)  # a copy: the game's own sheet is not changed through it
    assert len(sheet.finished_hands()[0]["held"]) == n


@pytest.mark.parametrize("name", sorted(GAMES))
def test_tinker_bell_answers_the_card_played_and_her_pick_is_a_chance_outcome(name):
    """With "tinker_bell": while she is awaited, the card she answers is the top card and the
    seat that played it; her colour is one of the chance outcomes, recorded as her pick. A
    ruleset without her has no tray to ask (`tinker_bell` is None), and never waits for her."""
    rng = random.Random(name)
    state = GAMES[name]()
    tray = tinker_bell(state)
    picks = 0
    for _ in range(1500):
        if state.is_terminal():
            break
        if state.chance_kind() != "tinker_bell":
            assert tray is None or tray.tinker_bell_card() is None
            step(state, rng)
            continue
        assert tray is not None and "tinker_bell" in state.features
        card, seat = tray.tinker_bell_card()
        assert state.observation(None)["top"]["code"] == card
        last = state.events[-1]
        if last.get("act") == "play":
            assert (last["card"], last["seat"]) == (card, seat)
        colour = rng.choice(["red", "blue", "green", "yellow"])
        outcome = tray.tinker_bell_outcome(colour)
        assert outcome in [a for a, _ in state.chance_outcomes()]
        state.apply_action(outcome)
        assert state.events[-1] == {"chance": "tinker_bell", "colour": colour}
        picks += 1
    assert ("tinker_bell" in state.features) == (picks > 0) == (tray is not None)
    if tray is None and hasattr(state, "tinker_bell_outcome"):  # the Disney family's classic ...
        with pytest.raises(RuleError, match="Tinker Bell"):
            state.tinker_bell_outcome("red")


def test_a_feature_brings_its_own_small_protocol_and_the_game_protocol_knows_none():
    """The score sheet's and the tray's members are theirs, not every game's: UNO Elite, which
    declares neither, has none of them."""
    assert {n for n in vars(ScoreSheet) if not n.startswith("_")} == {"finished_hands"}
    assert {n for n in vars(TinkerBellTray) if not n.startswith("_")} == {
        "tinker_bell_card",
        "tinker_bell_outcome",
    }
    elite = GAMES["elite-quick"]()
    assert score_sheet(elite) is None and tinker_bell(elite) is None
    assert not any(hasattr(elite, n) for n in ("finished_hands", "tinker_bell_card"))
