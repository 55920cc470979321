"""An update cut short (kill -9 of the update and all it started, as a power cut would) or
starved of room: the tray serves afterwards, and a later update completes."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.update.helpers import Bench, make_bench

pytestmark = pytest.mark.slow

MOMENTS = [
    "looking for signed releases",
    "needs about",
    "setting up v1.1.0",
    "its trial start said READY=1",
    "switched;",
]
"""Lines of the update's progress, each the moment of a kill in one run."""


@pytest.mark.parametrize("moment", MOMENTS)
def test_a_kill_at_any_moment_leaves_a_tray_that_serves(tmp_path, moment):
    bench = make_bench(tmp_path)
    commit = bench.release("v1.1.0")
    update = subprocess.Popen(
        [str(bench.tray / "tinker"), "update"],
        cwd=bench.tray, env=bench.env(), stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    assert update.stderr is not None
    seen = []
    for line in update.stderr:
        seen.append(line)
        if moment in line:
            os.killpg(update.pid, signal.SIGKILL)
            break
    update.wait(30)
    assert update.returncode == -signal.SIGKILL, "".join(seen)
    time.sleep(0.5)  # what the kill left behind (the trial's service dies with the update)
    assert bench.serves(), f"killed at {moment!r}"
    assert bench.version() in (
        "tinker-tray " + v for v in (bench_version(bench), f"v1.1.0 ({commit[:12]})")
    )
    done = bench.update()
    assert done.returncode == 0, done.stderr
    assert bench.version() == f"tinker-tray v1.1.0 ({commit[:12]})"
    assert bench.serves()


def bench_version(bench: Bench) -> str:
    from tests.update.helpers import git

    return "commit " + git(bench.tray, "describe", "--always", "--abbrev=12", "--tags", "--dirty")


def mounted_tmpfs(where: Path, megabytes: int) -> None:
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={megabytes}m", "tmpfs", str(where)],
        capture_output=True,
    )
    if done.returncode != 0:
        if os.environ.get("CI") == "true":
            raise AssertionError(f"mount failed under CI: {done.stderr!r}")
        pytest.skip("mount is not permitted here (a small card is a real tmpfs)")


def test_a_nearly_full_card_is_refused_and_a_later_update_completes(tmp_path):
    card = tmp_path / "card"
    mounted_tmpfs(card, 400)
    try:
        bench = make_bench(card)
        commit = bench.release("v1.1.0")
        filler = card / "filler"
        with open(filler, "wb") as out:  # until about 20 MB are left, as on the family's card
            while shutil.disk_usage(card).free > 20.5e6:
                out.write(b"\0" * (256 * 1024))
                out.flush()
        assert 19e6 < shutil.disk_usage(card).free <= 20.5e6
        running = bench.version()
        done = bench.update()
        assert done.returncode == 1, done.stderr
        last = done.stderr.strip().splitlines()[-1]
        release = f"v1.1.0 ({commit[:12]})"
        assert last.startswith(f"tinker-tray update: not enough room on the card for {release}: ")
        assert last.endswith("MB free (nothing was changed)")
        assert bench.slots() == []
        assert bench.version() == running and bench.serves()
        filler.unlink()  # room again: nothing left behind stops the update
        done = bench.update()
        assert done.returncode == 0, done.stderr
        assert bench.version() == f"tinker-tray v1.1.0 ({commit[:12]})"
    finally:
        subprocess.run(["umount", "-l", str(card)], check=False)


def test_a_card_that_fills_during_the_set_up_keeps_the_old_release(tmp_path):
    """The room was there at the check, and then was not (a set-up larger than the last)."""
    card = tmp_path / "card"
    mounted_tmpfs(card, 200)
    try:
        bench = make_bench(card)
        running = bench.version()
        bench.release("v1.1.0", setup=_filling_setup())
        done = bench.update()
        assert done.returncode == 1, done.stderr
        assert "v1.1.0 was not installed: its set-up failed" in done.stderr
        assert "still running" in done.stderr.splitlines()[-1]
        assert bench.slots() == [] and bench.version() == running and bench.serves()
        commit = bench.release("v1.1.1")
        assert bench.update().returncode == 0
        assert bench.version() == f"tinker-tray v1.1.1 ({commit[:12]})"
    finally:
        subprocess.run(["umount", "-l", str(card)], check=False)


def _filling_setup() -> str:
    from tests.update.helpers import stand_in

    return stand_in(extra='dd if=/dev/zero of="$here/big" bs=1M 2>/dev/null || exit 1')
