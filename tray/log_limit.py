"""An error repeated by the thousand is logged a few times a minute, with a count of the rest.

A flood (a client opening connections as fast as it can, a full disk) must not fill the Pi's
SD card with the same traceback: `RepeatLimit` lets the first `burst` records of one kind through
in each `window` seconds and drops the rest; the first record let through after a quiet spell
says how many were dropped. A kind is the logger, the level, the message's template (not its
arguments: "refused %s" from a thousand addresses is one kind) and the exception's type.
It lives in tray/, the room the bridge and the scoreboard both build on, so they share it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

Kind = tuple[str, int, str, str]


class RepeatLimit(logging.Filter):
    def __init__(
        self, burst: int = 5, window: float = 60.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__()
        self.burst, self.window, self.clock = burst, window, clock
        self._lock = threading.Lock()
        self._seen: dict[Kind, tuple[float, int, int]] = {}  # kind: (window start, let, dropped)

    def filter(self, record: logging.LogRecord) -> bool:
        kind = _kind(record)
        now = self.clock()
        with self._lock:
            start, let, dropped = self._seen.get(kind, (now, 0, 0))
            if now - start >= self.window:
                start, let = now, 0
            if let >= self.burst:
                self._seen[kind] = (start, let, dropped + 1)
                return False
            self._seen[kind] = (start, let + 1, 0)
            if len(self._seen) > 1000:  # kinds are few; never let the table itself grow
                self._seen = {kind: self._seen[kind]}
        if dropped:
            # Appended to the template, which holds no % of ours: the arguments still apply.
            record.msg = f"{record.msg} [{dropped} more like this not logged]"
        return True


def _kind(record: logging.LogRecord) -> Kind:
    error = record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] else ""
    return (record.name, record.levelno, str(record.msg), error)


def limit_repeats(*loggers: str, limit: RepeatLimit | None = None) -> RepeatLimit:
    """Put one `RepeatLimit` on each named logger (once: adding it again changes nothing)."""
    limit = limit or SHARED
    for name in loggers:
        logging.getLogger(name).addFilter(limit)
    return limit


SHARED = RepeatLimit()
"""The one limit on the loggers a server's flood would fill (asyncio's, uvicorn's)."""
