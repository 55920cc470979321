"""Killing a process mid-write, for the tests that prove nothing shown is lost (kill -9)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def shown_until_killed(script: str, *args: str, after: int, path: list[Path] = ()) -> list[int]:
    """Run `script` (python -c) with `args`; it prints a number each time something has been
    shown. SIGKILL it once `after` numbers came, and return every number it printed (some
    may have been printed while the kill was on its way). `path` goes on its PYTHONPATH."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, [ROOT, *path]))}
    proc = subprocess.Popen(
        [sys.executable, "-c", script, *args], stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT
    )
    shown: list[int] = []
    for line in proc.stdout:
        shown.append(int(line))
        if len(shown) >= after:
            os.kill(proc.pid, signal.SIGKILL)
            break
    proc.wait()
    shown += [int(x) for x in proc.stdout.read().split()]
    assert shown, "the writer printed nothing"
    return shown
