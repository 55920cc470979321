"""MicroPython's tick arithmetic, for the firmware when it runs under CPython (the emulator, the
tests): `ticks_ms()` values live in [0, 2**30) and wrap, as on a Pico (every 12.4 days).

A tick value outside that range is refused with ValueError. MicroPython's own ticks_diff gives
garbage for one (a deadline made with `+` past the wrap: a show freezes, a tune never ends); a
faithful modular sum here would hide that very bug, so it fails loudly instead."""

from __future__ import annotations

import time

TICKS_PERIOD = 1 << 30
TICKS_MAX = TICKS_PERIOD - 1
_HALF = TICKS_PERIOD // 2


def _check(ticks: int) -> int:
    if not 0 <= ticks <= TICKS_MAX:
        raise ValueError(
            f"tick value {ticks} is outside the counter's range 0..2**30-1 "
            "(a deadline made with + instead of ticks_add?)"
        )
    return ticks


def ticks_add(ticks: int, delta: int) -> int:
    """`ticks` moved by `delta` ms (either sign), wrapped into the counter's range."""
    return (_check(ticks) + delta) & TICKS_MAX


def ticks_diff(a: int, b: int) -> int:
    """Signed distance from `b` to `a`, right while it is under 2**29 ms either way."""
    return ((_check(a) - _check(b) + _HALF) & TICKS_MAX) - _HALF


class MonotonicClock:
    """ticks_ms from the host's monotonic clock, starting at `start` (the emulator's: a test
    can boot it just before the wrap)."""

    ticks_add = staticmethod(ticks_add)
    ticks_diff = staticmethod(ticks_diff)

    def __init__(self, start: int = 0) -> None:
        self._origin = time.monotonic_ns() // 1_000_000 - start

    def ticks_ms(self) -> int:
        return (time.monotonic_ns() // 1_000_000 - self._origin) & TICKS_MAX


class HandClock:
    """A clock that moves only when told to (`advance`), wrapping like the Pico's."""

    ticks_add = staticmethod(ticks_add)
    ticks_diff = staticmethod(ticks_diff)

    def __init__(self, start: int = 0) -> None:
        self.ms = start & TICKS_MAX

    def ticks_ms(self) -> int:
        return self.ms

    def advance(self, ms: int) -> None:
        self.ms = ticks_add(self.ms, ms)
