"""Stop on SIGINT/SIGTERM with a handler that can never block: a self-pipe.

A Python signal handler runs in the main thread between two bytecodes, wherever that thread
is, so a handler that takes a lock can wait for ever on a lock the same thread already holds:
a stop once hung with its handler inside `threading.Event.set`, whose lock the main thread held
in `Event.wait`. Here nothing runs in the handler at all. The interpreter's own C handler
writes the signal's number into a pipe (`signal.set_wakeup_fd`, async-signal-safe); the Python
handler is empty (it only keeps the default action, ending the process or raising
KeyboardInterrupt, away); the main loop waits on the pipe (`wait`) and stops when it reads a
stop signal. Any thread may ask for the stop too (`request`: one non-blocking write).

`StopSignals(then_ignore=True)` is a command's own: leaving its block starts the process's
end, and from then on the stop signals are ignored by the kernel (`SIG_IGN`), so a second
Ctrl-C or a SIGTERM that lands while the command closes what it opened (the display, the
tray's pins), or while the interpreter shuts down (which puts a Python handler back to the
default, ending the process by the signal), does nothing. Elsewhere (tests, a service run
in-process) the previous handlers come back.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import threading
from collections.abc import Iterable
from types import TracebackType
from typing import Any

STOP = (signal.SIGINT, signal.SIGTERM)
_ASKED = 0  # the byte `request` writes: no signal has the number 0


def _ignore(_signum: int, _frame: Any) -> None:
    """The Python-level handler: nothing (the C handler has written the pipe already)."""


class StopSignals:
    """A pipe that `signals` (SIGINT, SIGTERM) and `request()` write to; `wait(timeout)` is
    True once a stop was asked. Handlers are installed on entering (in the main thread only:
    Python allows no other; elsewhere only `request` stops it), and put back on leaving, or
    with `then_ignore` the signals are ignored from then on."""

    def __init__(
        self, signals: Iterable[signal.Signals] = STOP, *, then_ignore: bool = False
    ) -> None:
        self.signals = frozenset(int(s) for s in signals)
        self.then_ignore = then_ignore
        self.asked = False
        self._read, self._write = os.pipe()
        os.set_blocking(self._read, False)
        os.set_blocking(self._write, False)
        self._previous: dict[int, Any] = {}
        self._previous_fd: int | None = None
        self._installed = False
        self._open = True

    def __enter__(self) -> StopSignals:
        if self.signals and threading.current_thread() is threading.main_thread():
            self._previous_fd = signal.set_wakeup_fd(self._write, warn_on_full_buffer=False)
            for number in self.signals:
                self._previous[number] = signal.signal(number, _ignore)
            self._installed = True
        return self

    def __exit__(
        self,
        _type: type[BaseException] | None,
        _value: BaseException | None,
        _tb: TracebackType | None,
    ) -> None:
        if self._installed:
            for number, handler in self._previous.items():
                signal.signal(number, signal.SIG_IGN if self.then_ignore else handler)
            signal.set_wakeup_fd(-1 if self._previous_fd is None else self._previous_fd)
            self._installed = False
        self._open = False  # before the pipe is closed: its numbers may be reused at once
        os.close(self._read)
        os.close(self._write)

    def request(self) -> None:
        """Ask for the stop from any thread (one write that never blocks: a full pipe has a
        stop in it already)."""
        self.asked = True
        if self._open:
            with contextlib.suppress(OSError):  # full, or closed this very moment
                os.write(self._write, bytes([_ASKED]))

    def wait(self, timeout: float | None) -> bool:
        """Wait up to `timeout` seconds for a stop signal or `request`; True once one came."""
        if self.asked:
            return True
        with contextlib.suppress(InterruptedError):
            select.select([self._read], [], [], timeout)
        try:
            got = os.read(self._read, 512)
        except (BlockingIOError, InterruptedError):
            got = b""
        if any(byte == _ASKED or byte in self.signals for byte in got):
            self.asked = True
        return self.asked
