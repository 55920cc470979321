"""A USB microcontroller tray (a Pico running the reference firmware) as a `tray.backend.Tray`.

    tray = firmware_bridge.open_tray("auto")            # a real tray, found by USB id
    tray = firmware_bridge.open_tray(emulate=True)      # the firmware emulated on a pty

Heavier modules (pyserial, the emulator) load only when `open_tray` is called, so importing this
package costs nothing on start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from firmware_bridge.host import BridgeSettings
    from firmware_bridge.tray import SerialTray

__all__ = ["open_tray"]


def open_tray(
    port: str = "auto", *, emulate: bool = False, settings: BridgeSettings | None = None
) -> SerialTray:
    """A tray on `port` ("auto", "auto:SERIALNUMBER", a device path or a pyserial URL).

    With `emulate=True` the reference firmware is started on a pseudo-terminal and `port` is
    ignored; `close()` stops the emulator too. The tray connects in the background once
    `open(deliver)` is called and keeps reconnecting; problems arrive as `Fault` events.
    """
    from firmware_bridge.tray import SerialTray

    if emulate:
        from firmware_bridge.emulator import Emulator

        emulator = Emulator()
        emulator.start()
        return SerialTray(
            "emulator", settings=settings, resolve=lambda: emulator.path, emulator=emulator
        )
    return SerialTray(port, settings=settings)
