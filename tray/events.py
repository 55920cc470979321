"""Plain-data events carried on the bus.

Every event is a frozen dataclass of JSON-friendly fields with a `type` name, so the same objects
can go to the journal, the web page and (later) an MQTT adapter without a translation layer.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, ClassVar


@dataclasses.dataclass(frozen=True, slots=True)
class Event:
    type: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, **dataclasses.asdict(self)}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))


_REGISTRY: dict[str, type[Event]] = {}


def event_type(cls: type[Event]) -> type[Event]:
    """Register an event class under its `type` name so `from_dict` can rebuild it."""
    if cls.type in _REGISTRY:
        raise ValueError(f"event type {cls.type!r} registered twice")
    _REGISTRY[cls.type] = cls
    return cls


def from_dict(data: dict[str, Any]) -> Event:
    """Rebuild an event from `to_dict` output; unknown types or fields raise ValueError."""
    if not isinstance(data, dict) or "type" not in data:
        raise ValueError("an event is a JSON object with a 'type' field")
    fields = dict(data)
    name = fields.pop("type")
    cls = _REGISTRY.get(name)
    if cls is None:
        raise ValueError(f"unknown event type {name!r}")
    try:
        return cls(**fields)
    except TypeError as exc:
        raise ValueError(f"bad fields for event {name!r}: {exc}") from None


def from_json(text: str) -> Event:
    return from_dict(json.loads(text))


@event_type
@dataclasses.dataclass(frozen=True, slots=True)
class ButtonPressed(Event):
    """A debounced tap of the Tinker Bell button (released before the hold time)."""

    type: ClassVar[str] = "button_pressed"
    t: float
    source: str = "gpio"


@event_type
@dataclasses.dataclass(frozen=True, slots=True)
class ButtonHeld(Event):
    """The button has been held down for the hold time (fires once per hold)."""

    type: ClassVar[str] = "button_held"
    t: float
    seconds: float
    source: str = "gpio"


@event_type
@dataclasses.dataclass(frozen=True, slots=True)
class LinkHeld(Event):
    """The physical button has been held for the link time (about 3 s): someone is at the
    tray, as a smart-home bridge's link button proves. The display opens its pairing window
    (a phone may become host). Only a tray's own button sends it, never a virtual press."""

    type: ClassVar[str] = "link_held"
    t: float
    seconds: float
    source: str = "gpio"


@event_type
@dataclasses.dataclass(frozen=True, slots=True)
class Pick(Event):
    """Tinker Bell's colour choice: `seq` rises by one per pick so a table can audit them.
    `t` is when it was made (wall clock, for people and the journal). `lead` is the light its
    show starts on (drawn apart from the colour; None: no show).

    `shown_at` and `settles_at` are when the show's first frame was due and when its lights
    land on the colour, both on `time.monotonic()` (the clock the tray's scheduler times the
    show on; system-wide on one machine). Nothing may name the colour before `settles_at`; so a
    display asks the pick, not the show settings, when to reveal it. None: no show was played
    (a tray that failed, or a pick made elsewhere), and the pick may be shown at once."""

    type: ClassVar[str] = "pick"
    seq: int
    colour: str
    t: float
    source: str = "tray"
    lead: str | None = None
    shown_at: float | None = None
    settles_at: float | None = None

    def hidden(self, now: float) -> bool:
        """True while the lights are still on their way to the colour (`now`: monotonic)."""
        return self.settles_at is not None and now < self.settles_at


@event_type
@dataclasses.dataclass(frozen=True, slots=True)
class PickSettled(Event):
    """The lights have landed on pick `seq`: from now on anything may name its colour. The tray
    service publishes it once per pick, at `Pick.settles_at`, from the timer that already
    chimes the landing (no thread of its own)."""

    type: ClassVar[str] = "pick_settled"
    seq: int


@event_type
@dataclasses.dataclass(frozen=True, slots=True)
class Fault(Event):
    """Something the people at the table should know went wrong (stuck button, unplugged tray)."""

    type: ClassVar[str] = "fault"
    kind: str
    message: str
    t: float
