"""The Pico's USB serial and clock as main.py meets them, so that main.py runs unmodified under
MicroPython's WebAssembly port: `sys.stdin.buffer`/`sys.stdout.buffer`, `select.poll` on stdin,
and `time` with a tick counter that moves by the milliseconds the firmware waits. The host's
bytes arrive at the ticks the script says; the run ends (`Finished`) once the script is done and
`idle_ms` have passed. (The heap is measured elsewhere: this port collects garbage only between
calls from JavaScript, never inside main.py's endless loop.)

The WebAssembly port has no os.urandom (the Pico has); only there a stand-in is put in its place.
"""

import sys
import time as real_time
from binascii import hexlify, unhexlify

POLLIN = 1


class Finished(Exception):
    pass


class Stream:
    def __init__(self):
        self.data = bytearray()

    def read(self, n):
        out = bytes(self.data[:n])
        self.data = self.data[n:]
        return out

    def write(self, data):
        self.data += data
        return len(data)


class Stdio:
    def __init__(self):
        self.buffer = Stream()


class Usb:
    """`sys`, `select` and `time` for main.py, sharing one clock and one script."""

    def __init__(self, start, script, idle_ms):
        self.ms = start
        self.elapsed = 0
        self.script = script  # [(ms after start, bytes)], in order
        self.idle_ms = idle_ms
        self.stdin = Stdio()
        self.stdout = Stdio()
        self.polls = 0

    # -- time --------------------------------------------------------------------------------
    def ticks_ms(self):
        return self.ms

    def ticks_add(self, t, d):
        return real_time.ticks_add(t, d)

    def ticks_diff(self, a, b):
        return real_time.ticks_diff(a, b)

    def sleep_ms(self, ms):
        self._pass(ms)

    def _pass(self, ms):
        self.ms = real_time.ticks_add(self.ms, ms)
        self.elapsed += ms
        while self.script and self.script[0][0] <= self.elapsed:
            self.stdin.buffer.data += self.script.pop(0)[1]

    # -- select ------------------------------------------------------------------------------
    def poll_once(self, timeout):
        if self.stdin.buffer.data:
            return [(self.stdin, POLLIN)]
        if timeout:
            self.polls += 1
            if not self.script and self.elapsed >= self.idle_ms:
                raise Finished()
            self._pass(timeout)
        return [(self.stdin, POLLIN)] if self.stdin.buffer.data else []


class Poller:
    def __init__(self, usb):
        self.usb = usb

    def register(self, stream, mask):
        pass

    def poll(self, timeout=-1):
        return self.usb.poll_once(timeout)


class Module:
    """A stand-in module: what main.py imports as `sys`, `select` or `time`."""

    def __init__(self, **names):
        for key in names:
            setattr(self, key, names[key])


class Urandom:
    """A seeded byte source for the port that has no os.urandom."""

    def __init__(self, os_module):
        self._os = os_module
        self.state = 12345

    def __getattr__(self, name):
        return getattr(self._os, name)

    def urandom(self, n):
        out = bytearray(n)
        for i in range(n):
            self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
            out[i] = (self.state >> 16) & 0xFF
        return bytes(out)


def run(start, script, idle_ms):
    """Boot main.py as the Pico does and feed it `script` ([[ms, hex]]); returns what it wrote
    (hex) and how many times it waited for input."""
    import os

    usb = Usb(start, [(ms, unhexlify(data)) for ms, data in script], idle_ms)
    fake_sys = Module(stdin=usb.stdin, stdout=usb.stdout, modules=sys.modules)
    fake_time = Module(
        ticks_ms=usb.ticks_ms,
        ticks_add=usb.ticks_add,
        ticks_diff=usb.ticks_diff,
        sleep_ms=usb.sleep_ms,
    )
    fake_select = Module(poll=lambda: Poller(usb), POLLIN=POLLIN)
    saved = {}
    for name in ("sys", "time", "select", "os", "main", "tinkerfw", "wire"):
        saved[name] = sys.modules.pop(name, None)
    sys.modules["sys"] = fake_sys
    sys.modules["time"] = fake_time
    sys.modules["select"] = fake_select
    if not hasattr(os, "urandom"):  # the WebAssembly port only; a Pico has it
        sys.modules["os"] = Urandom(os)
    try:
        __import__("main")
    except Finished:
        pass
    finally:
        for name in saved:
            sys.modules.pop(name, None)
            if saved[name] is not None:
                sys.modules[name] = saved[name]
    return {
        "out": hexlify(bytes(usb.stdout.buffer.data)).decode(),
        "polls": usb.polls,
    }
