"""One queue runner in the core (`engine.phases.run`): a kind of step is a decision
(`StepKind`, a player is asked) or work (`Work`, nobody is), and the runner applies the work at
the head of a queue until a decision, chance or the end is at its head. Both rulesets hand it
their work (the Disney family's draws owed and a Villain Draw 4's protections, `hand.WORK`;
UNO Elite's powers, effects, retiring and the turn's end, `flow.WORK`), and after every action
of random games no work is left at the head."""

import random

import pytest

from engine.disney import hand as disney_hand
from engine.disney import steps
from engine.disney.game import Game
from engine.disney.listing import STEP_KINDS
from engine.elite import EliteGame, flow
from engine.elite import steps as S
from engine.phases import Step, Work, run
from tests.engine.elite.helpers import CARDS, NAMES
from tests.engine.test_protocol import play_through_the_protocol


class Tally:
    """A state that counts the work it was given: enough for the runner, which knows none."""

    def __init__(self, allow: bool = True) -> None:
        self.queue: list[Step] = []
        self.done: list[str] = []
        self.allow = allow


def _take(state: Tally, step: Step) -> bool:
    state.queue.pop(0)
    state.done.append(f"{step.kind}{step.seat}")
    return True


def _wait(state: Tally, step: Step) -> bool:
    return False


WORK = {"take": Work("take", _take), "wait": Work("wait", _wait)}


def test_the_runner_applies_work_in_order_until_a_decision_is_at_the_head():
    state = Tally()
    decision = Step("choose", 2)
    state.queue = [Step("take", 0), Step("take", 1), decision, Step("take", 3)]
    assert run(state, state.queue, WORK) is decision
    assert state.done == ["take0", "take1"] and state.queue[0] is decision


def test_work_that_must_wait_stops_the_run_and_stays_at_the_head():
    state = Tally()
    state.queue = [Step("take", 0), Step("wait", 1), Step("take", 2)]
    assert run(state, state.queue, WORK) == Step("wait", 1)
    assert state.done == ["take0"] and len(state.queue) == 2


def test_an_empty_queue_or_a_state_not_ready_stops_it_with_no_head():
    state = Tally(allow=False)
    state.queue = [Step("take", 0)]
    assert run(state, state.queue, WORK, lambda s: s.allow) is None and state.done == []
    state.allow = True
    assert run(state, state.queue, WORK, lambda s: s.allow) is None and state.done == ["take0"]


def test_each_ruleset_hands_its_work_to_the_runner_and_no_kind_is_both():
    assert set(disney_hand.WORK) == {steps.OWED, steps.PROTECTION, steps.VILLAIN_DONE}
    assert not set(disney_hand.WORK) & (set(STEP_KINDS) | set(steps.PHASE_NAMES))
    assert set(flow.WORK) == {S.POWER, S.EFFECT, S.RETIRE, S.END_TURN}
    assert not set(flow.WORK) & S.CHOICES
    for table in (disney_hand.WORK, flow.WORK):
        assert all(kind.name == name for name, kind in table.items())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_elite_work_is_left_at_the_head_after_any_action(seed):
    def check(game: EliteGame) -> None:
        if game.steps:
            assert game.steps[0].kind not in flow.WORK, game.steps

    game = EliteGame(NAMES[:3], {}, cards=CARDS)
    seen: list[None] = []
    play_through_the_protocol(game, random.Random(seed), 300, lambda g: seen.append(check(g)))
    assert len(seen) > 50


@pytest.mark.parametrize("ruleset", ["disney", "classic"])
def test_no_disney_work_is_left_at_the_head_of_the_work_after_any_action(ruleset):
    def check(game: Game) -> None:
        h = game.hand
        if h is None or not h.steps or h.head.kind in (steps.RESHUFFLE, steps.SMACKDOWN):
            return  # (draws owed wait behind a reshuffle; `test_decision_queue` holds those)
        first = h.steps[0].kind
        waits = first in (steps.PROTECTION, steps.VILLAIN_DONE) and h.head.kind == steps.PROTECT
        assert first != steps.OWED and (first not in disney_hand.WORK or waits), (h.head, h.steps)

    game = Game(ruleset, ["a", "b", "c", "d"], 0, {})
    game.start_hand(game.shuffled_deck(random.Random(5)))
    seen: list[None] = []
    play_through_the_protocol(game, random.Random(5), 400, lambda g: seen.append(check(g)))
    assert len(seen) > 50
