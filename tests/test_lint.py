"""The linters are part of the test suite, so CI enforces them: ruff (style), import-linter (the
architecture's contracts in pyproject.toml), mypy (types, on every package)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is missing: it is in the dev extra (./tinker installs it)")
    return found


def test_ruff_is_clean():
    result = subprocess.run([_tool("ruff"), "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_applied():
    result = subprocess.run(
        [_tool("ruff"), "format", "--check", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_architecture_contracts_are_kept():
    result = subprocess.run(
        [_tool("lint-imports"), "--no-cache"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_mypy_is_clean_on_every_package():
    """Every package is typed: mypyc compiles the engine from its types, and a newcomer reads
    them (which packages: `[tool.mypy]` in pyproject.toml)."""
    result = subprocess.run([_tool("mypy")], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


PACKAGES = (
    "engine",
    "tray",
    "firmware_bridge",
    "scoreboard",
    "digital",
    "cli",
    "club",
    "bootfiles",
)
SCREEN = 65  # lines: a function a reader takes in at once


def test_no_function_is_longer_than_a_screen():
    import ast

    long = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    lines = node.end_lineno - node.lineno + 1
                    where = (str(path.relative_to(ROOT)), node.name)
                    if lines > SCREEN:
                        long.append(f"{where[0]}:{node.lineno} {node.name}: {lines} lines")
    assert not long, "\n".join(long)
