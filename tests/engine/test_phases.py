"""The core's step model knows no ruleset: one `Step` with the core's fields and a detail the
ruleset owns, and each ruleset names and words its own phases (the Disney family's
`disney.steps.WORDS`, UNO Elite's `engine.elite.steps.WORDS`); the core keeps only the end."""

import ast
import pathlib

import pytest

from engine import phases
from engine.disney import steps
from engine.elite import steps as S
from engine.phases import OVER, Step

ELITE_PHASES = S.CHOICES | S.CHANCE_PHASES | {OVER}
AWAITED = {steps.NEW_HAND}  # a Disney game between hands (`Game.chance_kind`), not a hand's phase
CORE = pathlib.Path(__file__).resolve().parents[2] / "engine" / "phases.py"  # (the source)


def test_every_phase_of_each_ruleset_has_its_words_and_no_words_lack_a_phase():
    assert set(steps.PHASE_NAMES) | AWAITED == set(steps.WORDS)
    assert set(S.WORDS) == ELITE_PHASES


def test_the_end_is_the_cores_and_worded_alike_in_both_rulesets():
    assert steps.OVER is OVER is S.OVER
    assert steps.phase_words(OVER) == S.phase_words(OVER) == phases.OVER_WORDS


def test_the_core_imports_no_ruleset_not_even_for_types():
    tree = ast.parse(CORE.read_text())
    imported = {
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert all(name in {"__future__", "collections.abc", "typing"} for name in imported if name), (
        imported
    )


def test_the_core_keeps_no_table_of_a_rulesets_phases():
    assert not hasattr(phases, "PHASE_WORDS") and not hasattr(phases, "PLAY")
    step = Step("play", 0)
    core = ("kind", "seat", "count", "subject", "item", "detail")
    assert all(hasattr(step, name) for name in core)  # (a compiled class has no __slots__)
    rulesets = ("power", "optional", "colour", "card", "drawn", "extra", "reneged")
    assert not any(hasattr(step, name) for name in rulesets)


def test_a_phase_asked_for_by_a_power_names_it():
    assert S.phase_words("target", "Draw 3, Target") == "choose the player for Draw 3, Target"


def test_a_step_is_never_changed_only_replaced_and_keeps_its_detail():
    step = S.step(S.DISCARD, 1, 2, extra=(0,))
    fewer = step.less()
    assert (step.count, fewer.count) == (2, 1) and S.detail(fewer).extra == (0,) and fewer != step
    assert fewer == S.step(S.DISCARD, 1, 1, extra=(0,)) and hash(fewer) == hash(step.less())
    assert fewer != S.step(S.DISCARD, 1, 1, extra=(2,))  # the detail is compared


def test_a_step_with_nothing_of_its_rulesets_to_say_has_no_detail():
    assert S.step(S.TURN, 0).detail is None and S.detail(S.step(S.TURN, 0)) == S.NO_DETAIL
    assert Step(steps.RESPOND, 0).detail is None and not steps.reneged_in(Step(steps.RESPOND, 0))
    assert steps.reneged_in(Step(steps.RESPOND, 0, detail=steps.renege_detail(True)))


@pytest.mark.parametrize("kind", sorted(S.WORDS))
def test_no_elite_phase_needs_the_disney_familys_table(kind):
    assert S.phase_words(kind, "X")  # (worded by UNO Elite itself)
