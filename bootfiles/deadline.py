"""A bound on a reader's time: each file is bounded in size, depth and aliases, so a run takes a
fraction of a second; this is the last guard against what those bounds missed, so that the boot
(which waits for the readers: the network and the tray start after them) goes on all the same.
systemd gives a oneshot unit no time limit of its own."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

SECONDS = 10


class TooLong(BaseException):
    """A BaseException, so that no `except Exception` in a reader swallows it."""


@contextmanager
def deadline(seconds: float = SECONDS) -> Iterator[None]:
    """Raise TooLong in the main thread once `seconds` have passed inside the block."""

    def expired(signum: int, frame: FrameType | None) -> None:
        raise TooLong

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
