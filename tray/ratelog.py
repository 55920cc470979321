"""A logger for errors that can arrive by the thousand (a device flooding ERROR frames, a client
exhausting file descriptors): the first few lines in each minute are written as they come, the
rest are counted and summed up in one line when the next minute opens. The log on a Pi's SD card
then grows by a few lines a minute, whatever the cause does."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable


class RateLimitedLog:
    def __init__(
        self,
        logger: logging.Logger,
        *,
        per_minute: int = 10,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._logger = logger
        self._per_minute = per_minute
        self._clock = clock
        self._lock = threading.Lock()
        self._window_start = -60.0
        self._written = 0
        self._suppressed = 0

    def warning(self, message: str, *args: object) -> None:
        self.log(logging.WARNING, message, *args)

    def log(self, level: int, message: str, *args: object) -> None:
        with self._lock:
            now = self._clock()
            suppressed = 0
            if now - self._window_start >= 60.0:
                suppressed, self._suppressed = self._suppressed, 0
                self._window_start, self._written = now, 0
            write = self._written < self._per_minute
            if write:
                self._written += 1
            else:
                self._suppressed += 1
        if suppressed:
            self._logger.log(level, "... and %d more like it in the last minute", suppressed)
        if write:
            self._logger.log(level, message, *args)
