"""A service's stop never hangs, whatever signals land and when (issue 41, item 7).

One stop hung with its signal handler deadlocked on `threading.Event.set` (the handler ran in
the main thread while that thread held the event's lock). Now a handler does nothing: the
signal is a byte on a pipe the main loop waits on (`tray.signals`), and the handlers stay for
the rest of the process, so a second Ctrl-C or a SIGTERM during the stop does nothing either.

Real processes: `tinker-tray emulate` (the tray service with its display, as `run` starts it
off a Pi) and `tinker-tray display`, each signalled at random moments once ready: a random
series of SIGINT and SIGTERM, then SIGTERM. 30 tries, each bounded: every stop ends within
its timeout, with exit code 0 and no traceback."""

from __future__ import annotations

import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.helpers.config import QUICK_PIN_MAP
from tests.helpers.service import ROOT

pytestmark = pytest.mark.slow  # real processes

TRIES = 30
STOP_S = 15.0  # the unit's TimeoutStopSec is 10 s; a loaded 2-core machine gets a margin
SIGNALS = (signal.SIGINT, signal.SIGTERM)


def started(command: str, folder: Path) -> tuple[subprocess.Popen[str], queue.Queue[str]]:
    """`command` on a journal in `folder`, its stdout lines in a queue (read by a thread)."""
    pins = folder / "pins.toml"
    pins.write_text(QUICK_PIN_MAP)
    where = ["--journal", str(folder / "journal.sqlite3"), "--host", "127.0.0.1", "--port", "0"]
    extra = ["--config", str(pins)] if command == "emulate" else ["--no-mdns"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "TINKER_TRAY_MDNS": "0"}
    env.pop("GPIOZERO_PIN_FACTORY", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "cli", command, *where, *extra],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # the signals are this process's alone
    )
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    return process, lines


def wait_ready(process: subprocess.Popen[str], lines: queue.Queue[str], marker: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if marker in lines.get(timeout=0.5):
                return
        except queue.Empty:
            if process.poll() is not None:
                raise AssertionError(f"it stopped before ready ({process.returncode})") from None
    raise AssertionError(f"not ready within 60 s (no {marker!r})")


def test_signals_at_random_moments_never_hang_a_stop(tmp_path):
    rng = random.Random(41)
    for attempt in range(TRIES):
        command = ("emulate", "display")[attempt % 2]
        folder = tmp_path / f"try{attempt}"
        folder.mkdir()
        process, lines = started(command, folder)
        try:
            wait_ready(process, lines, "emulator ready" if command == "emulate" else "token:")
            time.sleep(rng.uniform(0, 0.3))
            sent = [rng.choice(SIGNALS) for _ in range(rng.randint(0, 6))] + [signal.SIGTERM]
            for sig in sent:
                if process.poll() is not None:
                    break
                process.send_signal(sig)
                time.sleep(rng.uniform(0, 0.05))
            try:
                process.wait(STOP_S)
            except subprocess.TimeoutExpired:
                pytest.fail(f"try {attempt} ({command}, {[s.name for s in sent]}): its stop hung")
            assert process.stderr is not None
            err = process.stderr.read()
            what = f"try {attempt} ({command}, {[s.name for s in sent]})"
            assert process.returncode == 0, f"{what}: exit {process.returncode}: {err[-2000:]}"
            assert "Traceback" not in err, f"{what}: {err[-2000:]}"
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
