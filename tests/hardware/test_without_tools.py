"""The hardware tests on a machine without Debian's drawing tools: each test that needs one
skips, naming the package, and none fails (issue 41, item 12: without graphviz one failed)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hardware.conftest import PACKAGES

ROOT = Path(__file__).resolve().parents[2]
NEEDS_DOT = [
    "tests/hardware/test_enclosure.py::test_a_broken_pin_map_is_reported_and_nothing_is_drawn",
    "tests/hardware/test_wiring.py::test_wireviz_draws_the_committed_yaml_again",
]


def path_without(tools: set[str]) -> str:
    """This PATH less every folder holding one of `tools`."""
    folders = os.environ.get("PATH", "").split(os.pathsep)
    return os.pathsep.join(
        folder for folder in folders if not any((Path(folder) / t).exists() for t in tools)
    )


@pytest.mark.slow  # a pytest of its own
def test_without_graphviz_the_tests_that_draw_wiring_skip(tmp_path):
    env = {**os.environ, "PATH": path_without({"dot"})}
    env.pop("CI", None)  # (under CI=true a missing tool fails on purpose: .ci/run installs it)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
         f"--basetemp={tmp_path / 'run'}", *NEEDS_DOT],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:]
    assert f"{len(NEEDS_DOT)} skipped" in done.stdout, done.stdout[-3000:]
    assert f"no dot here (apt-get install {PACKAGES['dot']})" in done.stdout
