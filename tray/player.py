"""One scheduler thread that owns a tray's outputs and timers.

gpiozero's own `blink()`/`pulse()` start a thread per LED, and the button's hold detection another;
on a Pi Zero 2 W every thread costs memory and jitter. Here one thread runs everything in order:
jobs handed in from other threads (`call_soon`, thread-safe), timers (`call_later`), the light
frames of a show and the buzzer's tunes. Only this thread writes the output pins, so frames never
interleave, and a new show simply replaces the old one (a generation counter voids its timers).

A job that raises is logged and the thread carries on: one bad job must never stop the lights or
the button.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from tray.backend import DARK, Frame, Levels

log = logging.getLogger(__name__)

Sound = bool | float | None
"""One buzzer step's value: on/off for an active buzzer; a frequency in Hz, or None for a rest,
for a passive one. False and None are silence for both."""


class Scheduler:
    """A tiny single-threaded event loop: FIFO jobs plus a heap of timers."""

    def __init__(self, name: str = "tray-scheduler", clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self._cond = threading.Condition()
        self._timers: list[tuple[float, int, Callable[..., Any], tuple[Any, ...]]] = []
        self._order = itertools.count()
        self._closing = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def call_soon(self, fn: Callable[..., Any], *args: Any) -> None:
        self.call_at(float("-inf"), fn, *args)

    def call_later(self, delay: float, fn: Callable[..., Any], *args: Any) -> None:
        self.call_at(self.clock() + delay, fn, *args)

    def call_at(self, when: float, fn: Callable[..., Any], *args: Any) -> None:
        with self._cond:
            if self._closing:
                return
            heapq.heappush(self._timers, (when, next(self._order), fn, args))
            self._cond.notify()

    def alive(self, timeout: float = 1.0) -> bool:
        """A health check: True if the thread runs a job within `timeout` seconds."""
        done = threading.Event()
        self.call_soon(done.set)
        return done.wait(timeout)

    def pending(self) -> int:
        """Jobs and timers not yet run (tests wait for 0 instead of sleeping on a guess)."""
        with self._cond:
            return len(self._timers)

    def in_thread(self) -> bool:
        return threading.current_thread() is self._thread

    def close(self, timeout: float = 2.0) -> None:
        """Run the jobs already due, then stop the thread."""
        with self._cond:
            self._closing = True
            self._cond.notify()
        if not self.in_thread():
            self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                while True:
                    now = self.clock()
                    if self._timers and self._timers[0][0] <= now:
                        _, _, fn, args = heapq.heappop(self._timers)
                        break
                    if self._closing:
                        return
                    wait = self._timers[0][0] - now if self._timers else None
                    self._cond.wait(wait)
            try:
                fn(*args)
            except Exception:
                log.exception("tray scheduler job %r failed", fn)


class Player:
    """Plays frames (and buzzer steps) on a Scheduler; the last frame's levels stay on."""

    def __init__(
        self,
        scheduler: Scheduler,
        show: Callable[[Levels], None],
        sound: Callable[[Sound], None] | None = None,
    ) -> None:
        self.scheduler = scheduler
        self._show = show
        self._sound = sound
        self._light_gen = 0
        self._sound_gen = 0
        self.levels: Levels = DARK

    # Thread-safe entry points: each hands the work to the scheduler thread.
    def play(self, frames: Sequence[Frame]) -> None:
        if self.scheduler.in_thread():  # e.g. the service handling a tap: the first frame now
            self._start(tuple(frames))
        else:
            self.scheduler.call_soon(self._start, tuple(frames))

    def set_lights(self, levels: Levels) -> None:
        self.play((Frame(levels, 0.0),))

    def buzz(self, steps: Sequence[tuple[Sound, float]]) -> None:
        """Play (value, seconds) steps on the buzzer, then fall silent; replaces a tune still
        playing. The steps' values are whatever the `sound` callable takes."""
        if self._sound is not None:
            self.scheduler.call_soon(self._start_sound, tuple(steps))

    # Scheduler thread only.
    def _start(self, frames: tuple[Frame, ...]) -> None:
        self._light_gen += 1
        self._step(self._light_gen, frames, 0, self.scheduler.clock())

    def _step(self, gen: int, frames: tuple[Frame, ...], i: int, due: float) -> None:
        if gen != self._light_gen or i >= len(frames):
            return
        frame = frames[i]
        self.levels = frame.levels
        self._show(frame.levels)
        if i + 1 < len(frames):  # schedule from the planned time, so errors do not accumulate
            self.scheduler.call_at(
                due + frame.seconds, self._step, gen, frames, i + 1, due + frame.seconds
            )

    def _start_sound(self, steps: tuple[tuple[Sound, float], ...]) -> None:
        self._sound_gen += 1
        self._sound_step(self._sound_gen, steps, 0, self.scheduler.clock())

    def _sound_step(self, gen: int, steps: tuple[tuple[Sound, float], ...], i: int, due: float):
        if gen != self._sound_gen or self._sound is None:
            return
        if i >= len(steps):
            self._sound(None)
            return
        value, seconds = steps[i]
        self._sound(value)
        self.scheduler.call_at(due + seconds, self._sound_step, gen, steps, i + 1, due + seconds)
