"""`./tinker update`: a new version is pulled and set up; one that fails to set up is rolled back,
so the service keeps the version it runs.

A clone of this repository pulls from a second clone (its "origin"); its venv is a stand-in that
runs this test run's Python (a real set-up would download the world), and pip works offline, so
a new requirement cannot be met: a failed set-up, made on purpose."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow
SYSTEM_PYTHON = "/usr/bin/python3"
"""A Python another user can run (this run's may sit in root's home)."""


IDENTITY = ("-c", "user.name=t", "-c", "user.email=t@example.org")


def git(where: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *IDENTITY, "-c", "safe.directory=*", "-C", str(where), *args],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def make_clones(where: Path, python: str, cli: str) -> tuple[Path, Path]:
    """An origin and a tray cloned from it, whose venv's python and tinker-tray run `python` and
    `cli` (a shell line)."""
    origin, tray = where / "origin", where / "tray"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(origin)], check=True)
    subprocess.run(["git", "clone", "--quiet", str(origin), str(tray)], check=True)
    bin_ = tray / ".venv" / "bin"
    bin_.mkdir(parents=True)
    for name, line in (("python", f'exec {python} "$@"'), ("tinker-tray", cli)):
        (bin_ / name).write_text(f"#!/bin/sh\n{line}\n")
        (bin_ / name).chmod(0o755)
    (tray / ".venv" / "marker").write_text("the venv that runs\n")
    (tray / ".venv" / ".installed-runtime").touch()
    return origin, tray


@pytest.fixture
def clones(tmp_path):
    return make_clones(tmp_path, sys.executable, f'exec {sys.executable} -m cli.main "$@"')


def update(tray: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        **extra,
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


def test_sudo_update_in_a_users_checkout_leaves_every_file_theirs():
    """docs/install.md clones into a folder of the user's; `sudo ./tinker update` there pulls and
    sets up as that user, or root's files in it would lock them out of their own set-up."""
    if os.geteuid() != 0 or shutil.which("runuser") is None or not Path(SYSTEM_PYTHON).exists():
        pytest.skip("not root, or no runuser or /usr/bin/python3: no second user here")
    folder = Path(tempfile.mkdtemp(prefix="tinker-update-"))
    try:
        folder.chmod(0o755)
        origin, tray = make_clones(folder, SYSTEM_PYTHON, "exit 0")
        (origin / "NEWS").write_text("a new version\n")
        git(origin, "add", "NEWS")
        git(origin, "commit", "-qm", "A new version")
        subprocess.run(["chown", "-R", "nobody:nogroup", str(folder)], check=True)
        done = update(tray, PYTHON=SYSTEM_PYTHON)
        assert done.returncode == 0, done.stderr
        assert (tray / "NEWS").exists() and "now at" in done.stderr
        nobody = pwd.getpwnam("nobody").pw_uid
        assert [str(p) for p in tray.rglob("*") if p.lstat().st_uid != nobody] == []
    finally:
        shutil.rmtree(folder)
