"""The processes a test starts (a display service, `tinker-tray play` on a pty) never outlive it,
however the test run itself was started.

A run started in the background (`nohup`, `cmd &` in a script, some CI runners) has SIGINT
ignored, and an ignored signal stays ignored through fork and exec: a service the test stops as
Ctrl-C does (SIGINT, the clean stop the tests check) would never stop, its test would time out
and the service would keep its port and a CPU. So every child started by `popen`:
- has SIGINT at its default again, as a program started from a terminal has it;
- leads a process group of its own, so `end` reaches whatever it started too;
- is killed by the kernel if the test run dies first (Linux's PR_SET_PDEATHSIG, which follows
  the thread that started it: start children from the test's own thread);
- and is ended after its test if still running (`reap`, an autouse fixture in tests/conftest.py,
  and at exit): SIGTERM to its group, then SIGKILL, which nothing can ignore, after `GRACE`.

Importable on its own (the benches use tests.helpers.service, which starts its services here).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import Any

GRACE = 5.0
"""Seconds a child has after SIGTERM before SIGKILL."""
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>

_running: list[subprocess.Popen[Any]] = []
# Looked up here, in the parent: the child, between fork and exec, must not load anything.
_prctl = (
    getattr(ctypes.CDLL(None, use_errno=True), "prctl", None) if sys.platform == "linux" else None
)


def popen(
    argv: Sequence[str], *, preexec: Callable[[], None] | None = None, **kw: Any
) -> subprocess.Popen[Any]:
    """`subprocess.Popen(argv, **kw)`, started as the module says; `preexec` runs in the child
    too (after ours), as Popen's `preexec_fn` would."""
    parent = os.getpid()

    def prepare() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if _prctl is not None:
            _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
            if os.getppid() != parent:  # the run died before the line above: go too
                os._exit(1)
        if preexec is not None:
            preexec()

    proc = subprocess.Popen(argv, start_new_session=True, preexec_fn=prepare, **kw)
    _running.append(proc)
    return proc


def end(proc: subprocess.Popen[Any], grace: float = GRACE) -> int:
    """Stop `proc` and its process group whatever it ignores: SIGTERM, then SIGKILL after
    `grace` seconds; returns its exit status (negative: the signal that ended it)."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if proc.poll() is not None:
            break
        with contextlib.suppress(ProcessLookupError):  # (ended meanwhile)
            os.killpg(proc.pid, sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(grace)
    return proc.wait()


def reap() -> list[list[str]]:
    """End every child still running; returns the command lines of those it had to end."""
    ended = []
    while _running:
        proc = _running.pop()
        if proc.poll() is None:
            ended.append([str(a) for a in proc.args])  # type: ignore[union-attr]
            end(proc)
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
    return ended


atexit.register(reap)  # a run stopped half-way (Ctrl-C, -x) leaves none behind either
