"""`SerialTray`: a USB microcontroller tray behind the same `Tray` interface as the GPIO one."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from firmware_bridge.emulator import Emulator
from firmware_bridge.host import Bridge, BridgeSettings
from firmware_bridge.ports import resolver
from tray.backend import Capabilities, Deliver, Frame, Levels

log = logging.getLogger(__name__)

# Named tunes for Tray.buzz: (frequency in Hz or 0 for a rest, milliseconds) per note.
TUNES: dict[str, tuple[tuple[int, int], ...]] = {
    "press": ((1760, 40),),
    "pick": ((1319, 80), (0, 20), (1568, 80), (0, 20), (2093, 160)),
    "fault": ((440, 150), (0, 50), (330, 250)),
}


class SerialTray:
    """The tray over a serial link. The host never picks: `play` ships the service's show.

    `capabilities` are those the device announced in its last hello (a 4-LED PWM tray without a
    buzzer until one has answered).
    """

    name = "serial"

    def __init__(self, port: str = "auto", *, settings: BridgeSettings | None = None,
                 resolve: Callable[[], str | None] | None = None,
                 emulator: Emulator | None = None) -> None:
        self.port = port
        self._settings = settings
        self._resolve = resolve or resolver(port)
        self._emulator = emulator
        self.bridge: Bridge | None = None

    @property
    def capabilities(self) -> Capabilities:
        device = self.bridge.device if self.bridge else None
        if device is None:
            return Capabilities(leds=4, pwm=True, buzzer=False)
        return Capabilities(leds=device.leds, pwm=device.pwm, buzzer=device.buzzer)

    def open(self, deliver: Deliver) -> None:
        if self.bridge is not None:
            raise RuntimeError("this tray is already open")
        self.bridge = Bridge(self._resolve, deliver, settings=self._settings)
        self.bridge.start()

    def _need_open(self) -> Bridge:
        if self.bridge is None:
            raise RuntimeError("open() the tray first")
        return self.bridge

    def play(self, frames: Sequence[Frame]) -> None:
        self._need_open().play(frames)

    def set_lights(self, levels: Levels) -> None:
        self._need_open().set_lights(levels)

    def buzz(self, tune: str) -> None:
        notes = TUNES.get(tune)
        if notes is None:
            raise ValueError(f"unknown tune {tune!r}; known: {', '.join(TUNES)}")
        self._need_open().buzz(notes)

    def close(self) -> None:
        if self.bridge is not None:
            self.bridge.stop()
        if self._emulator is not None:
            self._emulator.unplug()
            self._emulator = None
