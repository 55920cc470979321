"""Issue 33: typed seams. Where a game state is passed (a parameter named for one: `game`,
`state`, `world`, `root`, `start`, `trial`, `..._game`) in the engine, digital play, the
scoreboard and the command line, its type is the protocol's `GameState` or a ruleset's own
state, never `Any`, which mypy would let anything through; nor does a function making or copying
one (`new_game`, `root`, `clone`, `determinise`, `restore`) return `Any`."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STATE_NAMES = {"game", "state", "world", "root", "start", "trial"}
MAKERS = ("game", "root", "clone", "determinise", "restore", "world")


def _untyped(path: Path) -> list[str]:
    """`file:line name` of every game state annotated `Any` in `path`."""
    found = []
    name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        args = node.args
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
            named = arg.arg in STATE_NAMES or arg.arg.endswith("_game")
            if named and arg.annotation is not None and ast.unparse(arg.annotation) == "Any":
                found.append(f"{name}:{node.lineno} {node.name}({arg.arg})")
        returns = ast.unparse(node.returns) if node.returns is not None else ""
        if returns == "Any" and any(word in node.name for word in MAKERS):
            found.append(f"{name}:{node.lineno} {node.name} -> Any")
    return found


def test_no_game_state_is_passed_as_any():
    found = [
        where
        for room in ("engine", "digital", "scoreboard", "cli")
        for path in sorted((ROOT / room).rglob("*.py"))
        for where in _untyped(path)
    ]
    assert found == []


def test_the_check_finds_an_untyped_game_state(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from typing import Any\n\n\ndef root(game: Any) -> Any:\n    return game\n")
    assert _untyped(sample) == ["sample.py:4 root(game)", "sample.py:4 root -> Any"]
