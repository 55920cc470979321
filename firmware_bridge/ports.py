"""Finding the tray's serial port: by USB VID:PID (and serial number), preferring by-id paths.

`/dev/ttyACM0` can change when other devices come and go; `/dev/serial/by-id/usb-...` names the
device itself, so that is what we report and open when it exists.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterable

from serial.tools import list_ports

PICO_VID = 0x2E8A
PICO_PID = 0x0005  # MicroPython on an RP2040/RP2350 board
BY_ID = "/dev/serial/by-id"


@dataclasses.dataclass(frozen=True, slots=True)
class Candidate:
    device: str  # the kernel's name, e.g. /dev/ttyACM0
    path: str  # what to open: the by-id link when there is one
    vid: int | None
    pid: int | None
    serial_number: str | None
    description: str

    @property
    def is_tray(self) -> bool:
        return (self.vid, self.pid) == (PICO_VID, PICO_PID)

    @property
    def usb_id(self) -> str:
        return "-" if self.vid is None else f"{self.vid:04X}:{self.pid or 0:04X}"


def by_id_links(directory: str = BY_ID) -> dict[str, str]:
    """Map real device path -> its /dev/serial/by-id link (empty when the directory is absent)."""
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return {}
    return {os.path.realpath(os.path.join(directory, n)): os.path.join(directory, n) for n in names}


def candidates(
    comports: Callable[[], Iterable] | None = None, links: dict[str, str] | None = None
) -> list[Candidate]:
    """Every serial port, trays (2E8A:0005) first."""
    comports = comports or list_ports.comports
    links = by_id_links() if links is None else links
    found = [
        Candidate(
            device=info.device,
            path=links.get(os.path.realpath(info.device), info.device),
            vid=info.vid,
            pid=info.pid,
            serial_number=info.serial_number,
            description=info.description or "",
        )
        for info in comports()
    ]
    return sorted(found, key=lambda c: (not c.is_tray, c.device))


class AmbiguousPort(LookupError):
    """Several trays are plugged in and no serial number says which one to use."""


def find_port(
    serial_number: str | None = None,
    comports: Callable[[], Iterable] | None = None,
    links: dict[str, str] | None = None,
) -> str | None:
    """The path of the tray (matching `serial_number` if given), or None if none is plugged in."""
    trays = [
        c
        for c in candidates(comports, links)
        if c.is_tray and (serial_number is None or c.serial_number == serial_number)
    ]
    if len(trays) > 1:
        numbers = ", ".join(str(c.serial_number) for c in trays)
        raise AmbiguousPort(
            f"{len(trays)} trays plugged in ({numbers}); choose one with "
            "--serial auto:SERIALNUMBER or a /dev/serial/by-id path"
        )
    return trays[0].path if trays else None


def resolver(port: str) -> Callable[[], str | None]:
    """How the bridge finds its port on every (re)connect.

    "auto" and "auto:SERIALNUMBER" rescan USB each time (the tray may come back as another
    ttyACM); a path is used as given once it exists; a pyserial URL (socket://, rfc2217://) as is.
    """
    if port == "auto" or port.startswith("auto:"):
        number = port.partition(":")[2] or None
        return lambda: find_port(number)
    if "://" in port:
        return lambda: port
    return lambda: port if os.path.exists(port) else None
