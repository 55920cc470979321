"""`./tinker` with no command prints its usage and starts nothing (issue 41, 10: it used to start
the service on every interface, a server on the LAN for a newcomer who only looked)."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_tinker_alone_prints_the_usage_and_starts_nothing():
    done = subprocess.run(
        [str(ROOT / "tinker")], capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL
    )
    assert done.returncode == 2
    assert done.stdout.startswith("usage: ./tinker COMMAND")
    for command in ("./tinker run", "./tinker test", "./tinker update"):
        assert command in done.stdout
    assert done.stderr == ""  # nothing was set up or started
