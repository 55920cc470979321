"""`SerialTray`: a USB microcontroller tray behind the same `Tray` interface as the GPIO one."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from firmware_bridge.emulator import Emulator
from firmware_bridge.host import Bridge, BridgeSettings
from firmware_bridge.ports import resolver
from tray.backend import Capabilities, Deliver, Frame, Levels, Loop
from tray.tunes import tune

log = logging.getLogger(__name__)


class SerialTray:
    """The tray over a serial link. The host never picks: `play` ships the service's show.

    `capabilities` are those the device announced in its last hello (a 4-LED PWM tray without a
    buzzer until one has answered).
    """

    name = "serial"
    scheduler: Loop | None = None  # the port thread never runs the service's handlers

    def __init__(
        self,
        port: str = "auto",
        *,
        settings: BridgeSettings | None = None,
        resolve: Callable[[], str | None] | None = None,
        emulator: Emulator | None = None,
    ) -> None:
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

    def buzz(self, name: str) -> None:
        """The tune from the one table (`tray.tunes`), as notes for the firmware's buzzer;
        `UnknownTune` for a name it does not hold, as on every tray."""
        notes = tune(name).notes()
        self._need_open().buzz(notes)

    def healthy(self) -> bool:
        """The port thread runs (linked, or still looking for the device: it reconnects by
        itself, so an unplugged tray is no reason for the watchdog to restart the service)."""
        return self.bridge is not None and self.bridge.running

    def close(self) -> None:
        if self.bridge is not None:
            self.bridge.stop()
        if self._emulator is not None:
            self._emulator.unplug()
            self._emulator = None
