"""Issues 33 and 40: typed seams. Where a game state is passed (a parameter named for one: `game`,
`state`, `world`, `root`, `start`, `trial`, `..._game`) in the engine, digital play, the
scoreboard and the command line, its type is the protocol's `GameState` or a ruleset's own
state, never `Any`, which mypy would let anything through; nor does a function making or copying
one (`new_game`, `root`, `clone`, `determinise`, `restore`) return `Any`. Likewise the table
(`table`, `..._table`: the table session digital play drives, or the engine's folded table),
and `Any | None` is `Any` all the same."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STATE_NAMES = {"game", "state", "world", "root", "start", "trial", "table"}
SUFFIXES = ("_game", "_table")
ANY = {"Any", "Any | None", "None | Any", "Optional[Any]", "typing.Any"}
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
            named = arg.arg in STATE_NAMES or arg.arg.endswith(SUFFIXES)
            if named and arg.annotation is not None and _any(arg.annotation):
                found.append(f"{name}:{node.lineno} {node.name}({arg.arg})")
        returns = ast.unparse(node.returns) if node.returns is not None else ""
        if returns == "Any" and any(word in node.name for word in MAKERS):
            found.append(f"{name}:{node.lineno} {node.name} -> Any")
    return found


def _any(annotation: ast.expr) -> bool:
    """The annotation lets anything through (`Any`, also when optional or quoted)."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return annotation.value.strip() in ANY
    return ast.unparse(annotation) in ANY


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


def test_the_check_finds_an_untyped_table(tmp_path):
    """`DigitalSession.__init__(..., table: Any = None)` as it was before issue 40."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from typing import Any\n\n\n"
        "def start(bus: object, *, table: Any = None, score_table: 'Any | None' = None) -> None:\n"
        "    pass\n"
    )
    assert _untyped(sample) == ["sample.py:4 start(table)", "sample.py:4 start(score_table)"]


def _bare_any(path: Path, class_name: str) -> list[str]:
    """`method(parameter)` of every parameter of `class_name`'s methods annotated `Any`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name)
    return [
        f"{node.name}({arg.arg})"
        for node in cls.body
        if isinstance(node, ast.FunctionDef)
        for arg in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        if arg.annotation is not None and _any(arg.annotation)
    ]


def test_digital_play_takes_typed_values():
    """Issue 40: `DigitalSession` took nine `Any`s in `new_game` and more in `check_key`, `act`,
    `act_as`, `view`: each has its real type now (a web request's JSON is shaped at the web edge,
    `digital.web`'s bodies, and its values checked with a sentence in the session)."""
    assert _bare_any(ROOT / "digital" / "session.py", "DigitalSession") == []
