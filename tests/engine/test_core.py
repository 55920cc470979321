"""The engine's core knows no ruleset (issue 40): the files directly in engine/ import neither
engine/disney nor engine/elite (import-linter's contract, whose list of core modules this holds
to every file there, so a new core module cannot slip out of it), the two rulesets import only
the core, and no core line compares anything with a ruleset's name. What a ruleset is, the core
learns from the registry (`engine.registry`)."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from engine import registry

ROOT = Path(__file__).resolve().parents[2]
CORE = sorted(p for p in (ROOT / "engine").glob("*.py"))


def _contract(name_starts: str) -> dict:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return next(c for c in config["contracts"] if c["name"].startswith(name_starts))


def test_the_core_contract_names_every_module_of_the_core():
    listed = set(_contract("The engine's core knows no ruleset")["source_modules"])
    present = {f"engine.{p.stem}" for p in CORE if p.stem != "__init__"}
    assert listed == present


def test_the_rulesets_are_independent_of_each_other():
    contract = _contract("The rulesets do not import each other")
    packages = {p.parent.name for p in (ROOT / "engine").glob("*/__init__.py")}
    assert set(contract["modules"]) == {f"engine.{p}" for p in packages}


def _compared_names(path: Path, names: set[str]) -> list[str]:
    """`file:line` of each comparison (==, !=, in, match-case) with a ruleset's name in `path`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            parts = [node.left, *node.comparators]
            if any(isinstance(p, ast.Constant) and p.value in names for p in parts):
                found.append(f"{path.name}:{node.lineno}")
        elif (
            isinstance(node, ast.MatchValue)
            and isinstance(node.value, ast.Constant)
            and node.value.value in names
        ):
            found.append(f"{path.name}:{node.lineno}")
    return found


def test_no_line_of_the_core_compares_with_a_ruleset_name():
    names = set(registry.names())
    assert {"disney", "elite"} <= names
    assert [hit for path in CORE for hit in _compared_names(path, names)] == []


def test_the_check_finds_a_comparison_with_a_name(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        'if ruleset == "elite":\n    pass\nmatch r:\n    case "disney":\n        pass\n'
    )
    assert _compared_names(sample, {"elite", "disney"}) == ["sample.py:1", "sample.py:4"]
