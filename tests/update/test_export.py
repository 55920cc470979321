"""A release's tree is written into its slot dated by the tray's clock, not the commit's: a
tray whose clock runs behind the maintainer's (a Pi offline keeps the last time it saved) must
not find its release's pyproject.toml newer than the set-up that follows it, or ./tinker sets
the venv up again (pip: minutes on a Pi)."""

from __future__ import annotations

import os
import subprocess
import time

from tests.update.helpers import IDENTITY
from updater.releases import Release, Repository

FUTURE = "2031-01-01T12:00:00+00:00"


def test_a_release_committed_in_the_trays_future_is_written_dated_now(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "pyproject.toml").write_text('[project]\nname = "tinker-tray"\n')
    (repo / "engine").mkdir()
    (repo / "engine" / "core.py").write_text("STEP = 1\n")
    dated = {**os.environ, "GIT_AUTHOR_DATE": FUTURE, "GIT_COMMITTER_DATE": FUTURE}
    for args in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "v1.1.0"]):
        subprocess.run(["git", *IDENTITY, "-C", str(repo), *args], env=dated, check=True)
    commit = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    slot = tmp_path / "slot"
    before = time.time()
    Repository(repo).export(Release("v1.1.0", commit), slot)
    marker = slot / ".installed-runtime"
    marker.touch()  # what ./tinker's set-up leaves after it
    for path in (slot / "pyproject.toml", slot / "engine" / "core.py"):
        assert before - 5 <= path.stat().st_mtime <= time.time() + 1
        assert path.stat().st_mtime <= marker.stat().st_mtime
