"""The simulation's playout (`simulate.play_hand`) and the step-by-step public API play the same
game for the same seed: the same record, the same state, the same statistics."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import record
from engine.bots import chance_order, make, offer_calls
from engine.disney.game import CHANCE, Game
from engine.disney.simulate import pick, play_hand, shuffle
from tests.engine.test_properties import RULESET_OPTIONS
from tests.helpers import examples

RULESETS = st.sampled_from(sorted(RULESET_OPTIONS))


def step_by_step(game: Game, bots, rng: random.Random) -> int:
    """A hand played through the public API only, drawing from `rng` in the playout's order."""
    decisions = 0
    h = game.dealt()
    while not h.is_over():
        if h.catchable or h.challengeable() or h.variant.jump_in:
            if offer_calls(game, bots, chance_order(rng)):  # (the one policy, through the protocol)
                decisions += 1
            if h.is_over():
                break
        if game.current_player() != CHANCE:
            game.apply_action(bots[game.current_player()].act(game))
            decisions += 1
        elif game.chance_kind() == "tinker_bell":
            outcomes = game.chance_outcomes()
            assert [p for _, p in outcomes] == [0.25] * 4
            game.apply_action(outcomes[pick(rng, len(outcomes))][0])
        elif game.chance_kind() == "smackdown":  # the next hand on the 6 (equally quick bots)
            outcomes = game.chance_outcomes()
            game.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            decisions += 1
        elif game.chance_kind() == "reshuffle":
            pool = h.reshuffle_pool()
            shuffle(pool, rng)
            game.apply_reshuffle(pool)
        else:
            pool = h.shuffle_pool()
            shuffle(pool, rng)
            game.apply_shuffle_hands(pool)
    return decisions


def counters(game: Game) -> dict[str, int]:
    counted = game.dealt().stats.as_dict()
    del counted["decisions"]  # (counted by the playout itself; compared separately)
    return counted


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 6),
    ruleset=RULESETS,
    bots=st.sampled_from([["random"], ["greedy", "random"]]),
    data=st.data(),
)
def test_playout_and_step_by_step_play_the_same_hand(seed, players, ruleset, bots, data):
    options = data.draw(RULESET_OPTIONS[ruleset])
    options.pop("partners", None)
    games = []
    for playout, recording in ((True, True), (True, False), (False, True)):
        rng = random.Random(seed)
        players_bots = make(bots, players, rng)
        game = Game(ruleset, [f"P{s}" for s in range(players)], seed % players, options, recording)
        game.start_hand(game.shuffled_deck(rng), check=False)  # (either shuffle will do)
        if playout:
            decisions = play_hand(game, players_bots, rng)
        else:
            decisions = step_by_step(game, players_bots, rng)
        games.append((game, decisions))
    (fast, fast_decisions), (quiet, quiet_decisions), (slow, slow_decisions) = games
    assert record.dumps(fast) == record.dumps(slow)
    assert fast.summary() == quiet.summary() == slow.summary()
    assert fast.history == quiet.history == slow.history
    assert counters(fast) == counters(quiet) == counters(slow)
    assert fast_decisions == quiet_decisions == slow_decisions
    assert fast.dealt().stats.decisions == fast_decisions
