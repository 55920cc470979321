"""At most a few updates a second to the club's pages, each the latest board.

Every message that changes the board asks for the pages to be told (`poke`); a flood of them
(thousands a second from any publisher on the broker) must not become thousands of events to
every open page, each a few kilobytes (one page once received 123 MB in 20 s). `Paced` wakes
the pages at once when they were last woken `interval` ago or more, and otherwise once at the
end of the interval: whatever came in between is then read as one, since each page sends the
board as it stands when woken (and only the tables that changed since its last event). So a
page gets at most one event per interval, and the last change always reaches it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

UPDATES_PER_S = 4
"""How often a club page may be sent the board, at most (a pick shows within 0.25 s)."""


class Paced:
    """Calls `wake()` at most once per `interval` seconds, however often `poke()` is called; a
    poke inside the interval is delivered at its end (never lost, never delayed longer)."""

    def __init__(self, wake: Callable[[], None], interval: float) -> None:
        self._wake = wake
        self.interval = interval
        self._lock = threading.Lock()
        self._last = float("-inf")  # monotonic time of the last wake
        self._timer: threading.Timer | None = None
        self._closed = False
        self.wakes = 0

    def poke(self) -> None:
        with self._lock:
            if self._closed or self._timer is not None:
                return  # the wake at the end of this interval will read this change too
            wait = self._last + self.interval - time.monotonic()
            if wait > 0:
                self._timer = threading.Timer(wait, self._due)
                self._timer.daemon = True
                self._timer.start()
                return
            self._woken()
        self._wake()

    def _due(self) -> None:
        with self._lock:
            self._timer = None
            if self._closed:
                return
            self._woken()
        self._wake()

    def _woken(self) -> None:
        """(Under the lock.) A wake is going out now: the next interval starts."""
        self._last = time.monotonic()
        self.wakes += 1

    def close(self) -> None:
        with self._lock:
            self._closed = True
            timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()
