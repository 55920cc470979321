"""Issue 40: no class in the engine or the scoreboard over `MAX_CLASS` lines. The journal's one
class did five jobs in 649 lines (a failing card's connection, the schema, writes, reads,
exports), each now a module of scoreboard/journal/; the Disney `Game` wrapped its hand in 514
lines, and now keeps only the match. This keeps a class from growing back into all of them."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_CLASS = 450  # lines


def _long_classes(path: Path) -> list[str]:
    """`file:line Name: N lines` of every class in `path` longer than `MAX_CLASS` lines."""
    name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    return [
        f"{name}:{node.lineno} {node.name}: {node.end_lineno - node.lineno + 1} lines"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > MAX_CLASS
    ]


def test_no_class_in_the_engine_or_the_scoreboard_is_over_450_lines():
    found = [
        where
        for room in ("engine", "scoreboard")
        for path in sorted((ROOT / room).rglob("*.py"))
        for where in _long_classes(path)
    ]
    assert found == []


def test_the_check_finds_a_long_class(tmp_path):
    sample = tmp_path / "sample.py"
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_CLASS))
    sample.write_text(f"class Short:\n    pass\n\n\nclass Long:\n{body}")
    assert _long_classes(sample) == [f"sample.py:5 Long: {MAX_CLASS + 1} lines"]
