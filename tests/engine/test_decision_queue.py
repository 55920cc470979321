"""The Disney family's decision is the head of its one queue of steps (`HandState.head`), as
UNO Elite's is: whose move it is, the phase and its words, the card the decision is about, are
reads of it, never fields of their own; behind it, only the work still to do.

Random games of every ruleset of the family and every option set (hypothesis draws them), after
every action, chance outcomes and calls out of turn included: the head is one of the phases,
the player to act is its seat, and nothing behind it is a decision (but the one a reshuffle or a
6-Smackdown race interrupted)."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.disney.game import Game
from engine.disney.handstate import HandState
from engine.disney.steps import (
    NOBODY_MOVES,
    OWED,
    PHASE_NAMES,
    RESHUFFLE,
    SMACKDOWN,
    STEP_NAMES,
    phase_words,
)
from engine.protocol import CHANCE, TERMINAL
from tests.engine.test_hand_fields import declared_fields
from tests.engine.test_refusals import FAMILY, family_game
from tests.helpers import examples

HOLDERS = (RESHUFFLE, SMACKDOWN)
"""The steps at the head that hold up a decision (`HandState.hold_head`)."""
DECISION = {"phase", "to_move", "actor", "trigger", "drawn_card", "draw4_reneged"}


def test_what_the_decision_is_about_is_read_of_the_head_never_a_field():
    assert not DECISION & set(declared_fields()) and "head" in declared_fields()
    assert all(hasattr(HandState, name) for name in DECISION)  # (reads: properties)


def assert_the_head_is_the_decision(game: Game) -> None:
    h = game.hand
    if h is None:
        return
    head = h.head
    assert head.kind in PHASE_NAMES, head
    behind = [step.kind for step in h.steps]
    if head.kind in HOLDERS:  # the decision it interrupted waits behind the draws owed
        decisions = [kind for kind in behind if kind in PHASE_NAMES]
        assert all(k == OWED for k in behind[: behind.index(decisions[0])]), (head, behind)
        # one decision held; a reshuffle in a 6-Smackdown race holds the race, which holds it
        assert decisions[-1] not in HOLDERS and all(k in HOLDERS for k in decisions[:-1])
        assert len(decisions) <= (2 if head.kind == RESHUFFLE else 1), (head, behind)
    else:
        assert set(behind) <= set(STEP_NAMES) - {OWED}, (head, behind)  # owed: dealt at once
    assert (h.phase, h.to_move, h.actor, h.trigger) == (
        head.kind,
        head.seat,
        head.subject,
        head.item,
    )
    who = game.current_player()
    if head.kind in NOBODY_MOVES:
        assert who in (CHANCE, TERMINAL)
    else:
        assert who == h.seats[head.seat]
    assert h.waiting_for().startswith(phase_words(head.kind, "x").split("x")[0])


def walk(game: Game, rng: random.Random, moves: int) -> int:
    """Random play, the queue checked after every action; how many actions."""
    assert_the_head_is_the_decision(game)
    for done in range(moves):
        who = game.current_player()
        if who == TERMINAL:
            return done
        calls = game.interjections()
        if who == CHANCE:
            game.sample_chance(rng)
        elif calls and rng.random() < 0.3:
            seat, action = rng.choice(calls)
            game.apply_action(action, seat)
        else:
            game.apply_action(rng.choice(game.legal_actions()))
        assert_the_head_is_the_decision(game)
    return moves


@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), ruleset=FAMILY, seed=st.integers(0, 2**32), players=st.integers(2, 6))
def test_after_every_action_the_head_of_the_queue_is_the_decision(data, ruleset, seed, players):
    game, rng = family_game(data, ruleset, seed, players)
    assert walk(game, rng, 600) > 0
