"""Issues 40 and 49: no class in the product over `MAX_CLASS` lines, and no function (a method,
an async or a nested one too) over `MAX_FUNCTION`. The journal's one class did five jobs in 649
lines (a failing card's connection, the schema, writes, reads, exports), each now a module of
scoreboard/journal/; the Disney `Game` wrapped its hand in 514 lines, and now keeps only the
match; digital play's session set up, played and ended games and passed their news on to the
scoreboard in 492 (that last job is `digital.scoreboard_feed` now). Each function of more than
60 lines did several steps one after another, each now a function named for what it does. This
keeps a class or a function from growing back into all of them, in every package the product
ships or runs, and setup.py (tests/ is not the product)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_CLASS = 450  # lines
MAX_FUNCTION = 60  # lines, from `def` (its decorators not counted) to its last line
PRODUCT = (
    "engine",
    "tray",
    "firmware_bridge",
    "scoreboard",
    "digital",
    "club",
    "cli",
    "bootfiles",
    "updater",
    "image",
    "hardware",
    "bench",
)
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _product_files() -> list[Path]:
    """Every Python file of the product: its packages', and setup.py (not what a bench keeps
    in a hidden folder of its own: bench/.against holds earlier revisions)."""
    return [
        path
        for room in PRODUCT
        for path in sorted((ROOT / room).rglob("*.py"))
        if not any(part.startswith(".") for part in path.relative_to(ROOT).parts)
    ] + [ROOT / "setup.py"]


def _too_long(path: Path) -> list[str]:
    """`file:line Name: N lines` of every class in `path` longer than `MAX_CLASS` lines and
    every function (at any depth) longer than `MAX_FUNCTION`."""
    name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef):
            limit = MAX_CLASS
        elif isinstance(node, FUNCTIONS):
            limit = MAX_FUNCTION
        else:
            continue
        lines = (node.end_lineno or node.lineno) - node.lineno + 1
        if lines > limit:
            found.append(f"{name}:{node.lineno} {node.name}: {lines} lines")
    return found


def test_no_class_is_over_450_lines_nor_a_function_over_60_in_the_product():
    assert (ROOT / "setup.py").exists()
    found = [where for path in _product_files() for where in _too_long(path)]
    assert found == []


def test_the_check_finds_a_long_class(tmp_path):
    sample = tmp_path / "sample.py"
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_CLASS))
    sample.write_text(f"class Short:\n    pass\n\n\nclass Long:\n{body}")
    assert _too_long(sample) == [f"sample.py:5 Long: {MAX_CLASS + 1} lines"]


def test_the_check_finds_a_long_function_a_method_and_a_nested_one(tmp_path):
    sample = tmp_path / "sample.py"

    def body(indent: int, lines: int) -> str:
        return "".join(f"{' ' * indent}x{i} = {i}\n" for i in range(lines))

    sample.write_text(
        f"def just_short():\n{body(4, MAX_FUNCTION - 1)}\n\n"  # lines 1-60
        f"class C:\n    async def long(self):\n{body(8, MAX_FUNCTION)}"  # 63-64-124
        f"    def outer(self):\n        def inner():\n{body(12, MAX_FUNCTION)}"  # 125-126-186
    )
    n = MAX_FUNCTION + 1
    assert _too_long(sample) == [
        f"sample.py:64 long: {n} lines",
        f"sample.py:125 outer: {n + 1} lines",
        f"sample.py:126 inner: {n} lines",
    ]
