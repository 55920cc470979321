"""The tray interface: what the service needs from a tray, whatever it is built from.

A tray reports the Tinker Bell button and shows frames of light; it does not pick colours. The
service makes the fair pick and computes the show, so the GPIO backend (gpiozero pins) and the
USB backend (`firmware_bridge`) are interchangeable and the audit trail of picks has one source.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from tray.events import Event

COLOURS: tuple[str, str, str, str] = ("red", "blue", "green", "yellow")
"""The tray's four lights and Tinker Bell's colours, in order. Its own: the tray imports nothing
of the engine (a contract in pyproject.toml); tests/test_colours.py holds the engine's to it."""
"""The four colour-selector lights, in this fixed order everywhere (frames, pin maps, wire)."""

Levels = tuple[float, float, float, float]
"""Brightness of each light, 0.0 (off) to 1.0 (full), in COLOURS order."""

DARK: Levels = (0.0, 0.0, 0.0, 0.0)


@dataclasses.dataclass(frozen=True, slots=True)
class Frame:
    """One step of a light show: these levels, held for `seconds`."""

    levels: Levels
    seconds: float


@dataclasses.dataclass(frozen=True, slots=True)
class Capabilities:
    leds: int = 4
    pwm: bool = True
    buzzer: bool = False
    link_hold: bool = False  # a long hold of its button opens the display's pairing window


Deliver = Callable[[Event], None]
"""Where a tray hands its input events (ButtonPressed, ButtonHeld, Fault). It may be called from
any thread (a GPIO backend's callback thread, a serial reader); it must be quick and never raise.
"""


class UnknownTune(ValueError):
    """`Tray.buzz` was asked for a tune no tray knows (every tray refuses it the same way)."""


class Loop(Protocol):
    """One thread that runs jobs in order and timers on `clock` (`tray.player.Scheduler`)."""

    clock: Callable[[], float]

    def call_soon(self, fn: Callable[..., Any], *args: Any) -> None: ...

    def call_at(self, when: float, fn: Callable[..., Any], *args: Any) -> None: ...

    def alive(self, timeout: float = 1.0) -> bool: ...

    def in_thread(self) -> bool: ...

    def close(self, timeout: float = 2.0) -> None: ...


@runtime_checkable
class Tray(Protocol):
    """What the service needs from a tray; the GPIO tray (real or MockFactory pins, which is the
    emulator too) and the USB tray (`firmware_bridge.tray.SerialTray`) honour it alike, and
    tests/tray/test_backends.py holds each of them to it."""

    name: str

    @property
    def capabilities(self) -> Capabilities: ...

    @property
    def scheduler(self) -> Loop | None:
        """The loop thread the tray runs its outputs on, lent to the service so an input edge
        crosses threads once (the GPIO tray); None: the service runs a loop of its own (the USB
        tray, whose port thread must never run the service's handlers). `close()` closes it."""

    def open(self, deliver: Deliver) -> None:
        """Start reporting input events through `deliver`."""

    def play(self, frames: Sequence[Frame]) -> None:
        """Start showing `frames` (returns at once); a new call replaces a show in progress."""

    def set_lights(self, levels: Levels) -> None:
        """Show these levels now and keep them (stops any show in progress)."""

    def buzz(self, tune: str) -> None:
        """Play a named tune of `tray.tunes.TUNES` if the tray has a buzzer, else nothing. A name
        that is not in the table raises `UnknownTune`, buzzer or not (a programming error)."""

    def healthy(self) -> bool:
        """For the service's watchdog: the tray's own threads still do their work (a USB tray
        that is unplugged but still looking for its device is healthy)."""

    def close(self) -> None:
        """Lights off, inputs and pins released. Safe to call twice."""
