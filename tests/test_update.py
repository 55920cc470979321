"""`./tinker update`: a new version is pulled and set up; one that fails to set up is rolled back,
so the service keeps the version it runs.

A clone of this repository pulls from a second clone (its "origin"); its venv is a stand-in that
runs this test run's Python (a real set-up would download the world), and pip works offline, so
a new requirement cannot be met: a failed set-up, made on purpose."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


def git(where: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-C", str(where), *args],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


@pytest.fixture
def clones(tmp_path):
    origin, tray = tmp_path / "origin", tmp_path / "tray"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(origin)], check=True)
    subprocess.run(["git", "clone", "--quiet", str(origin), str(tray)], check=True)
    bin_ = tray / ".venv" / "bin"
    bin_.mkdir(parents=True)
    for name, line in (
        ("python", f'exec {sys.executable} "$@"'),
        ("tinker-tray", f'exec {sys.executable} -m cli.main "$@"'),
    ):
        (bin_ / name).write_text(f"#!/bin/sh\n{line}\n")
        (bin_ / name).chmod(0o755)
    (tray / ".venv" / "marker").write_text("the venv that runs\n")
    (tray / ".venv" / ".installed-runtime").touch()
    return origin, tray


def update(tray: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "TINKER_TRAY_PURE": "1",
        "PIP_NO_INDEX": "1",
        "PIP_CONFIG_FILE": os.devnull,
    }
    return subprocess.run(
        [str(tray / "tinker"), "update"], cwd=tray, env=env, capture_output=True, text=True
    )


def test_an_update_pulls_the_new_version(clones):
    origin, tray = clones
    (origin / "NEWS").write_text("a new version\n")
    git(origin, "add", "NEWS")
    git(origin, "commit", "-qm", "A new version")
    done = update(tray)
    assert done.returncode == 0, done.stderr
    assert git(tray, "rev-parse", "HEAD") == git(origin, "rev-parse", "HEAD")
    assert "now at" in done.stderr and "A new version" in done.stderr
    assert "already up to date" in update(tray).stderr


def test_an_update_that_fails_to_set_up_leaves_the_running_version(clones):
    origin, tray = clones
    running = git(tray, "rev-parse", "HEAD")
    pyproject = origin / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text().replace(
            "dependencies = [\n", 'dependencies = [\n  "tinker-tray-test-never-published>=1",\n'
        )
    )
    git(origin, "commit", "-qam", "A version that cannot be set up")
    done = update(tray)
    assert done.returncode != 0
    assert "tinker: the set-up failed" in done.stderr  # pip could not meet the requirement
    assert "did not set up" in done.stderr and "still running" in done.stderr
    assert git(tray, "rev-parse", "HEAD") == running
    assert git(tray, "status", "--porcelain") == ""
    assert (tray / ".venv" / "marker").read_text() == "the venv that runs\n"
    assert not (tray / ".venv.previous").exists()
