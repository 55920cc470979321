"""How bench/ and tests/ meet: the benches are the `bench` package, and what they share with the
tests is the `tests.helpers` package, both imported by name from the checkout's root (`python -m
bench.NAME`, pytest's rootdir). Nothing in either edits the module search path (an edit hides an
import that works from one folder only), and no bench takes anything from a test module."""

import ast
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SKIPPED = ("node_modules", ".against", ".rlcard-venv", "__pycache__")

EDIT = re.compile(
    r"sys\s*\.\s*path\s*("
    r"\.\s*(insert|append|extend|remove|pop|clear)\s*\("  # a method that changes the list
    r"|\[[^\]]*\]\s*=(?!=)"  # an item or slice assigned
    r"|\+=|=(?!=)"  # the list replaced or extended
    r")"
    r"|site\s*\.\s*addsitedir\s*\("
)
"""A change of the search path, in code or in a child's code held in a string."""


def path_edits(folder: Path) -> list[str]:
    """Each line under `folder` (its Python files) that edits the module search path."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        if any(part in SKIPPED for part in path.parts):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if EDIT.search(line):
                found.append(f"{path.relative_to(folder)}:{number}: {line.strip()}")
    return found


def test_no_bench_and_no_test_edits_the_search_path():
    edits = path_edits(ROOT / "bench") + path_edits(ROOT / "tests")
    assert edits == [], "import by package name instead (bench., tests.helpers.):\n" + "\n".join(
        edits
    )


def test_every_kind_of_path_edit_is_found(tmp_path):
    path, site = "sys" + ".path", "site" + ".addsitedir"  # (apart: this file passes its test)
    edits = [
        f"{path}.insert(0, str(ROOT))",
        f"{path}.append('tests/firmware_bridge')",
        f"    {path} .extend([here])",
        f"{path}[:0] = [here]",
        f"{path} = [here, *{path}]",
        f"{path} += [here]",
        f'CHILD = "import sys; {path}.insert(0, sys.argv[1])"',
        f"{site}(here)",
    ]
    reads = [f"print({path})", f"if {path}[0] == here:", f"here in {path}", f"{path} == before"]
    (tmp_path / "edits.py").write_text("\n".join(edits) + "\n")
    (tmp_path / "reads.py").write_text("\n".join(reads) + "\n")
    assert len(path_edits(tmp_path)) == len(edits)
    assert all(found.startswith("edits.py:") for found in path_edits(tmp_path))


def imported(path: Path) -> set[str]:
    """The modules a file imports (absolute imports, by their full dotted name)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_the_benches_take_from_the_tests_their_helpers_alone():
    taken = {
        f"bench/{path.name}: {name}"
        for path in (ROOT / "bench").glob("*.py")
        for name in imported(path)
        if (name == "tests" or name.startswith("tests.")) and not name.startswith("tests.helpers")
    }
    assert taken == set(), "move what a bench shares with the tests into tests/helpers/"


BENCHES = sorted(
    p.stem
    for p in (ROOT / "bench").glob("*.py")
    if p.stem not in ("__init__", "harness", "_rlcard_uno")
)
"""Every bench (`_rlcard_uno` runs in rlcard's environment, with rlcard; `harness` is theirs)."""


@pytest.mark.parametrize("name", BENCHES)
def test_every_bench_imports_as_a_module_of_the_package(name):
    module = importlib.import_module(f"bench.{name}")
    assert callable(module.main)
