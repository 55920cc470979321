"""Typed messages over the shared wire format (`firmware/wire.py`), for the host side.

Each message is a frozen dataclass declared by its layout, not by code: `FIXED`, the struct
format of its fixed part (from wire.py, so host and firmware share one definition of every
layout), whose values fill the dataclass fields in order (`GROUPS` gathers several into one tuple
field); `TAIL`, what follows it (`Repeated` structs, length-prefixed `Strings`, or the rest as
`Text`); and `LIMITS`, the values each field may take. One generic `pack()` and `unpack()` serve
every message; `unpack` refuses a payload that does not fit (`ProtocolError`) and a field outside
its limits (`FieldError`, naming the message, the field, the value and what is allowed): a
device's word is never trusted to be sane, since a value such as `max_show = 0` would send the
host into an endless loop.

`encode(msg, seq)` makes a whole frame; `Decoder` turns a byte stream into messages, counts what
it had to drop, and keeps the latest refusals so the link can say why it gave up on a device.
"""

from __future__ import annotations

import collections
import dataclasses
import struct
from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar

from firmware_bridge.firmware import wire
from firmware_bridge.firmware.wire import PROTOCOL_MAJOR, PROTOCOL_MINOR

__all__ = ["PROTOCOL_MAJOR", "PROTOCOL_MINOR", "Decoder", "FieldError", "ProtocolError", "encode"]

M = TypeVar("M", bound="Message")

MAX_SHOW_FRAMES = 4096
"""The most frames a device may say it stores (a Pico has room for a few thousand at most)."""
MAX_DURATION_MS = 24 * 3600 * 1000
"""The longest press a device may report (a day: anything longer is a broken clock)."""


class ProtocolError(ValueError):
    """A frame arrived intact but its payload does not fit its message type."""


class FieldError(ProtocolError):
    """A payload fits its layout, but a field holds a value the protocol does not allow."""


@dataclasses.dataclass(frozen=True, slots=True)
class Range:
    """A whole number from `lo` to `hi` inclusive."""

    lo: int
    hi: int

    def allows(self, value: Any) -> bool:
        return isinstance(value, int) and self.lo <= value <= self.hi

    def __str__(self) -> str:
        return f"{self.lo} to {self.hi}"


@dataclasses.dataclass(frozen=True, slots=True)
class OneOf:
    """One of a few listed values."""

    values: tuple[int, ...]

    def allows(self, value: Any) -> bool:
        return value in self.values

    def __str__(self) -> str:
        return "one of " + ", ".join(str(v) for v in self.values)


@dataclasses.dataclass(frozen=True, slots=True)
class Printable:
    """Text without control characters (it ends up in logs, events and pages)."""

    def allows(self, value: Any) -> bool:
        return isinstance(value, str) and value.isprintable()

    def __str__(self) -> str:
        return "printable text"


Limit = Range | OneOf | Printable


@dataclasses.dataclass(frozen=True, slots=True)
class Repeated:
    """The rest of the payload is whole `fmt` structs, gathered as tuples into the last field;
    at most `most` of them."""

    fmt: str
    most: int

    def pack(self, items: Any) -> bytes:
        if len(items) > self.most:
            raise ProtocolError(f"at most {self.most} items, got {len(items)}")
        return b"".join(struct.pack(self.fmt, *item) for item in items)

    def unpack(self, body: bytes) -> tuple[Any, ...]:
        size = struct.calcsize(self.fmt)
        if len(body) % size:
            raise ProtocolError(f"{len(body)} bytes is not whole items of {size}")
        if len(body) // size > self.most:
            raise ProtocolError(f"at most {self.most} items, got {len(body) // size}")
        return (tuple(struct.iter_unpack(self.fmt, body)),)


@dataclasses.dataclass(frozen=True, slots=True)
class Strings:
    """The rest of the payload is `count` strings, each a length byte and up to `most` bytes of
    UTF-8, filling the last `count` fields (later minors may append more after them)."""

    count: int
    most: int = 32

    def pack(self, *texts: str) -> bytes:
        out = b""
        for text in texts:
            data = text.encode()
            if len(data) > self.most:
                raise ProtocolError(f"strings are at most {self.most} bytes")
            out += bytes((len(data),)) + data
        return out

    def unpack(self, body: bytes) -> tuple[str, ...]:
        out, at = [], 0
        for _ in range(self.count):
            if at >= len(body) or at + 1 + body[at] > len(body):
                raise ProtocolError("truncated string")
            end = at + 1 + body[at]
            try:
                out.append(body[at + 1 : end].decode())
            except UnicodeDecodeError:
                raise ProtocolError("string is not UTF-8") from None
            at = end
        return tuple(out)


@dataclasses.dataclass(frozen=True, slots=True)
class Text:
    """The rest of the payload is UTF-8 text (undecodable bytes replaced) in the last field."""

    def pack(self, text: str) -> bytes:
        return text.encode()

    def unpack(self, body: bytes) -> tuple[str]:
        return (body.decode(errors="replace"),)


Tail = Repeated | Strings | Text


@dataclasses.dataclass(frozen=True, slots=True)
class Message:
    """The generic codec; each subclass declares only its layout and limits."""

    TYPE: ClassVar[int] = -1
    FIXED: ClassVar[str] = "<"
    GROUPS: ClassVar[Mapping[str, int]] = {}  # field -> how many fixed values it gathers
    TAIL: ClassVar[Tail | None] = None
    EXACT: ClassVar[bool] = True  # no tail: the payload is exactly FIXED long
    LIMITS: ClassVar[Mapping[str, Limit]] = {}

    @classmethod
    def name(cls) -> str:
        return wire_name(cls.TYPE)

    @classmethod
    def _fixed_fields(cls) -> tuple[str, ...]:
        return _layout(cls)[0]

    def pack(self) -> bytes:
        fixed, tail = _layout(type(self))
        values: list[Any] = []
        for name in fixed:
            value = getattr(self, name)
            values.extend(value if name in self.GROUPS else (value,))
        try:
            out = struct.pack(self.FIXED, *values)
            if self.TAIL is not None:
                out += self.TAIL.pack(*(getattr(self, name) for name in tail))
        except (struct.error, ProtocolError) as exc:
            raise ProtocolError(f"{self.name()}: {exc}") from None
        return out

    @classmethod
    def unpack(cls: type[M], payload: bytes) -> M:
        size = struct.calcsize(cls.FIXED)
        if len(payload) < size or (cls.EXACT and cls.TAIL is None and len(payload) != size):
            expected = f"needs {size}" if len(payload) < size else f"expected {size}"
            raise ProtocolError(f"{cls.name()}: payload of {len(payload)} bytes, {expected}")
        flat = struct.unpack(cls.FIXED, payload[:size])
        if cls.GROUPS:
            values: list[Any] = []
            at = 0
            for name in _layout(cls)[0]:
                n = cls.GROUPS.get(name, 0)
                values.append(tuple(flat[at : at + n]) if n else flat[at])
                at += n or 1
        else:
            values = list(flat)
        if cls.TAIL is not None:
            try:
                values.extend(cls.TAIL.unpack(payload[size:]))
            except ProtocolError as exc:
                raise ProtocolError(f"{cls.name()}: {exc}") from None
        msg = cls(*values)
        msg.check()
        return msg

    def check(self) -> None:
        """Raise FieldError for the first field outside its declared limits."""
        for name, limit in self.LIMITS.items():
            value = getattr(self, name)
            if not limit.allows(value):
                raise FieldError(
                    f"{self.name()}: {name} = {value!r} is not allowed ({name} is {limit})"
                )


_TYPES: dict[int, type[Message]] = {}
_LAYOUTS: dict[type[Message], tuple[tuple[str, ...], tuple[str, ...]]] = {}


def _layout(cls: type[Message]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the fields the fixed part fills, the fields the tail fills) of a message class."""
    found = _LAYOUTS.get(cls)
    if found is None:
        names = tuple(f.name for f in dataclasses.fields(cls))
        tail = 0 if cls.TAIL is None else (cls.TAIL.count if isinstance(cls.TAIL, Strings) else 1)
        found = _LAYOUTS[cls] = (names[: len(names) - tail], names[len(names) - tail :])
    return found


def _register(cls: type[M]) -> type[M]:
    _TYPES[cls.TYPE] = cls
    return cls


def wire_name(msg_type: int) -> str:
    """The message type's name as PROTOCOL.md writes it (HELLO_REPLY), or its number."""
    for name in (
        "HELLO",
        "HELLO_REPLY",
        "HEARTBEAT",
        "HEARTBEAT_REPLY",
        "SET_LIGHTS",
        "SHOW_DATA",
        "SHOW_PLAY",
        "BUZZ",
        "ACK",
        "BUTTON",
        "ERROR",
    ):
        if getattr(wire, name) == msg_type:
            return name
    return f"type 0x{msg_type:02x}"


MODES = OneOf((wire.MODE_LINKED, wire.MODE_STANDALONE))
KINDS = OneOf((wire.KIND_DOWN, wire.KIND_UP, wire.KIND_HOLD, wire.KIND_RELEASE))


def _majors(msg: Hello | HelloReply) -> None:
    if not 1 <= msg.major_min <= msg.major_max:
        raise FieldError(
            f"{msg.name()}: majors {msg.major_min}..{msg.major_max} are not a "
            "range of protocol versions"
        )


@_register
@dataclasses.dataclass(frozen=True, slots=True)
class Hello(Message):
    """Host → device: the majors the host speaks, and the device's hold and lost-host times."""

    TYPE: ClassVar[int] = wire.HELLO
    FIXED: ClassVar[str] = wire.FMT_HELLO
    EXACT: ClassVar[bool] = False  # later minors may append
    major_min: int
    major_max: int
    minor: int
    hold_ms: int  # 0: the device's default (PROTOCOL.md)
    lost_ms: int

    def check(self) -> None:
        _majors(self)
        Message.check(self)


@_register
@dataclasses.dataclass(frozen=True, slots=True)
class HelloReply(Message):
    """Device → host: who it is, what it can do, and whether it ran stand-alone before."""

    TYPE: ClassVar[int] = wire.HELLO_REPLY
    FIXED: ClassVar[str] = wire.FMT_HELLO_REPLY
    TAIL: ClassVar[Tail | None] = Strings(2)
    LIMITS: ClassVar[Mapping[str, Limit]] = {
        "leds": Range(4, 4),  # the four colour lights; frames always carry four levels
        "max_show": Range(2, MAX_SHOW_FRAMES),
        "previous_mode": MODES,
        "firmware": Printable(),
        "board": Printable(),
    }
    major_min: int
    major_max: int
    minor: int
    leds: int
    features: int  # bits this host does not know are for later minors: ignored
    max_show: int
    previous_mode: int
    standalone_picks: int
    firmware: str
    board: str

    @property
    def pwm(self) -> bool:
        return bool(self.features & wire.FEATURE_PWM)

    @property
    def buzzer(self) -> bool:
        return bool(self.features & wire.FEATURE_BUZZER)

    def check(self) -> None:
        _majors(self)
        Message.check(self)


@_register
@dataclasses.dataclass(frozen=True, slots=True)
class Heartbeat(Message):
    TYPE: ClassVar[int] = wire.HEARTBEAT
    FIXED: ClassVar[str] = wire.FMT_HEARTBEAT
    token: int


@_register
@dataclasses.dataclass(frozen=True, slots=True)
class HeartbeatReply(Message):
    """Device → host: echoes the token; reports its clock, the state it shows, its mode."""

    TYPE: ClassVar[int] = wire.HEARTBEAT_REPLY
    FIXED: ClassVar[str] = wire.FMT_HEARTBEAT_REPLY
    LIMITS: ClassVar[Mapping[str, Limit]] = {"mode": MODES}
    token: int
    uptime_ms: int
    state_id: int
    mode: int
    rx_bad: int


Levels8 = tuple[int, int, int, int]


@_register
@dataclasses.dataclass(frozen=True, slots=True)
class SetLights(Message):
    """Host → device: the whole state of the four lights (idempotent), tagged with a state id."""

    TYPE: ClassVar[int] = wire.SET_LIGHTS
    FIXED: ClassVar[str] = wire.FMT_SET_LIGHTS
    GROUPS: ClassVar[Mapping[str, int]] = {"levels": 4}
    state_id: int
    levels: Levels8


ShowFrame = tuple[int, int, int, int, int]  # red, blue, green, yellow (0..255), milliseconds


@_register
@dataclasses.dataclass(frozen=True, slots=True)
class ShowData(Message):
    """Host → device: frames `first`.. of show `state_id` (a show spans several of these)."""

    TYPE: ClassVar[int] = wire.SHOW_DATA
    FIXED: ClassVar[str] = wire.FMT_SHOW_DATA
    TAIL: ClassVar[Tail | None] = Repeated(wire.FMT_SHOW_FRAME, wire.SHOW_FRAMES_PER_MESSAGE)
    state_id: int
    first: int
    frames: tuple[ShowFrame, ...]


@_register
@dataclasses.dataclass(frozen=True, slots=True)
class ShowPlay(Message):
    TYPE: ClassVar[int] = wire.SHOW_PLAY
    FIXED: ClassVar[str] = wire.FMT_SHOW_PLAY
    LIMITS: ClassVar[Mapping[str, Limit]] = {"count": Range(1, MAX_SHOW_FRAMES)}
    state_id: int
    count: int


@_register
@dataclasses.dataclass(frozen=True, slots=True)
class Buzz(Message):
    TYPE: ClassVar[int] = wire.BUZZ
    TAIL: ClassVar[Tail | None] = Repeated(wire.FMT_NOTE, wire.MAX_PAYLOAD // 4)
    notes: tuple[tuple[int, int], ...]  # (frequency_hz or 0 for a rest, milliseconds)


@_register
@dataclasses.dataclass(frozen=True, slots=True)
class Ack(Message):
    TYPE: ClassVar[int] = wire.ACK
    FIXED: ClassVar[str] = wire.FMT_ACK
    event_no: int


@_register
@dataclasses.dataclass(frozen=True, slots=True)
class Button(Message):
    """Device → host: a debounced button event, timed by the device's own clock."""

    TYPE: ClassVar[int] = wire.BUTTON
    FIXED: ClassVar[str] = wire.FMT_BUTTON
    LIMITS: ClassVar[Mapping[str, Limit]] = {
        "kind": KINDS,
        "duration_ms": Range(0, MAX_DURATION_MS),
    }
    event_no: int
    kind: int
    t_ms: int
    duration_ms: int


@_register
@dataclasses.dataclass(frozen=True, slots=True)
class Error(Message):
    TYPE: ClassVar[int] = wire.ERROR
    FIXED: ClassVar[str] = wire.FMT_ERROR
    TAIL: ClassVar[Tail | None] = Text()
    LIMITS: ClassVar[Mapping[str, Limit]] = {"text": Printable()}
    code: int  # codes this host does not know are for later minors: logged as they are
    ref_seq: int
    text: str


MESSAGE_TYPES: tuple[type[Message], ...] = tuple(_TYPES.values())


def encode(msg: Message, seq: int, major: int = PROTOCOL_MAJOR) -> bytes:
    """A whole frame (COBS, CRC, delimiter) carrying `msg`."""
    return wire.encode_frame(seq, msg.TYPE, msg.pack(), major)


@dataclasses.dataclass
class Counters:
    """What the link had to throw away, and why. Nothing here is ever fatal."""

    frames: int = 0
    garbled: int = 0  # not valid COBS
    bad_crc: int = 0
    too_short: int = 0
    too_long: int = 0
    unknown_type: int = 0
    bad_payload: int = 0  # does not fit its message's layout
    bad_field: int = 0  # fits, but a field is outside its limits
    wrong_major: int = 0
    seq_gaps: int = 0  # frames the sequence numbers say we never saw

    @property
    def dropped(self) -> int:
        return (
            self.garbled
            + self.bad_crc
            + self.too_short
            + self.too_long
            + self.unknown_type
            + self.bad_payload
            + self.bad_field
            + self.wrong_major
        )


@dataclasses.dataclass(frozen=True, slots=True)
class Received:
    seq: int
    major: int
    msg: Message


@dataclasses.dataclass(frozen=True, slots=True)
class Refused:
    """A message dropped because a field was outside its limits, and why."""

    seq: int
    msg_type: int
    problem: str


class Decoder:
    """Byte stream in, `Received` messages out; every drop is counted in `counters`, and the
    latest refusals are kept (`take_refused`) so the link can say why it gave up on a device."""

    def __init__(self, major: int = PROTOCOL_MAJOR) -> None:
        self.major = major
        self.counters = Counters()
        self.refused: collections.deque[Refused] = collections.deque(maxlen=8)
        self._deframer = wire.Deframer()
        self._last_seq: int | None = None

    def feed(self, data: bytes) -> list[Received]:
        out: list[Received] = []
        for major, seq, msg_type, payload in self._deframer.feed(data):
            cls = _TYPES.get(msg_type)
            if cls is None:
                self.counters.unknown_type += 1
                continue
            # HELLO, HELLO_REPLY and ERROR have one layout in every major; others must match.
            if major != self.major and msg_type not in (wire.HELLO, wire.HELLO_REPLY, wire.ERROR):
                self.counters.wrong_major += 1
                continue
            try:
                msg = cls.unpack(payload)
            except FieldError as exc:
                self.counters.bad_field += 1
                self.refused.append(Refused(seq, msg_type, str(exc)))
                continue
            except (ProtocolError, struct.error):
                self.counters.bad_payload += 1
                continue
            if self._last_seq is not None and seq != (self._last_seq + 1) & 0xFF:
                self.counters.seq_gaps += (seq - self._last_seq - 1) & 0xFF
            self._last_seq = seq
            out.append(Received(seq, major, msg))
        dropped = self._deframer.dropped
        c = self.counters
        c.frames = self._deframer.frames
        c.garbled, c.bad_crc = dropped[wire.DROP_GARBLED], dropped[wire.DROP_CRC]
        c.too_short, c.too_long = dropped[wire.DROP_SHORT], dropped[wire.DROP_LONG]
        return out

    def take_refused(self, msg_type: int) -> Refused | None:
        """The latest refusal of a `msg_type` message since the last call, if any."""
        found = [r for r in self.refused if r.msg_type == msg_type]
        if not found:
            return None
        self.refused.clear()
        return found[-1]

    def resync(self) -> None:
        """Forget the last sequence number (a new connection starts a new count)."""
        self._last_seq = None
        self.refused.clear()
