"""Every package of the product but the engine (the command line, digital play, the scoreboard,
the club, the tray, the bridge, the updater, the image's recipe, the hardware's checks, the
benches) knows no ruleset: each asks the registry (`engine.registry`), the observation and the
score sheet's protocol (`engine.score_sheet`), so a ruleset the engine registers, a test's own
included, is played and kept without a line changed up here.

Read from the code (Python's own parser): no import of a ruleset's package (any package under
engine/: engine.disney, engine.elite), no `EliteBox`, no feature that only a ruleset declares
(one the core gives no protocol: `"lineups"`), and no comparison with a ruleset's name
(`ruleset == "elite"`, `name != "disney"`, `x in ("classic", "elvis")`).
"""

from __future__ import annotations

import ast
import pkgutil
import re
from pathlib import Path

import engine
from engine import registry
from engine.protocol import PROTOCOL_FEATURES

ROOT = Path(__file__).resolve().parents[1]
LAYERS = (
    "cli", "digital", "scoreboard", "club", "tray", "firmware_bridge", "bootfiles", "updater",
    "image", "hardware", "bench",
)  # fmt: skip
RULESETS = frozenset(f"engine.{m.name}" for m in pkgutil.iter_modules(engine.__path__) if m.ispkg)
"""Every ruleset's package (a ruleset is a package under engine/)."""
OWN_FEATURES = frozenset(
    feature
    for name in registry.names()
    for feature in registry.get(name).features({})
    if feature not in PROTOCOL_FEATURES
) | {"lineups"}
"""What only a ruleset declares, for its own pages and bots ("lineups" under every option)."""
COMPARISONS = (ast.Eq, ast.NotEq, ast.In, ast.NotIn, ast.Is, ast.IsNot)


def _strings(node: ast.expr) -> list[str]:
    """The string constants `node` is, or holds (a tuple, list or set of them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [s for element in node.elts for s in _strings(element)]
    return []


def _ruleset_of(module: str) -> str | None:
    package = ".".join(module.split(".")[:2])
    return package if package in RULESETS else None


def _imports_a_ruleset(node: ast.AST) -> str | None:
    if isinstance(node, ast.Import):
        named = [a.name for a in node.names if _ruleset_of(a.name)]
        return named[0] if named else None
    if isinstance(node, ast.ImportFrom) and node.module:
        if _ruleset_of(node.module):
            return node.module
        if node.module == "engine":
            named = [f"engine.{a.name}" for a in node.names if f"engine.{a.name}" in RULESETS]
            return named[0] if named else None
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
        elif isinstance(node, ast.Constant) and node.value in OWN_FEATURES:
            out.append(f"line {line}: {node.value!r}")
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
    assert found('if "lineups" in features:\n    pass', NAMES) == ["line 1: 'lineups'"]
    assert found("from engine.disney import table", NAMES) == ["line 1: imports engine.disney"]
    assert found("from engine import disney", NAMES) == ["line 1: imports engine.disney"]
    assert {"engine.disney", "engine.elite"} == RULESETS
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


def _files(layer: str, pattern: str) -> list[Path]:
    """The layer's files, but what a bench keeps in a hidden folder of its own (bench/.against
    holds earlier revisions, which knew rulesets)."""
    return [
        path
        for path in sorted((ROOT / layer).rglob(pattern))
        if not any(part.startswith(".") for part in path.relative_to(ROOT).parts)
    ]


def test_no_page_asks_for_lineups():
    """The pages draw from the observation's shape too: no script names "lineups"."""
    problems = [
        f"{path.relative_to(ROOT)} line {number}"
        for layer in LAYERS
        for path in _files(layer, "*.js")
        if "node_modules" not in path.parts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if re.search(r"""["'`]lineups["'`]""", line)
    ]
    assert not problems, "\n".join(problems)


def test_no_layer_above_the_engine_knows_a_ruleset():
    problems = [
        f"{path.relative_to(ROOT)} {problem}"
        for layer in LAYERS
        for path in _files(layer, "*.py")
        for problem in found(path.read_text(encoding="utf-8"), NAMES)
    ]
    assert not problems, "\n".join(problems)
