"""A small fake of MicroPython's `machine` module: just what the reference firmware touches.

The firmware is handed its `machine` module, so under CPython (tests, the emulator) it gets this
one. Tests and the emulator press the button with `Pin.drive(level)`, which calls the IRQ handler
in the caller's thread, as a real interrupt would interrupt the main loop.
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id: int, mode: int = -1, pull: int | None = None) -> None:
        self.id = id
        self.mode = mode
        self._level = 1 if pull == Pin.PULL_UP else 0
        self._handler: Callable[[Pin], None] | None = None
        self._trigger = 0
        self._lock = threading.Lock()

    def value(self, level: int | None = None) -> int | None:
        if level is None:
            return self._level
        self._level = 1 if level else 0
        return None

    def irq(
        self, handler: Callable[[Pin], None] | None = None, trigger: int = 0, hard: bool = False
    ) -> None:
        self._handler, self._trigger = handler, trigger

    def drive(self, level: int) -> None:
        """Test side: set the input level, firing the IRQ on a matching edge."""
        with self._lock:
            old, self._level = self._level, 1 if level else 0
            edge = (Pin.IRQ_RISING if self._level else Pin.IRQ_FALLING) if old != self._level else 0
            handler = self._handler if edge & self._trigger else None
        if handler is not None:
            handler(self)


class PWM:
    def __init__(self, pin: Pin, freq: int | None = None, duty_u16: int | None = None) -> None:
        self.pin = pin
        self._freq = freq or 1000
        self._duty = duty_u16 or 0

    def freq(self, value: int | None = None) -> int | None:
        if value is None:
            return self._freq
        if not 8 <= value <= 62_500_000:  # the rp2 range; the real PWM raises too
            raise ValueError(f"freq {value} out of range")
        self._freq = value
        return None

    def duty_u16(self, value: int | None = None) -> int | None:
        if value is None:
            return self._duty
        if not 0 <= value <= 65535:
            raise ValueError(f"duty {value} out of range")
        self._duty = value
        return None

    def deinit(self) -> None:
        self._duty = 0
