"""Typed messages over the shared wire format (`firmware/wire.py`), for the host side.

Each message is a frozen dataclass with `pack()` to payload bytes and `unpack(payload)` back,
using the struct formats in wire.py so host and firmware share one definition of every layout.
`encode(msg, seq)` makes a whole frame; `Decoder` turns a byte stream into messages and counts
what it had to drop. Bad payloads raise `ProtocolError` naming the message and the problem.
"""

from __future__ import annotations

import dataclasses
import struct
from typing import ClassVar

from firmware_bridge.firmware import wire
from firmware_bridge.firmware.wire import PROTOCOL_MAJOR, PROTOCOL_MINOR

__all__ = ["PROTOCOL_MAJOR", "PROTOCOL_MINOR", "Decoder", "ProtocolError", "encode"]


class ProtocolError(ValueError):
    """A frame arrived intact but its payload does not fit its message type."""


def _unpack(fmt: str, payload: bytes, name: str) -> tuple:
    size = struct.calcsize(fmt)
    if len(payload) < size:
        raise ProtocolError(f"{name}: payload of {len(payload)} bytes, needs {size}")
    return struct.unpack(fmt, payload[:size])


def _exact(fmt: str, payload: bytes, name: str) -> tuple:
    if len(payload) != struct.calcsize(fmt):
        raise ProtocolError(
            f"{name}: payload of {len(payload)} bytes, expected {struct.calcsize(fmt)}")
    return struct.unpack(fmt, payload)


@dataclasses.dataclass(frozen=True, slots=True)
class Message:
    TYPE: ClassVar[int] = -1

    def pack(self) -> bytes:
        raise NotImplementedError

    @classmethod
    def unpack(cls, payload: bytes) -> Message:
        raise NotImplementedError


_TYPES: dict[int, type[Message]] = {}


def _register(cls: type[Message]) -> type[Message]:
    _TYPES[cls.TYPE] = cls
    return cls


@_register
@dataclasses.dataclass(frozen=True, slots=True)
class Hello(Message):
    """Host → device: the majors the host speaks, and the device's hold and lost-host times."""

    TYPE: ClassVar[int] = wire.HELLO
    major_min: int
    major_max: int
    minor: int
    hold_ms: int
    lost_ms: int

    def pack(self) -> bytes:
        return struct.pack(wire.FMT_HELLO, self.major_min, self.major_max, self.minor,
                           self.hold_ms, self.lost_ms)

    @classmethod
    def unpack(cls, payload: bytes) -> Hello:
        return cls(*_unpack(wire.FMT_HELLO, payload, "HELLO"))  # later minors may append


def _pstr(data: bytes, at: int, name: str) -> tuple[str, int]:
    if at >= len(data) or at + 1 + data[at] > len(data):
        raise ProtocolError(f"{name}: truncated string")
    end = at + 1 + data[at]
    try:
        return data[at + 1:end].decode(), end
    except UnicodeDecodeError:
        raise ProtocolError(f"{name}: string is not UTF-8") from None


@_register
@dataclasses.dataclass(frozen=True, slots=True)
class HelloReply(Message):
    """Device → host: who it is, what it can do, and whether it ran stand-alone before."""

    TYPE: ClassVar[int] = wire.HELLO_REPLY
    major_min: int
    major_max: int
    minor: int
    leds: int
    features: int
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

    def pack(self) -> bytes:
        out = struct.pack(wire.FMT_HELLO_REPLY, self.major_min, self.major_max, self.minor,
                          self.leds, self.features, self.max_show, self.previous_mode,
                          self.standalone_picks)
        for text in (self.firmware, self.board):
            data = text.encode()
            if len(data) > 32:
                raise ProtocolError("HELLO_REPLY: strings are at most 32 bytes")
            out += bytes((len(data),)) + data
        return out

    @classmethod
    def unpack(cls, payload: bytes) -> HelloReply:
        fixed = _unpack(wire.FMT_HELLO_REPLY, payload, "HELLO_REPLY")
        at = struct.calcsize(wire.FMT_HELLO_REPLY)
        firmware, at = _pstr(payload, at, "HELLO_REPLY firmware")
        board, at = _pstr(payload, at, "HELLO_REPLY board")
        return cls(*fixed, firmware, board)


@_register
@dataclasses.dataclass(frozen=True, slots=True)
class Heartbeat(Message):
    TYPE: ClassVar[int] = wire.HEARTBEAT
    token: int

    def pack(self) -> bytes:
        return struct.pack(wire.FMT_HEARTBEAT, self.token)

    @classmethod
    def unpack(cls, payload: bytes) -> Heartbeat:
        return cls(*_exact(wire.FMT_HEARTBEAT, payload, "HEARTBEAT"))


@_register
@dataclasses.dataclass(frozen=True, slots=True)
class HeartbeatReply(Message):
    """Device → host: echoes the token; reports its clock, the state it shows, its mode."""

    TYPE: ClassVar[int] = wire.HEARTBEAT_REPLY
    token: int
    uptime_ms: int
    state_id: int
    mode: int
    rx_bad: int

    def pack(self) -> bytes:
        return struct.pack(wire.FMT_HEARTBEAT_REPLY, self.token, self.uptime_ms, self.state_id,
                           self.mode, self.rx_bad)

    @classmethod
    def unpack(cls, payload: bytes) -> HeartbeatReply:
        return cls(*_exact(wire.FMT_HEARTBEAT_REPLY, payload, "HEARTBEAT_REPLY"))


Levels8 = tuple[int, int, int, int]


@_register
@dataclasses.dataclass(frozen=True, slots=True)
class SetLights(Message):
    """Host → device: the whole state of the four lights (idempotent), tagged with a state id."""

    TYPE: ClassVar[int] = wire.SET_LIGHTS
    state_id: int
    levels: Levels8

    def pack(self) -> bytes:
        return struct.pack(wire.FMT_SET_LIGHTS, self.state_id, *self.levels)

    @classmethod
    def unpack(cls, payload: bytes) -> SetLights:
        state_id, *levels = _exact(wire.FMT_SET_LIGHTS, payload, "SET_LIGHTS")
        return cls(state_id, tuple(levels))


ShowFrame = tuple[int, int, int, int, int]  # red, blue, green, yellow (0..255), milliseconds


@_register
@dataclasses.dataclass(frozen=True, slots=True)
class ShowData(Message):
    """Host → device: frames `first`.. of show `state_id` (a show spans several of these)."""

    TYPE: ClassVar[int] = wire.SHOW_DATA
    state_id: int
    first: int
    frames: tuple[ShowFrame, ...]

    def pack(self) -> bytes:
        return struct.pack(wire.FMT_SHOW_DATA, self.state_id, self.first) + b"".join(
            struct.pack(wire.FMT_SHOW_FRAME, *f) for f in self.frames)

    @classmethod
    def unpack(cls, payload: bytes) -> ShowData:
        state_id, first = _unpack(wire.FMT_SHOW_DATA, payload, "SHOW_DATA")
        body = payload[struct.calcsize(wire.FMT_SHOW_DATA):]
        if len(body) % wire.SHOW_FRAME_SIZE:
            raise ProtocolError(f"SHOW_DATA: {len(body)} bytes is not whole frames")
        return cls(state_id, first, tuple(struct.iter_unpack(wire.FMT_SHOW_FRAME, body)))


@_register
@dataclasses.dataclass(frozen=True, slots=True)
class ShowPlay(Message):
    TYPE: ClassVar[int] = wire.SHOW_PLAY
    state_id: int
    count: int

    def pack(self) -> bytes:
        return struct.pack(wire.FMT_SHOW_PLAY, self.state_id, self.count)

    @classmethod
    def unpack(cls, payload: bytes) -> ShowPlay:
        return cls(*_exact(wire.FMT_SHOW_PLAY, payload, "SHOW_PLAY"))


@_register
@dataclasses.dataclass(frozen=True, slots=True)
class Buzz(Message):
    TYPE: ClassVar[int] = wire.BUZZ
    notes: tuple[tuple[int, int], ...]  # (frequency_hz or 0 for a rest, milliseconds)

    def pack(self) -> bytes:
        return b"".join(struct.pack(wire.FMT_NOTE, *n) for n in self.notes)

    @classmethod
    def unpack(cls, payload: bytes) -> Buzz:
        if len(payload) % 4:
            raise ProtocolError(f"BUZZ: {len(payload)} bytes is not whole notes")
        return cls(tuple(struct.iter_unpack(wire.FMT_NOTE, payload)))


@_register
@dataclasses.dataclass(frozen=True, slots=True)
class Ack(Message):
    TYPE: ClassVar[int] = wire.ACK
    event_no: int

    def pack(self) -> bytes:
        return struct.pack(wire.FMT_ACK, self.event_no)

    @classmethod
    def unpack(cls, payload: bytes) -> Ack:
        return cls(*_exact(wire.FMT_ACK, payload, "ACK"))


@_register
@dataclasses.dataclass(frozen=True, slots=True)
class Button(Message):
    """Device → host: a debounced button event, timed by the device's own clock."""

    TYPE: ClassVar[int] = wire.BUTTON
    event_no: int
    kind: int
    t_ms: int
    duration_ms: int

    def pack(self) -> bytes:
        return struct.pack(wire.FMT_BUTTON, self.event_no, self.kind, self.t_ms,
                           self.duration_ms)

    @classmethod
    def unpack(cls, payload: bytes) -> Button:
        msg = cls(*_exact(wire.FMT_BUTTON, payload, "BUTTON"))
        if msg.kind not in (wire.KIND_DOWN, wire.KIND_UP, wire.KIND_HOLD, wire.KIND_RELEASE):
            raise ProtocolError(f"BUTTON: unknown kind {msg.kind}")
        return msg


@_register
@dataclasses.dataclass(frozen=True, slots=True)
class Error(Message):
    TYPE: ClassVar[int] = wire.ERROR
    code: int
    ref_seq: int
    text: str

    def pack(self) -> bytes:
        return struct.pack(wire.FMT_ERROR, self.code, self.ref_seq) + self.text.encode()

    @classmethod
    def unpack(cls, payload: bytes) -> Error:
        code, ref = _unpack(wire.FMT_ERROR, payload, "ERROR")
        return cls(code, ref, payload[2:].decode(errors="replace"))


MESSAGE_TYPES: tuple[type[Message], ...] = tuple(_TYPES.values())


def encode(msg: Message, seq: int, major: int = PROTOCOL_MAJOR) -> bytes:
    """A whole frame (COBS, CRC, delimiter) carrying `msg`."""
    return wire.encode_frame(seq, msg.TYPE, msg.pack(), major)


@dataclasses.dataclass
class Counters:
    """What the link had to throw away, and why. Nothing here is ever fatal."""

    frames: int = 0
    garbled: int = 0          # not valid COBS
    bad_crc: int = 0
    too_short: int = 0
    too_long: int = 0
    unknown_type: int = 0
    bad_payload: int = 0
    wrong_major: int = 0
    seq_gaps: int = 0         # frames the sequence numbers say we never saw

    @property
    def dropped(self) -> int:
        return (self.garbled + self.bad_crc + self.too_short + self.too_long
                + self.unknown_type + self.bad_payload + self.wrong_major)


@dataclasses.dataclass(frozen=True, slots=True)
class Received:
    seq: int
    major: int
    msg: Message


class Decoder:
    """Byte stream in, `Received` messages out; every drop is counted in `counters`."""

    def __init__(self, major: int = PROTOCOL_MAJOR) -> None:
        self.major = major
        self.counters = Counters()
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

    def resync(self) -> None:
        """Forget the last sequence number (a new connection starts a new count)."""
        self._last_seq = None
