"""Invariants over random play (hypothesis): cards accounted for, only legal actions offered, a
refused action changes nothing, replays reproduce every state, games terminate; for every ruleset
and every combination of its options (hypothesis draws the combinations)."""

import json
import random
from collections import Counter
from collections.abc import Callable, Container, Iterable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import record
from engine.bots import chance_order, make, offer_calls
from engine.disney import actions as A
from engine.disney import cards as C
from engine.disney.game import Game
from engine.disney.hand import RuleError
from engine.disney.rulesets import RULESETS
from engine.protocol import CHANCE, TERMINAL, GameState
from tests.helpers import examples

OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "draw_when_playable": st.booleans(),
        "must_play_drawn": st.booleans(),
        "villain_draw4_skips_next": st.booleans(),
        "villain_draw4_may_take": st.booleans(),
        "renege_test": st.sampled_from(["colour", "playable"]),
        "scoring": st.sampled_from(["standard", "lowest", "challenge"]),
        "target": st.integers(50, 300),
    },
)
HOUSE = {
    "stacking": st.sampled_from(["none", "same", "mixed"]),
    "seven_o": st.booleans(),
    "jump_in": st.booleans(),
    "keep_drawing": st.booleans(),
    "six_smackdown": st.booleans(),
}
DRAW4 = {
    "draw_when_playable": st.booleans(),
    "must_play_drawn": st.booleans(),
    "renege_test": st.sampled_from(["colour", "matching", "playable"]),
    "scoring": st.sampled_from(["standard", "lowest", "challenge"]),
    "target": st.integers(50, 200),
    **HOUSE,
}
RULESET_OPTIONS = {
    "disney": OPTIONS,
    "classic": st.fixed_dictionaries({}, optional=DRAW4),
    "official-2018": st.fixed_dictionaries(
        {},
        optional={
            **DRAW4,
            "wild_customizable": st.sampled_from(["wild", "swap_hands", "shuffle_hands"]),
        },
    ),
    "elvis": st.fixed_dictionaries({}, optional={k: v for k, v in DRAW4.items() if k not in HOUSE}),
}
PROBES = [
    A.DRAW,
    A.PASS,
    A.DONE,
    A.TAKE,
    A.UNO,
    A.CHALLENGE,
    A.COLOUR + 1,
    A.TARGET + 0,
    A.CATCH + 1,
    A.SLAP + 1,
    A.play(0),
    A.play(64, 2, True),
    A.protect(5),
    A.discard(20),
    A.play(C.WILD_DRAW4, 1),
    A.play(C.WILD_SHUFFLE_HANDS, 3),
    A.TARGET + 1,
    A.FLIP,
    A.CARD_NEXT + 1,  # a chance outcome (the next card of an order), no player's move
]

STEP_LIMIT = 60_000


def snapshot(g: Game):
    return (
        g.summary(),
        Counter(g.hand.all_cards()) if g.hand else None,
        len(g.events),
        g.sheet,
        tuple(g.interjections()),
    )


def play_checked(seed: int, players: int, options: dict, deep_every: int, ruleset="disney"):
    rng = random.Random(seed)
    g = Game(ruleset, [f"p{i}" for i in range(players)], seed % players, options)
    g.start_hand(g.shuffled_deck(rng))
    bots = make(["random", "greedy"], players, rng)
    deck = Counter(g.rules.deck)
    states = [g.summary()]
    steps = 0
    while not g.is_terminal():
        steps += 1
        assert steps < STEP_LIMIT, "the game did not terminate"
        h = g.hand
        assert Counter(h.all_cards()) == deck  # every card accounted for
        if g.is_chance_node():
            g.sample_chance(rng)
        else:
            legal = g.legal_actions()
            assert legal, "a player to move must have something to do"
            if steps % deep_every == 0:
                for action in legal:  # every offered action is legal
                    g.clone().apply_action(action)
                for seat, action in g.interjections():
                    g.clone().apply_action(action, seat)
                # anything else is refused and changes nothing
                assert_refused(g, PROBES, legal, snapshot, "but not offered")
                offered = set(g.interjections())
                for pos, held in enumerate(h.hands):  # out of turn: only what is offered
                    seat = h.seats[pos]
                    for card in set(held):
                        if pos == h.to_move or (seat, A.play(card)) in offered:
                            continue
                        before = snapshot(g)
                        try:
                            g.apply_action(A.play(card), seat)
                        except RuleError:
                            assert snapshot(g) == before
                        else:
                            raise AssertionError(f"seat {seat} played {C.name(card)} out of turn")
            if h.catchable or h.challengeable():
                offer_calls(g, bots, chance_order(rng))
                states.append(g.summary())
                if g.is_chance_node() or g.is_terminal():
                    continue
            g.apply_action(bots[g.current_player()].act(g))
        states.append(g.summary())
    return g, states


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 10), options=OPTIONS)
def test_random_games_keep_every_invariant(seed, players, options):
    if players != 4:
        options.pop("partners", None)
    g, _ = play_checked(seed, players, options, deep_every=7)
    assert g.sheet.winner is not None


@settings(max_examples=examples(15), deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), options=OPTIONS)
def test_replay_reproduces_every_state(seed, players, options):
    options["target"] = min(options.get("target", 60), 60)
    g, states = play_checked(seed, players, options, deep_every=10_000)
    assert_replay_reproduces(g, states)


def assert_replay_reproduces(g, states):
    """Replay `g`'s record event by event: every state seen is one the game passed through, and
    the last is the game's own (events are coarser than actions: a discard event holds
    several, so the two are compared as sequences)."""
    lines = record.dumps(g).splitlines()
    replayed = record.game_from_header(json.loads(lines[0]))
    seen = [replayed.summary()]
    for line in lines[1:]:
        replayed.apply_event(json.loads(line))
        seen.append(replayed.summary())
    assert seen[-1] == states[-1]
    assert all(s in states for s in seen)


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    ruleset=st.sampled_from(["classic", "official-2018", "elvis"]),
    seed=st.integers(0, 2**32),
    players=st.integers(2, 10),
)
def test_every_ruleset_and_option_combination_keeps_every_invariant(data, ruleset, seed, players):
    options = data.draw(RULESET_OPTIONS[ruleset])
    g, _ = play_checked(seed, players, options, deep_every=7, ruleset=ruleset)
    assert g.sheet.winner is not None


@settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    ruleset=st.sampled_from(["classic", "official-2018", "elvis"]),
    seed=st.integers(0, 2**32),
    players=st.integers(2, 6),
)
def test_every_ruleset_replay_reproduces_every_state(data, ruleset, seed, players):
    options = data.draw(RULESET_OPTIONS[ruleset])
    options["target"] = min(options.get("target", 60), 60)
    g, states = play_checked(seed, players, options, deep_every=10_000, ruleset=ruleset)
    assert json.loads(record.dumps(g).splitlines()[0])["ruleset"] == ruleset
    assert_replay_reproduces(g, states)


@settings(max_examples=examples(10), deadline=None)
@given(seed=st.integers(0, 2**32))
def test_partner_games_keep_every_invariant(seed):
    g, _ = play_checked(seed, 4, {"partners": True, "target": 200}, deep_every=9)
    assert isinstance(g.sheet.winner, tuple)


@settings(max_examples=examples(4), deadline=None)
@given(seed=st.integers(0, 2**32))
def test_elvis_partners_rotation_keeps_every_invariant(seed):
    options = {"partners_rotation": True, "draw_when_playable": False}
    g, _ = play_checked(seed, 4, options, deep_every=9, ruleset="elvis")
    assert len(g.history) == 12 and g.sheet.winner is not None


# ---------------------------------------------------------------- through the protocol alone
def seen(state: GameState) -> tuple:
    """What the protocol shows of a state: a spectator's observation, the record's events so
    far (the record itself is written from them) and the calls out of turn."""
    return (
        json.dumps(state.observation(None), sort_keys=True),
        json.dumps(state.events, sort_keys=True),
        tuple(state.interjections()),
    )


def assert_every_card_is_accounted_for(state: GameState, deck_size: int, seats: bool) -> None:
    public = state.observation(None)
    if public["top"] is None:  # (before the first deal)
        return
    counts = [p["cards"] for p in public["players"]]
    assert sum(counts) + public["draw_pile"] + public["discard_pile"] == deck_size
    if seats and state.current_player() >= 0:  # each seat sees its own cards, all of them
        assert [len(state.observation(s)["hand"]) for s in range(len(counts))] == counts


def chance_seen(state: GameState) -> tuple:
    """`seen` at a chance node, with its outcomes (the cards placed so far decide them), and
    only the record's latest events (chance nodes are many: all of it each time costs too much)."""
    return (
        json.dumps(state.observation(None), sort_keys=True),
        len(state.events),
        json.dumps(state.events[-2:], sort_keys=True),
        tuple(state.interjections()),
        tuple(state.chance_outcomes()),
    )


def probe_chance_node(state: GameState, rng: random.Random, outcomes: list) -> None:
    """At a chance node (an order of cards perhaps half placed), an action it does not list is
    refused and changes nothing, the cards placed so far included."""
    probes = [*rng.sample(PROBES, 2), A.CARD_NEXT + rng.randrange(C.NCARDS)]
    assert_refused(state, probes, {a for a, _ in outcomes}, chance_seen, "at a chance node")


def assert_refused(
    state: Any, probes: Iterable[int], offered: Container[int], look: Callable, where: str
) -> None:
    """Each probe not `offered` is refused with a RuleError, and `look(state)` is unchanged."""
    for probe in probes:
        if probe in offered:
            continue
        before = look(state)
        try:
            state.apply_action(probe)
        except RuleError:
            assert look(state) == before
        else:
            raise AssertionError(f"{A.describe(probe)} was accepted {where}")


def play_through_the_protocol(state: GameState, rng: random.Random, deck_size: int) -> None:
    """A whole game by the protocol's members only, the invariants checked as it goes."""
    for step in range(STEP_LIMIT):
        if step % 10 == 0:  # (an observation reads the whole log: not every step)
            assert_every_card_is_accounted_for(state, deck_size, seats=step % 50 == 0)
        who = state.current_player()
        if who == TERMINAL:
            return
        if who == CHANCE:
            outcomes = state.chance_outcomes()
            if step % 10 == 5:
                probe_chance_node(state, rng, outcomes)
            if outcomes:
                state.apply_action(rng.choice(outcomes)[0])
            else:
                state.sample_chance(rng)
            continue
        legal = state.legal_actions()
        assert legal, "a player to move must have something to do"
        if step % 10 == 5:  # not offered: refused, changing nothing
            assert_refused(state, rng.sample(PROBES, 2), legal, seen, "but not offered")
        calls = state.interjections()
        if calls and rng.random() < 0.3:
            seat, action = rng.choice(calls)
            state.apply_action(action, seat)
            continue
        state.apply_action(rng.choice(legal))
    raise AssertionError("the game did not terminate")


@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    ruleset=st.sampled_from(sorted(RULESETS)),
    seed=st.integers(0, 2**32),
    players=st.integers(2, 6),
)
def test_every_ruleset_keeps_the_invariants_through_the_protocol(data, ruleset, seed, players):
    options = data.draw(RULESET_OPTIONS[ruleset])
    options.pop("partners", None)
    options["target"] = min(options.get("target", 60), 60)
    rng = random.Random(seed)
    state: GameState = Game(ruleset, [f"p{i}" for i in range(players)], seed % players, options)
    play_through_the_protocol(state, rng, len(RULESETS[ruleset].deck))
    replayed, _count = record.replay(state.record())
    assert replayed.summary() == state.summary()
