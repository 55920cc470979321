"""The host side of the link: connect, handshake, heartbeat, reconnect, resend state.

One thread owns the port. It finds the device (`resolve()`), opens it exclusively with
`serial.serial_for_url` (a device path, or any pyserial URL: `socket://host:port`,
`rfc2217://...`, `loop://`), says HELLO (retrying with backoff: pyserial's open discards whatever
the device said before), then reads
frames, sends heartbeats, and watches the deadline. When the port fails or goes quiet it
publishes a Fault, closes, rescans, and reconnects; after every HELLO it re-sends the current
lights or show, so the tray looks right again without the service noticing more than the fault.

Other threads call `set_lights`/`play`/`buzz`; those only record the wanted state and write it
if a device is linked. Nothing the device sends can raise out of this module: bad frames are
counted in `counters` and dropped, and every field is checked against its limits
(`protocol.Message.LIMITS`). A HELLO_REPLY the host refuses (an absurd `max_show`, say) is a
`serial_refused` fault naming the field; the link is closed and tried again later.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Protocol, cast

import serial

from firmware_bridge import protocol as p
from firmware_bridge.firmware import wire
from tray.backend import Frame, Levels
from tray.events import ButtonHeld, ButtonPressed, Event, Fault
from tray.log_limit import RepeatLimit

from .event_window import EventWindow, Seen
from .events import TrayLinked

log = logging.getLogger(__name__)
log.addFilter(RepeatLimit())  # a flood of one error is a few lines a minute

HOST_MAJORS = (1, 1)  # protocol majors this host speaks


@dataclasses.dataclass(frozen=True, slots=True)
class BridgeSettings:
    """Timings of the link. Tests shrink them; the defaults suit a real tray."""

    baudrate: int = 115200  # ignored by USB CDC and ptys, used by real UARTs
    heartbeat_s: float = 0.25  # host sends a heartbeat this often
    deadline_s: float = 1.0  # no frame from the device for this long: link lost
    device_lost_s: float = 3.0  # the device goes stand-alone after this long without us
    hold_s: float = 1.0  # the device reports a hold after this long down
    handshake_first_s: float = 0.05  # first wait for HELLO_REPLY; doubles on each retry
    handshake_max_s: float = 0.8
    handshake_attempts: int = 6
    rescan_s: float = 0.1  # look for the device again this often while it is away
    refused_retry_s: float = 5.0  # after refusing a device (its version, a field of its
    #                                  hello), try again this much later


class VersionRefused(Exception):
    """The device speaks no protocol major this host speaks; the message says who updates."""


class DeviceRefused(Exception):
    """The device's HELLO_REPLY holds a value the protocol does not allow (the message says
    which field and what is allowed)."""


def check_version(reply: p.HelloReply, host: tuple[int, int] | None = None) -> int:
    """The highest major both sides speak, or VersionRefused naming the side to update."""
    host = host or HOST_MAJORS
    lo, hi = max(host[0], reply.major_min), min(host[1], reply.major_max)
    if lo <= hi:
        return hi
    theirs = f"protocol {reply.major_min}..{reply.major_max}"
    ours = f"{host[0]}..{host[1]}"
    if reply.major_max < host[0]:
        return _refuse(
            f"the tray's firmware {reply.firmware} speaks {theirs} but this "
            f"tinker-tray needs {ours}: update the firmware on the tray "
            "(docs/bridge.md, 'Deploying the firmware')"
        )
    return _refuse(
        f"the tray's firmware {reply.firmware} speaks {theirs}, newer than this "
        f"tinker-tray's {ours}: update tinker-tray on the host"
    )


def _refuse(message: str) -> int:
    raise VersionRefused(message)


def to_byte(level: float) -> int:
    if not 0.0 <= level <= 1.0:
        raise ValueError(f"light level {level!r} is outside 0..1")
    return round(level * 255)


def to_bytes(levels: Sequence[float]) -> p.Levels8:
    """Four light levels (0..1) as the wire's bytes; ValueError unless there are four in 0..1."""
    if len(levels) != 4:
        raise ValueError(f"a frame has 4 levels, got {len(levels)}")
    red, blue, green, yellow = (to_byte(v) for v in levels)
    return red, blue, green, yellow


def show_frames(frames: Sequence[Frame], max_frames: int) -> list[p.ShowFrame]:
    """Frames as wire tuples: long frames split at 65.535 s, then merged pairwise until the
    show fits the device (merging keeps the total time and the last frame's levels)."""
    if max_frames < 2:  # merging could never get below one frame: refuse, never loop
        raise ValueError(f"a device must hold at least 2 frames of a show, not {max_frames}")
    out: list[p.ShowFrame] = []
    for frame in frames:
        levels = to_bytes(frame.levels)
        if frame.seconds < 0:
            raise ValueError(f"a frame lasts a non-negative time, got {frame.seconds}")
        ms = round(frame.seconds * 1000)
        while ms > 0xFFFF:
            out.append((*levels, 0xFFFF))
            ms -= 0xFFFF
        out.append((*levels, ms))
    while len(out) > max_frames:
        pairs = zip(out[::2], out[1::2], strict=False)
        merged = [(*a[:4], min(0xFFFF, a[4] + b[4])) for a, b in pairs]
        if len(out) % 2:
            merged.append(out[-1])
        else:  # keep the final levels exactly
            merged[-1] = (*out[-1][:4], merged[-1][4])
        out = merged
    return out


@dataclasses.dataclass
class _Wanted:
    """What the lights should be showing: a steady state or a show started at `started`."""

    state_id: int
    levels: tuple[int, int, int, int]
    show: list[p.ShowFrame] | None = None
    started: float = 0.0


class LinkLost(Exception):
    pass


class Port(Protocol):
    """What the bridge uses of an open pyserial port (every class `serial_for_url` returns)."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def close(self) -> None: ...


def open_port(name: str, baudrate: int = 115200) -> Port:
    """Open a device path or any pyserial URL (`socket://`, `rfc2217://`, `loop://`) the way
    the bridge reads it: short read timeout, bounded writes, exclusive where the OS allows."""
    port = serial.serial_for_url(
        name, baudrate=baudrate, timeout=0.02, write_timeout=1.0, exclusive=True
    )
    return cast(Port, port)  # SerialBase declares no in_waiting; each of its transports has one


class Bridge:
    def __init__(
        self,
        resolve: Callable[[], str | None],
        deliver: Callable[[Event], None],
        *,
        settings: BridgeSettings | None = None,
        source: str = "serial",
        on_frame: Callable[[str, p.Message], None] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.settings = settings or BridgeSettings()
        self._resolve = resolve
        self._deliver = deliver
        self._source = source
        self._on_frame = on_frame
        self._clock = clock
        self._stop = threading.Event()
        self._write_lock = threading.Lock()
        self._state_lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._port: Port | None = None
        self._seq = 0
        self._token = 0
        self.decoder = p.Decoder()
        self.linked = threading.Event()
        self.device: p.HelloReply | None = None
        self.port_name: str | None = None
        self.reconnects = 0
        self.errors: collections.deque[p.Error] = collections.deque(maxlen=20)
        self.last_reply: p.HeartbeatReply | None = None
        self._wanted = _Wanted(0, (0, 0, 0, 0))
        self._sent_at = 0.0
        self._hello_at = 0.0
        self._events = EventWindow()  # the event numbers taken since the last hello
        self._awaiting_reply = False  # a HELLO is out and its HELLO_REPLY not yet taken
        self.unsolicited = 0  # HELLO_REPLYs nobody asked for, ignored
        self.strays = 0  # BUTTON frames in no run of numbers, not (yet) sent twice, ignored
        self._offsets: collections.deque[float] = collections.deque(maxlen=8)

    # -- public, any thread ----------------------------------------------------------------
    @property
    def counters(self) -> p.Counters:
        return self.decoder.counters

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="firmware-bridge", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Lights off if linked, then close the port and stop the thread. Safe twice."""
        if self.linked.is_set():
            self.set_lights((0.0, 0.0, 0.0, 0.0))
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    def set_lights(self, levels: Levels) -> None:
        if len(levels) != 4:
            raise ValueError(f"set_lights takes 4 levels, got {len(levels)}")
        wire_levels = to_bytes(levels)
        with self._state_lock:
            self._wanted = _Wanted(self._next_state_id(), wire_levels)
        self._send_wanted()

    def play(self, frames: Sequence[Frame]) -> None:
        if not frames:
            raise ValueError("a show needs at least one frame")
        device = self.device
        show = show_frames(frames, device.max_show if device else 128)
        with self._state_lock:
            self._wanted = _Wanted(self._next_state_id(), show[-1][:4], show, time.monotonic())
        self._send_wanted()

    def buzz(self, notes: Sequence[tuple[int, int]]) -> None:
        if self.device is not None and self.device.buzzer:
            self.send(p.Buzz(tuple(notes)))

    def send(self, msg: p.Message) -> bool:
        """Write one message if a port is open; False (and no exception) if it is not."""
        with self._write_lock:
            port = self._port
            if port is None:
                return False
            self._seq = (self._seq + 1) & 0xFF
            frame = p.encode(msg, self._seq)
            try:
                port.write(frame)
            except (serial.SerialException, OSError) as exc:
                log.debug("write failed: %s", exc)  # the reader notices and reconnects
                return False
        if self._on_frame is not None:
            self._on_frame("out", msg)
        return True

    @property
    def running(self) -> bool:
        """The port thread is alive and has not been asked to stop."""
        return self._thread is not None and self._thread.is_alive() and not self._stop.is_set()

    def wait_linked(self, timeout: float) -> bool:
        return self.linked.wait(timeout)

    # -- wanted state ------------------------------------------------------------------------
    def _next_state_id(self) -> int:
        return (self._wanted.state_id + 1) & 0xFFFF or 1

    def _send_wanted(self, *, resume: bool = False) -> None:
        """Send the wanted state. On `resume` a show already over is sent as its end state."""
        if not self.linked.is_set():
            return
        with self._state_lock:
            wanted = self._wanted
            self._sent_at = time.monotonic()
        show = wanted.show
        over = show is not None and (
            time.monotonic() - wanted.started > sum(f[4] for f in show) / 1000
        )
        if resume and over:
            show = None
        if show is None:
            self.send(p.SetLights(wanted.state_id, wanted.levels))
            return
        step = wire.SHOW_FRAMES_PER_MESSAGE
        for first in range(0, len(show), step):
            self.send(p.ShowData(wanted.state_id, first, tuple(show[first : first + step])))
        self.send(p.ShowPlay(wanted.state_id, len(show)))

    # -- the port thread ---------------------------------------------------------------------
    def _publish(self, event: Event) -> None:
        try:
            self._deliver(event)
        except Exception:  # deliver must not raise; if it does, the link still lives
            log.exception("deliver failed on %s", event.type)

    def _fault(self, kind: str, message: str) -> None:
        log.warning(kind + ": %s", message)  # one kind each for the repeat limit
        self._publish(Fault(kind=kind, message=message, t=self._clock()))

    def _wait(self, seconds: float) -> bool:
        return self._stop.wait(seconds)

    def _run(self) -> None:
        missing_reported = False
        while not self._stop.is_set():
            try:
                name = self._resolve()
            except Exception as exc:  # a broken resolver is reported, never fatal
                name = None
                log.exception("port lookup failed: %s", exc)
            if name is None:
                if not missing_reported:
                    self._fault("serial_missing", "no USB tray found; still looking")
                    missing_reported = True
                self._wait(self.settings.rescan_s)
                continue
            try:
                port = open_port(name, self.settings.baudrate)
            except (serial.SerialException, OSError, ValueError) as exc:
                if not missing_reported:
                    self._fault("serial_missing", f"cannot open {name}: {exc}")
                    missing_reported = True
                self._wait(self.settings.rescan_s)
                continue
            missing_reported = False
            self._session(name, port)

    def _session(self, name: str, port: Port) -> None:
        with self._write_lock:
            self._port = port
        self.port_name = name
        self.decoder.resync()
        try:
            self.device = self._handshake(port)
            self._linked(name)
            self._serve(port)
        except VersionRefused as exc:
            self._fault("serial_version", str(exc))
            self._wait(self.settings.refused_retry_s)
        except DeviceRefused as exc:
            self._fault(
                "serial_refused",
                f"the USB tray on {name} is refused: {exc}; is it "
                "running the tinker-tray firmware? (docs/bridge.md) Trying again in "
                f"{self.settings.refused_retry_s:g} s",
            )
            self._wait(self.settings.refused_retry_s)
        except TimeoutError as exc:
            self._fault("serial_silent", f"{name}: {exc}")
            self._wait(self.settings.rescan_s)
        except (LinkLost, serial.SerialException, OSError) as exc:
            if not self._stop.is_set():
                self._fault(
                    "serial_lost", f"the USB tray on {name} went away ({exc}); reconnecting"
                )
        finally:
            self.linked.clear()
            with self._write_lock:
                self._port = None
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()

    def _read(self, port: Port) -> list[p.Received]:
        data = port.read(port.in_waiting or 1)
        received = self.decoder.feed(data) if data else []
        refused = self.decoder.take_refused(wire.HELLO_REPLY)
        if refused is not None:
            if self._awaiting_reply:
                raise DeviceRefused(refused.problem)
            self._ignore_unsolicited(refused.problem)
        return received

    def _ignore_unsolicited(self, what: str) -> None:
        """A HELLO_REPLY nobody asked for (noise with a valid CRC, a confused device) says
        nothing about the device we are linked to: dropping the link for it would lose taps."""
        self.unsolicited += 1
        log.warning("ignored a HELLO_REPLY the host did not ask for: %s", what)

    def _hello(self) -> p.Hello:
        s = self.settings
        self._hello_at = time.monotonic()
        self._awaiting_reply = True
        return p.Hello(
            HOST_MAJORS[0],
            HOST_MAJORS[1],
            p.PROTOCOL_MINOR,
            round(s.hold_s * 1000),
            round(s.device_lost_s * 1000),
        )

    def _handshake(self, port: Port) -> p.HelloReply:
        s = self.settings
        wait = s.handshake_first_s
        for _attempt in range(s.handshake_attempts):
            self.send(self._hello())
            until = time.monotonic() + wait
            while time.monotonic() < until:
                if self._stop.is_set():
                    raise LinkLost("stopping")
                for rx in self._read(port):
                    self._trace(rx.msg)
                    if isinstance(rx.msg, p.HelloReply):
                        check_version(rx.msg)
                        self._awaiting_reply = False
                        return rx.msg
            wait = min(wait * 2, s.handshake_max_s)
        raise TimeoutError(
            f"no answer to {s.handshake_attempts} hellos (is the tinker-tray firmware on it?)"
        )

    def _linked(self, name: str) -> None:
        device = self.device
        assert device is not None
        self._offsets.clear()
        self._events.reset()  # event numbers restart with each hello (the device clears
        self.linked.set()  # its resend queue then, so no duplicate can cross it)
        self._send_wanted(resume=True)
        self._publish(
            TrayLinked(port=name, firmware=device.firmware, board=device.board, t=self._clock())
        )
        self._report_standalone(device)
        self.reconnects += 1

    def _report_standalone(self, device: p.HelloReply) -> None:
        if device.standalone_picks:
            self._fault(
                "serial_standalone",
                f"the USB tray ran on its own while the host was away and made "
                f"{device.standalone_picks} pick(s) of its own; those are not in the "
                "audit record",
            )

    def _serve(self, port: Port) -> None:
        s = self.settings
        last_rx = next_beat = time.monotonic()
        while not self._stop.is_set():
            now = time.monotonic()
            if now >= next_beat:
                self._token = (self._token + 1) & 0xFFFF
                self.send(p.Heartbeat(self._token))
                next_beat = now + s.heartbeat_s
            received = self._read(port)
            now = time.monotonic()
            if received:
                last_rx = now
            elif now - last_rx > s.deadline_s:
                raise LinkLost(f"no frame for {now - last_rx:.1f} s")
            for rx in received:
                self._trace(rx.msg)
                self._dispatch(rx.msg, now)

    def _trace(self, msg: p.Message) -> None:
        if self._on_frame is not None:
            self._on_frame("in", msg)

    def _dispatch(self, msg: p.Message, now: float) -> None:
        if isinstance(msg, p.Button):
            self._button(msg)
        elif isinstance(msg, p.HeartbeatReply):
            self.last_reply = msg
            self._offsets.append(self._clock() - msg.uptime_ms / 1000)
            with self._state_lock:
                stale = (
                    msg.state_id != self._wanted.state_id
                    and now - self._sent_at > 2 * self.settings.heartbeat_s
                )
            if stale:  # a lights command got lost on the way: send the state again
                self._send_wanted(resume=True)
        elif isinstance(msg, p.Error):
            self.errors.append(msg)
            log.warning("tray reports error %d on frame %d: %s", msg.code, msg.ref_seq, msg.text)
            if msg.code == wire.ERR_SHOW_INCOMPLETE:
                self._send_wanted(resume=True)
            elif msg.code == wire.ERR_NOT_LINKED and now - self._hello_at > 0.2:
                self.send(self._hello())  # it restarted without the port closing: relink
        elif isinstance(msg, p.HelloReply):
            if not self._awaiting_reply:
                self._ignore_unsolicited(f"{msg.board} {msg.firmware}")
                return
            check_version(msg)  # the answer to the hello sent on ERR_NOT_LINKED
            self._awaiting_reply = False
            self.device = msg
            self._events.reset()
            self._send_wanted(resume=True)
            self._report_standalone(msg)

    def _button(self, msg: p.Button) -> None:
        seen = self._events.take(msg.event_no)
        if seen is Seen.STRAY:  # unacknowledged: the device resends it if it is its own
            self.strays += 1
            return
        if msg.kind in (wire.KIND_UP, wire.KIND_HOLD, wire.KIND_RELEASE):
            self.send(p.Ack(msg.event_no))
        if seen is Seen.RESEND:
            return  # a resend of an event whose ACK got lost
        t = self._device_time(msg.t_ms)
        if msg.kind == wire.KIND_UP:
            self._publish(ButtonPressed(t=t, source=self._source))
        elif msg.kind == wire.KIND_HOLD:
            self._publish(ButtonHeld(t=t, seconds=msg.duration_ms / 1000, source=self._source))

    def _device_time(self, t_ms: int) -> float:
        """The device's timestamp on the host clock, using the smallest recent offset (the
        heartbeat reply that travelled fastest); the receive time if there is none yet."""
        if not self._offsets:
            return self._clock()
        return min(self._offsets) + t_ms / 1000
