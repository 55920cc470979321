"""`effects.played` handles every effect a ruleset may name (`effects.EFFECTS`, which
`effect_table` checks each ruleset against), and only those."""

import inspect
import re

from engine import effects
from engine.rulesets import RULESETS


def test_every_effect_a_ruleset_may_name_is_played():
    source = inspect.getsource(effects.played)
    handled = set(re.findall(r'effect == "(\w+)"', source)) | {"vegas"}  # (the last branch)
    assert handled == effects.EFFECTS


def test_every_ruleset_names_only_known_effects():
    for rules in RULESETS.values():
        table = effects.effect_table(rules, {})
        assert set(table.effect_of) <= effects.EFFECTS, rules.name
