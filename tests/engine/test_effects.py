"""`effects.played` handles every effect a ruleset may name (`variant.EFFECTS`, which
`engine.disney.variant`: `effect_table` checks each ruleset against), and only those."""

import ast
import re
from pathlib import Path

from engine.disney import variant
from engine.disney.rulesets import RULESETS


def test_every_effect_a_ruleset_may_name_is_played():
    path = Path(__file__).resolve().parents[2] / "engine" / "disney" / "effects.py"  # (source)
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    played = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "played")
    source = ast.get_source_segment(text, played) or ""
    handled = set(re.findall(r'effect == "(\w+)"', source)) | {"wild_swap_hands"}  # (the last)
    assert handled == variant.EFFECTS


def test_every_ruleset_names_only_known_effects():
    for rules in RULESETS.values():
        table = variant.effect_table(rules, {})
        assert set(table.effect_of) <= variant.EFFECTS, rules.name
