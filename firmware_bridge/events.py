"""Events the bridge adds to those of `tray.events` (registered, so they round-trip as JSON)."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from tray.events import Event, event_type


@event_type
@dataclasses.dataclass(frozen=True, slots=True)
class TrayLinked(Event):
    """A USB tray answered the handshake (at start, or after a reconnect): the fault is over."""

    type: ClassVar[str] = "tray_linked"
    port: str
    firmware: str
    board: str
    t: float
