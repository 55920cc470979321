"""Every ruleset's phases are named once and worded once (`engine.phases.PHASE_WORDS`): the
names the two rulesets share are the same strings, and no phase is without its words."""

from engine.elite import steps as S
from engine.phases import PHASE_NAMES, PHASE_WORDS, Step, phase_words

ELITE_PHASES = S.CHOICES | S.CHANCE_PHASES | {S.OVER}
AWAITED = {"new_hand"}  # a Disney game between hands (`Game.chance_kind`), not a hand's phase


def test_every_phase_of_every_ruleset_has_its_words_and_no_words_lack_a_phase():
    assert set(PHASE_NAMES) | ELITE_PHASES | AWAITED == set(PHASE_WORDS)


def test_the_phases_both_rulesets_have_are_the_same_names():
    shared = {S.TURN, S.DRAWN, S.COLOUR, S.TARGET, S.DISCARD, S.RESHUFFLE, S.OVER}
    assert shared <= set(PHASE_NAMES) and len(shared) == 7


def test_a_phase_asked_for_by_a_power_names_it():
    assert phase_words("target", "Draw 3, Target") == "choose the player for Draw 3, Target"


def test_a_step_is_never_changed_only_replaced():
    step = Step(S.DISCARD, 1, 2, extra=(0,))
    fewer = step.less()
    assert (step.count, fewer.count) == (2, 1) and fewer.extra == (0,) and fewer != step
    assert fewer == Step(S.DISCARD, 1, 1, extra=(0,)) and hash(fewer) == hash(step.less())
