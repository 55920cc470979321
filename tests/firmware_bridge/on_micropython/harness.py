"""One firmware under test, driven by commands, the same module under both interpreters.

Under CPython the tests call `handle()` in-process; under MicroPython (the WebAssembly port, run
by node: runner.mjs) each command comes as a JSON line and its reply goes back the same way. A
command is `[name, *args]`; the reply is what the firmware wrote since the last command (hex)
and what its pins show, so a test can compare the two interpreters byte for byte. Written in the
subset MicroPython runs.

The clock is a hand-cranked tick counter with the interpreter's own tick arithmetic: MicroPython's
real `time.ticks_add`/`ticks_diff` there, firmware_bridge.ticks (the same rules) under CPython.
"""

import json
from binascii import hexlify, unhexlify

try:  # CPython: the project's package
    from firmware_bridge import fakemachine as machine
    from firmware_bridge.firmware import tinkerfw
    from firmware_bridge.ticks import ticks_add, ticks_diff
except ImportError:  # MicroPython: the files side by side, as on the Pico
    from time import ticks_add, ticks_diff

    import tinkerfw

    import machine


class Clock:
    """ticks_ms that moves only when the test says so, from `start` (wrapping at 2**30)."""

    ticks_add = staticmethod(ticks_add)
    ticks_diff = staticmethod(ticks_diff)

    def __init__(self, start):
        self.ms = start

    def ticks_ms(self):
        return self.ms

    def advance(self, ms):
        self.ms = ticks_add(self.ms, ms)


class Random:
    """A seeded byte source standing in for the hardware RNG (the WebAssembly port has no
    os.urandom), so stand-alone picks are the same on both interpreters."""

    def __init__(self, seed):
        self.state = seed & 0x7FFFFFFF

    def __call__(self, n):
        out = bytearray(n)
        for i in range(n):
            self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
            out[i] = (self.state >> 16) & 0xFF
        return bytes(out)


class Harness:
    def __init__(self):
        self.fw = None
        self.out = bytearray()
        self.clock = Clock(0)

    def _write(self, data):
        self.out += data

    def boot(self, start=0, buzzer=True, major_range=None, board="pico", seed=1):
        self.clock = Clock(start)
        self.out = bytearray()
        kwargs = {"buzzer": buzzer, "board": board, "random_bytes": Random(seed)}
        if major_range:
            kwargs["major_range"] = tuple(major_range)
        self.fw = tinkerfw.Firmware(machine, self._write, self.clock, **kwargs)

    def feed(self, data):
        self.fw.feed(unhexlify(data))

    def advance(self, ms, step=5):
        for _ in range(0, ms, step):
            self.clock.advance(step)
            self.fw.poll()

    def tick(self, ms):
        """Move the clock without polling (time passing between two edges of a bounce)."""
        self.clock.advance(ms)

    def drive(self, level):
        self.fw.button.drive(level)

    def state(self):
        fw = self.fw
        out, self.out = bytes(self.out), bytearray()
        buzzer = None if fw.buzzer is None else [fw.buzzer.freq(), fw.buzzer.duty_u16()]
        return {
            "out": hexlify(out).decode(),
            "lights": [pwm.duty_u16() for pwm in fw.leds],
            "buzzer": buzzer,
            "mode": fw.mode,
            "pressed": fw.pressed,
            "ticks": self.clock.ms,
        }


HARNESS = Harness()


def handle(line, harness=HARNESS):
    """One command (a JSON list) in, the state after it (JSON) out."""
    cmd = json.loads(line)
    result = getattr(harness, cmd[0])(*cmd[1:])
    reply = harness.state() if harness.fw is not None else {}
    reply["result"] = result
    return json.dumps(reply)
