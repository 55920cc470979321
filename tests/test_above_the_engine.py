"""The layers above the engine (the command line, digital play, the scoreboard, the club) know
no ruleset: they ask the registry (`engine.registry`) and the observation, so a ruleset the
engine registers, a test's own included, is played without a line changed up here.

Read from the code (Python's own parser): no `EliteBox`, no import of `engine.elite`, no
`"lineups"` (a feature only UNO Elite declares), and no comparison with a ruleset's name
(`ruleset == "elite"`, `name != "disney"`, `x in ("classic", "elvis")`).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from engine import registry

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("cli", "digital", "scoreboard", "club")
COMPARISONS = (ast.Eq, ast.NotEq, ast.In, ast.NotIn, ast.Is, ast.IsNot)


def _strings(node: ast.expr) -> list[str]:
    """The string constants `node` is, or holds (a tuple, list or set of them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [s for element in node.elts for s in _strings(element)]
    return []


def _imports_a_ruleset(node: ast.AST) -> str | None:
    if isinstance(node, ast.Import):
        named = [a.name for a in node.names if a.name.split(".")[:2] == ["engine", "elite"]]
        return named[0] if named else None
    if isinstance(node, ast.ImportFrom) and node.module:
        if node.module.split(".")[:2] == ["engine", "elite"]:
            return node.module
        if node.module == "engine" and any(a.name == "elite" for a in node.names):
            return "engine.elite"
    return None


def found(source: str, names: frozenset[str]) -> list[str]:
    """What `source` does that the layers above may not, each as "line N: what"."""
    out = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Name | ast.Attribute) and "EliteBox" in (
            getattr(node, "id", None),
            getattr(node, "attr", None),
        ):
            out.append(f"line {line}: EliteBox")
        elif isinstance(node, ast.ClassDef) and node.name == "EliteBox":
            out.append(f"line {line}: class EliteBox")
        elif isinstance(node, ast.alias) and node.name.split(".")[-1] == "EliteBox":
            out.append(f"line {line}: EliteBox")
        elif isinstance(node, ast.Constant) and node.value == "lineups":
            out.append(f'line {line}: "lineups"')
        elif (imported := _imports_a_ruleset(node)) is not None:
            out.append(f"line {line}: imports {imported}")
        elif isinstance(node, ast.Compare) and any(isinstance(o, COMPARISONS) for o in node.ops):
            said = [s for part in (node.left, *node.comparators) for s in _strings(part)]
            out += [f"line {line}: compares with {s!r}" for s in said if s in names]
    return out


NAMES = frozenset(registry.names())


def test_the_check_finds_each_thing_it_is_for():
    assert found('if args.ruleset == "elite":\n    pass', NAMES) == [
        "line 1: compares with 'elite'"
    ]
    assert found("ok = 'disney' != ruleset", NAMES) == ["line 1: compares with 'disney'"]
    assert found("x = r in ('classic', 'elvis')", NAMES) == [
        "line 1: compares with 'classic'",
        "line 1: compares with 'elvis'",
    ]
    assert found('if "lineups" in features:\n    pass', NAMES) == ['line 1: "lineups"']
    assert found("from digital.games import EliteBox", NAMES) == ["line 1: EliteBox"]
    assert found("box = games.EliteBox(cards)", NAMES) == ["line 1: EliteBox"]
    assert found("from engine.elite import parse_cards", NAMES) == ["line 1: imports engine.elite"]
    assert found("import engine.elite.view", NAMES) == ["line 1: imports engine.elite.view"]
    assert found("from engine import elite", NAMES) == ["line 1: imports engine.elite"]
    # what is fine: a default, a help text, asking the registry, a feature every ruleset may have
    assert not found('def f(ruleset: str = "disney"): pass', NAMES)
    assert not found('HELP = "disney (default), classic or elite"', NAMES)
    assert not found('if "points" in registry.get(ruleset).features({}):\n    pass', NAMES)
    assert not found('# if ruleset == "elite"', NAMES)


def test_no_page_asks_for_lineups():
    """The pages draw from the observation's shape too: no script names "lineups"."""
    problems = [
        f"{path.relative_to(ROOT)} line {number}"
        for layer in LAYERS
        for path in sorted((ROOT / layer).rglob("*.js"))
        if "node_modules" not in path.parts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if re.search(r"""["'`]lineups["'`]""", line)
    ]
    assert not problems, "\n".join(problems)


def test_no_layer_above_the_engine_knows_a_ruleset():
    problems = [
        f"{path.relative_to(ROOT)} {problem}"
        for layer in LAYERS
        for path in sorted((ROOT / layer).rglob("*.py"))
        for problem in found(path.read_text(encoding="utf-8"), NAMES)
    ]
    assert not problems, "\n".join(problems)
