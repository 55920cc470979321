"""The tray interface: what the service needs from a tray, whatever it is built from.

A tray reports the Tinker Bell button and shows frames of light; it does not pick colours. The
service makes the fair pick and computes the show, so the GPIO backend (gpiozero pins) and the
USB backend (`firmware_bridge`) are interchangeable and the audit trail of picks has one source.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from tray.events import Event

COLOURS: tuple[str, str, str, str] = ("red", "blue", "green", "yellow")
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


Deliver = Callable[[Event], None]
"""Where a tray hands its input events (ButtonPressed, ButtonHeld, Fault). It may be called from
any thread (a GPIO backend's callback thread, a serial reader); it must be quick and never raise.
"""


@runtime_checkable
class Tray(Protocol):
    name: str
    capabilities: Capabilities

    def open(self, deliver: Deliver) -> None:
        """Start reporting input events through `deliver`."""

    def play(self, frames: Sequence[Frame]) -> None:
        """Start showing `frames` (returns at once); a new call replaces a show in progress."""

    def set_lights(self, levels: Levels) -> None:
        """Show these levels now and keep them (stops any show in progress)."""

    def buzz(self, tune: str) -> None:
        """Play a named tune ("press", "pick") if the tray has a buzzer; otherwise do nothing."""

    def close(self) -> None:
        """Lights off, inputs and pins released. Safe to call twice."""
