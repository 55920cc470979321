"""Reference firmware logic for a USB tinker tray (a Raspberry Pi Pico running MicroPython).

Everything the device does lives in `Firmware`, which is handed its `machine` module, its output
and its clock, so the very same code runs on the Pico (main.py), in unit tests with a fake clock,
and in the emulator on a pseudo-terminal. MicroPython subset only: no dataclasses, no typing.

Time is kept as MicroPython means it: `ticks_ms()` wraps at 2**30 on the Pico (every 12.4 days),
so every deadline is a tick value made with `ticks_add` and compared with `ticks_diff`, never
with `+` and `-`, and the uptime the host sees is a count carried forward (`_uptime`), not the
distance to the boot tick, which `ticks_diff` can only measure up to 2**29 ms (6.2 days).
Every payload length is checked here, before `struct` sees it: MicroPython's `struct.unpack`
accepts extra bytes, and the two interpreters word their errors differently.

The device never picks a colour while a host is linked: it reports the button and shows what the
host sends. Without a host (at power-up, or `lost_ms` after the host went quiet) it behaves like
the original tray: a tap makes its own pick and plays its own show, and it counts those picks to
tell the host when the host returns.
"""

import os
import struct

try:
    from . import wire
except (ImportError, ValueError):  # on the device the files sit side by side
    import wire  # type: ignore[no-redef]

FIRMWARE_VERSION = "1.0.0"

# GPIO numbers on the Pico: LEDs on GP2..GP5 (red, blue, green, yellow), button GP15 to ground,
# optional piezo buzzer on GP16.
DEFAULT_PINS = {"leds": (2, 3, 4, 5), "button": 15, "buzzer": 16}

DEBOUNCE_MS = 20  # the level must be stable this long before an edge counts
RETRY_MS = 250  # resend an unacknowledged button event this often
MAX_PENDING = 8  # unacknowledged button events kept for resending
MAX_SHOW = 128  # frames of one show the device stores

DEFAULT_HOLD_MS = 1000
DEFAULT_LOST_MS = 3000
# The uptime count takes in the ticks since its last step at least this often: well inside the
# 2**29 ms that ticks_diff can measure, and rare enough to cost nothing.
UPTIME_STEP_MS = 1 << 27
MIN_TONE_HZ = 8  # the rp2's PWM cannot go slower (125 MHz / 256 / 65536 = 7.5 Hz)


class BadPayload(ValueError):
    """A command's payload does not fit its message: answered with ERROR 2 and this text."""


def unpack_exact(name, fmt, payload):
    """struct.unpack that refuses a payload of any other length, on both interpreters."""
    size = struct.calcsize(fmt)
    if len(payload) != size:
        raise BadPayload("%s: payload of %d bytes, expected %d" % (name, len(payload), size))
    return struct.unpack(fmt, payload)


def rand_below(n, random_bytes=None):
    """Uniform integer in [0, n) from the hardware RNG, by rejection (no modulo bias)."""
    random_bytes = random_bytes or os.urandom
    limit = 256 - (256 % n)
    while True:
        b = random_bytes(1)[0]
        if b < limit:
            return b % n


def standalone_show(colour):
    """The device's own show for a pick: a slowing spin that lands on `colour`, which stays lit."""
    frames = []
    ms = 40
    for i in range(9 + colour):  # two turns and a bit, the last step on `colour`
        levels = [0, 0, 0, 0]
        levels[i % 4] = 255
        frames.append((levels, ms))
        ms = ms * 6 // 5
    frames.append(([255 if c == colour else 0 for c in range(4)], 1))
    return frames


class Firmware:
    def __init__(
        self,
        machine,
        write,
        clock,
        pins=None,
        buzzer=True,
        board="pico",
        major_range=(wire.PROTOCOL_MAJOR, wire.PROTOCOL_MAJOR),
        version=FIRMWARE_VERSION,
        random_bytes=None,
    ):
        """`clock` has MicroPython's ticks_ms, ticks_add and ticks_diff: on the Pico, `time`.
        `random_bytes(n)` is the hardware RNG (default os.urandom, which the Pico has)."""
        pins = pins or DEFAULT_PINS
        self._write = write
        self._ticks = clock.ticks_ms
        self._add = clock.ticks_add
        self._diff = clock.ticks_diff
        self._random = random_bytes
        self.board = board
        self.max_show = MAX_SHOW  # what the hello reply announces (tests break it on purpose)
        self.version = version
        self.major_range = major_range
        self._setup_pins(machine, pins, buzzer)
        now = self._ticks()
        self._uptime_ms = 0  # uptime at _uptime_at: a count, it does not wrap with the ticks
        self._uptime_at = now
        self.deframer = wire.Deframer()
        self.seq = 0
        self.rx_bad = 0
        self.mode = wire.MODE_STANDALONE
        self.standalone_picks = 0
        self.hold_ms = DEFAULT_HOLD_MS
        self.lost_ms = DEFAULT_LOST_MS
        self.last_rx_ms = now
        # button: raw edges from the IRQ, debounced in poll()
        self._edge_pending = False
        self._edge_first_ms = now
        self._edge_last_ms = now
        self.pressed = False
        self.down_ms = now
        self.held = False
        self.event_no = 0
        self.pending = []  # [event_no, frame, last_sent_ms] awaiting the host's ACK
        # lights
        self.state_id = 0
        self.levels = [0, 0, 0, 0]
        self.show = []  # [(levels, ms)] being played
        self.show_index = 0
        self.show_step_ms = now
        self._incoming = {}  # state_id -> {index: frame} while a show arrives in parts
        self.notes = []
        self.note_ms = now

    def _setup_pins(self, machine, pins, buzzer):
        Pin = machine.Pin
        self.leds = []
        for number in pins["leds"]:
            pwm = machine.PWM(Pin(number))
            pwm.freq(1000)
            pwm.duty_u16(0)
            self.leds.append(pwm)
        self.buzzer = None
        if buzzer and pins.get("buzzer") is not None:
            self.buzzer = machine.PWM(Pin(pins["buzzer"]))
            self.buzzer.duty_u16(0)
        self.button = Pin(pins["button"], Pin.IN, Pin.PULL_UP)
        self.button.irq(handler=self._edge, trigger=Pin.IRQ_FALLING | Pin.IRQ_RISING)

    # -- input ------------------------------------------------------------------------------
    def _edge(self, pin):
        """IRQ handler: only note the time; debounce runs in poll(), outside the interrupt."""
        t = self._ticks()
        if not self._edge_pending:
            self._edge_first_ms = t
        self._edge_last_ms = t
        self._edge_pending = True

    def feed(self, data):
        for major, seq, msg_type, payload in self.deframer.feed(data):
            self._handle(major, seq, msg_type, payload)
        self.rx_bad = sum(self.deframer.dropped.values()) & 0xFFFF

    def poll(self):
        """Advance the clocks: debounce, hold, show, buzzer, resends, host deadline."""
        now = self._ticks()
        if self._edge_pending and self._diff(now, self._edge_last_ms) >= DEBOUNCE_MS:
            self._edge_pending = False
            level_pressed = self.button.value() == 0
            if level_pressed != self.pressed:
                self._button_edge(level_pressed, self._edge_first_ms)
        if self.pressed and not self.held and self._diff(now, self.down_ms) >= self.hold_ms:
            self.held = True
            self._button_event(wire.KIND_HOLD, now, self._diff(now, self.down_ms))
        self._step_show(now)
        self._step_notes(now)
        self._step_uptime(now)
        if self.mode == wire.MODE_LINKED:
            if self._diff(now, self.last_rx_ms) >= self.lost_ms:
                self._go_standalone()
            else:
                for entry in self.pending:
                    if self._diff(now, entry[2]) >= RETRY_MS:
                        entry[2] = now
                        self._write(entry[1])

    def _button_edge(self, pressed, t):
        self.pressed = pressed
        if pressed:
            self.down_ms = t
            self.held = False
            self._button_event(wire.KIND_DOWN, t, 0)
            return
        duration = self._diff(t, self.down_ms)
        if self.held:
            self._button_event(wire.KIND_RELEASE, t, duration)
        elif self.mode == wire.MODE_LINKED:
            self._button_event(wire.KIND_UP, t, duration)
        else:
            self._standalone_pick()

    def _button_event(self, kind, t, duration):
        if self.mode != wire.MODE_LINKED:
            return
        self.event_no = (self.event_no + 1) & 0xFFFF
        payload = struct.pack(wire.FMT_BUTTON, self.event_no, kind, self._uptime(t), duration)
        frame = self._frame(wire.BUTTON, payload)
        self._write(frame)
        if kind != wire.KIND_DOWN:  # edges are informative; taps and holds must arrive
            self.pending.append([self.event_no, frame, self._ticks()])
            if len(self.pending) > MAX_PENDING:
                self.pending.pop(0)

    # -- stand-alone ------------------------------------------------------------------------
    def _go_standalone(self):
        self.mode = wire.MODE_STANDALONE
        self.pending = []
        self._incoming = {}

    def _standalone_pick(self):
        self.standalone_picks = (self.standalone_picks + 1) & 0xFFFF
        self._start_show(standalone_show(rand_below(4, self._random)))

    # -- uptime -----------------------------------------------------------------------------
    def _step_uptime(self, now):
        d = self._diff(now, self._uptime_at)
        if d >= UPTIME_STEP_MS:
            self._uptime_ms = (self._uptime_ms + d) & 0xFFFFFFFF  # the protocol's u32
            self._uptime_at = now

    def _uptime(self, t):
        """Milliseconds since boot at tick `t` (not long before the last step), as the u32 the
        protocol sends: it wraps after 49.7 days, never at the tick counter's wrap."""
        return (self._uptime_ms + self._diff(t, self._uptime_at)) & 0xFFFFFFFF

    # -- output -----------------------------------------------------------------------------
    def _frame(self, msg_type, payload):
        self.seq = (self.seq + 1) & 0xFF
        return wire.encode_frame(self.seq, msg_type, payload)

    def _send(self, msg_type, payload=b""):
        self._write(self._frame(msg_type, payload))

    def _error(self, code, ref_seq, text):
        self._send(wire.ERROR, struct.pack(wire.FMT_ERROR, code, ref_seq) + text.encode())

    def _apply(self, levels):
        self.levels = list(levels)
        for pwm, level in zip(self.leds, levels):
            pwm.duty_u16(level * 257)

    def _start_show(self, frames):
        self.show = frames
        self.show_index = 0
        self.show_step_ms = self._ticks()
        self._apply(frames[0][0])

    def _step_show(self, now):
        while self.show:
            ms = self.show[self.show_index][1]
            if self._diff(now, self.show_step_ms) < ms:
                return
            self.show_step_ms = self._add(self.show_step_ms, ms)
            self.show_index += 1
            if self.show_index >= len(self.show):
                self.show = []  # the last frame's levels stay lit
                return
            self._apply(self.show[self.show_index][0])

    def _step_notes(self, now):
        if self.buzzer is None:
            return
        while self.notes and self._diff(now, self.note_ms) >= self.notes[0][1]:
            self.note_ms = self._add(self.note_ms, self.notes.pop(0)[1])
            self._sound()

    def _sound(self):
        if self.notes and self.notes[0][0] > 0:
            self.buzzer.freq(self.notes[0][0])
            self.buzzer.duty_u16(32768)
        else:
            self.buzzer.duty_u16(0)

    # -- messages from the host --------------------------------------------------------------
    def _handle(self, major, seq, msg_type, payload):
        self.last_rx_ms = self._ticks()
        if msg_type == wire.HELLO:
            self._hello(seq, payload)
            return
        if major != wire.PROTOCOL_MAJOR:
            self._error(
                wire.ERR_VERSION,
                seq,
                "frame of protocol %d, device speaks %d" % (major, wire.PROTOCOL_MAJOR),
            )
            return
        if self.mode != wire.MODE_LINKED:
            self._error(wire.ERR_NOT_LINKED, seq, "say hello first")
            return
        try:
            self._command(seq, msg_type, payload)
        except BadPayload as exc:
            self._error(wire.ERR_BAD_PAYLOAD, seq, exc.args[0])

    def _hello(self, seq, payload):
        size = struct.calcsize(wire.FMT_HELLO)
        if len(payload) < size:  # a later minor may append, so longer is fine
            text = "HELLO: payload of %d bytes, needs %d" % (len(payload), size)
            self._error(wire.ERR_BAD_PAYLOAD, seq, text)
            return
        lo, hi, _minor, hold_ms, lost_ms = struct.unpack(wire.FMT_HELLO, payload[:size])
        previous = self.mode
        picks = self.standalone_picks
        features = wire.FEATURE_PWM | (wire.FEATURE_BUZZER if self.buzzer is not None else 0)
        reply = struct.pack(
            wire.FMT_HELLO_REPLY,
            self.major_range[0],
            self.major_range[1],
            wire.PROTOCOL_MINOR,
            len(self.leds),
            features,
            self.max_show,
            previous,
            picks,
        )
        for text in (self.version, self.board):
            data = text.encode()[:32]
            reply += bytes((len(data),)) + data
        self._send(wire.HELLO_REPLY, reply)
        if lo <= self.major_range[1] and self.major_range[0] <= hi:
            self.mode = wire.MODE_LINKED
            self.hold_ms = hold_ms or DEFAULT_HOLD_MS
            self.lost_ms = lost_ms or DEFAULT_LOST_MS
            self.standalone_picks = 0
            self.pending = []
        else:
            self._go_standalone()

    def _command(self, seq, msg_type, payload):
        if msg_type == wire.HEARTBEAT:
            (token,) = unpack_exact("HEARTBEAT", wire.FMT_HEARTBEAT, payload)
            self._send(
                wire.HEARTBEAT_REPLY,
                struct.pack(
                    wire.FMT_HEARTBEAT_REPLY,
                    token,
                    self._uptime(self._ticks()),
                    self.state_id,
                    self.mode,
                    self.rx_bad,
                ),
            )
        elif msg_type == wire.SET_LIGHTS:
            state_id, r, b, g, y = unpack_exact("SET_LIGHTS", wire.FMT_SET_LIGHTS, payload)
            self.state_id = state_id
            self.show = []
            self._apply((r, b, g, y))
        elif msg_type == wire.SHOW_DATA:
            self._show_data(payload)
        elif msg_type == wire.SHOW_PLAY:
            state_id, count = unpack_exact("SHOW_PLAY", wire.FMT_SHOW_PLAY, payload)
            parts = self._incoming.pop(state_id, {})
            if count == 0 or count > MAX_SHOW or any(i not in parts for i in range(count)):
                self._error(
                    wire.ERR_SHOW_INCOMPLETE,
                    seq,
                    "show %d: have %d of %d frames" % (state_id, len(parts), count),
                )
                return
            self._incoming = {}
            self.state_id = state_id
            self._start_show([parts[i] for i in range(count)])
        elif msg_type == wire.BUZZ:
            self._buzz(payload)
        elif msg_type == wire.ACK:
            (event_no,) = unpack_exact("ACK", wire.FMT_ACK, payload)
            self.pending = [e for e in self.pending if e[0] != event_no]
        else:
            self._error(wire.ERR_UNKNOWN_TYPE, seq, "unknown message type 0x%02x" % msg_type)

    def _show_data(self, payload):
        head = struct.calcsize(wire.FMT_SHOW_DATA)
        size = wire.SHOW_FRAME_SIZE
        if len(payload) < head or (len(payload) - head) % size:
            raise BadPayload(
                "SHOW_DATA: payload of %d bytes, expected %d and whole frames of %d"
                % (len(payload), head, size)
            )
        state_id, first = struct.unpack(wire.FMT_SHOW_DATA, payload[:head])
        body = payload[head:]
        count = len(body) // size
        if first + count > MAX_SHOW:
            raise BadPayload("SHOW_DATA: show longer than %d frames" % MAX_SHOW)
        if state_id not in self._incoming:
            self._incoming = {state_id: {}}  # only the newest show is assembled
        parts = self._incoming[state_id]
        for i in range(count):
            r, b, g, y, ms = struct.unpack_from(wire.FMT_SHOW_FRAME, body, i * wire.SHOW_FRAME_SIZE)
            parts[first + i] = ((r, b, g, y), ms)

    def _buzz(self, payload):
        if len(payload) % 4:
            raise BadPayload("BUZZ: payload of %d bytes, expected whole notes of 4" % len(payload))
        notes = [struct.unpack_from(wire.FMT_NOTE, payload, i) for i in range(0, len(payload), 4)]
        for i, (hz, _ms) in enumerate(notes):
            if 0 < hz < MIN_TONE_HZ:  # refused now, not when the PWM raises mid-tune
                text = "BUZZ: note %d is %d Hz (0 rests, at least %d)" % (i, hz, MIN_TONE_HZ)
                raise BadPayload(text)
        self.notes = notes
        if self.buzzer is not None:
            self.note_ms = self._ticks()
            self._sound()
