"""The reference firmware on a pseudo-terminal, for tests, benchmarks and laptops without a Pico.

The firmware's own logic (`firmware/tinkerfw.py`) runs in a thread on the master side of a pty
with the fake `machine` module; the host opens the slave side with pyserial exactly as it would a
real /dev/ttyACM0. `unplug()` closes the master (the host's reads then fail as on a real unplug)
and `replug()` makes a new pty with a freshly booted firmware.

`start_tcp()` serves the same firmware on a local TCP port instead, for `socket://` URLs (a tray
behind ser2net, or the test that the host opens what docs/bridge.md promises): one host
connection at a time, and a host that reconnects finds the firmware where it left it.
"""

from __future__ import annotations

import os
import select
import socket
import threading
import time
import tty
from collections.abc import Callable

from firmware_bridge import fakemachine
from firmware_bridge.firmware import tinkerfw, wire
from firmware_bridge.ticks import MonotonicClock


class Emulator:
    """One emulated tray. `path` is the tty to open (None while unplugged)."""

    def __init__(
        self,
        *,
        major_range: tuple[int, int] = (wire.PROTOCOL_MAJOR,) * 2,
        buzzer: bool = True,
        board: str = "emulator",
        on_output: Callable[[bytes], None] | None = None,
        ticks_start: int = 0,
    ) -> None:
        """`ticks_start`: the firmware's tick counter at boot (it wraps at 2**30, as a Pico's
        does; a test can start it just before the wrap)."""
        self._major_range = major_range
        self._ticks_start = ticks_start
        self._buzzer = buzzer
        self._board = board
        self._on_output = on_output
        self._lock = threading.Lock()  # one writer to the master at a time
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._master = self._slave = -1
        self._listener: socket.socket | None = None
        self._conn: socket.socket | None = None
        self.path: str | None = None
        self.firmware: tinkerfw.Firmware | None = None
        self.dropped_output = 0

    # -- plugging --------------------------------------------------------------------------
    def start(self) -> str:
        """Plug in: a new pty and a freshly booted firmware. Returns the tty path."""
        if self.path is not None:
            return self.path
        master, slave = os.openpty()
        tty.setraw(master)
        tty.setraw(slave)  # no echo or CR/LF translation before the host opens it
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.firmware = self._boot()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="tray-emulator", daemon=True)
        self._thread.start()
        self.path = os.ttyname(slave)
        return self.path

    def start_tcp(self, host: str = "127.0.0.1", port: int = 0) -> str:
        """Plug in on a TCP port instead of a pty; returns its `socket://host:port` URL."""
        if self.path is not None:
            return self.path
        listener = socket.create_server((host, port))
        listener.setblocking(False)
        self._listener = listener
        self.firmware = self._boot()
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._serve_tcp, name="tray-emulator-tcp", daemon=True
        )
        self._thread.start()
        self.path = f"socket://{host}:{listener.getsockname()[1]}"
        return self.path

    def unplug(self) -> None:
        """Pull the cable: stop the firmware and close both ends of the pty (or the socket)."""
        self.path = None
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        with self._lock:
            for fd in (self._master, self._slave):
                if fd >= 0 and self._conn is None:
                    os.close(fd)
            for sock in (self._conn, self._listener):
                if sock is not None:
                    sock.close()
            self._conn = self._listener = None
            self._master = self._slave = -1
        self.path = None

    def replug(self) -> str:
        self.unplug()
        return self.start()

    stop = unplug

    # -- the device's side -------------------------------------------------------------------
    def _write(self, data: bytes) -> None:
        """The firmware's output. Waits briefly if the host is slow, then drops (and counts),
        as a USB device does when nobody reads: the firmware thread never blocks for good."""
        with self._lock:
            self._write_locked(data)
        if self._on_output is not None:
            self._on_output(data)

    def _write_locked(self, data: bytes) -> None:
        view = memoryview(data)
        deadline = time.monotonic() + 0.5
        while view and self._master >= 0:
            try:
                view = view[os.write(self._master, view) :]
            except BlockingIOError:
                if time.monotonic() > deadline:
                    self.dropped_output += 1
                    return
                select.select([], [self._master], [], 0.01)
            except OSError:
                return

    def inject(self, *parts: bytes, gap_s: float = 0.0) -> None:
        """Send raw bytes to the host as if the device had (noise, truncated frames...).

        Several parts are written `gap_s` apart so the host reads them separately, and nothing
        the firmware says (a heartbeat reply) can land between them: a real device has one
        writer, so a frame split across reads never has another frame inside it."""
        with self._lock:
            for i, part in enumerate(parts):
                if i and gap_s:
                    time.sleep(gap_s)
                self._write_locked(part)

    def reboot(self) -> None:
        """Restart the firmware without unplugging (a watchdog reset): the port stays open."""
        self.firmware = self._boot()

    def _boot(self) -> tinkerfw.Firmware:
        return tinkerfw.Firmware(
            fakemachine,
            self._write,
            MonotonicClock(self._ticks_start),
            buzzer=self._buzzer,
            board=self._board,
            major_range=self._major_range,
        )

    def _loop(self) -> None:
        self._pump(self._master)

    def _pump(self, fd: int, *, stream: bool = False) -> None:
        """Feed the firmware what arrives on `fd` and let it poll, until stopped (or, on a
        `stream` socket, until the host hangs up)."""
        while not self._stop.is_set():
            fw = self.firmware
            assert fw is not None
            try:
                ready, _, _ = select.select([fd], [], [], 0.002)
                if ready:
                    data = os.read(fd, 4096)
                    if stream and not data:
                        return  # the host closed the connection
                    fw.feed(data)
            except BlockingIOError:
                pass
            except OSError:  # EIO: the host side is not open right now
                if stream:
                    return
                self._stop.wait(0.01)
            fw.poll()

    def _serve_tcp(self) -> None:
        listener = self._listener
        assert listener is not None
        while not self._stop.is_set():
            ready, _, _ = select.select([listener], [], [], 0.01)
            fw = self.firmware
            if fw is not None:
                fw.poll()
            if not ready:
                continue
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            conn.setblocking(False)
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                self._conn, self._master = conn, conn.fileno()
            try:
                self._pump(conn.fileno(), stream=True)
            finally:
                with self._lock:
                    if self._conn is conn:
                        self._conn, self._master = None, -1
                        conn.close()

    # -- a person at the tray --------------------------------------------------------------
    @property
    def button(self) -> fakemachine.Pin:
        assert self.firmware is not None, "the emulator is unplugged"
        return self.firmware.button

    def press(self) -> None:
        self.button.drive(0)

    def release(self) -> None:
        self.button.drive(1)

    def tap(self, seconds: float = 0.05) -> None:
        """Press and release (the debounce needs the level stable for 20 ms, so hold > that).
        The release waits until the firmware has seen the press: on a loaded machine its thread
        may not have run during `seconds`, and a finger that quick would be lost as bounce."""
        self.press()
        time.sleep(seconds)
        deadline = time.monotonic() + 5.0
        while not self._sees_pressed() and time.monotonic() < deadline:
            time.sleep(0.002)
        self.release()

    def _sees_pressed(self) -> bool:
        fw = self.firmware
        return fw is None or fw.pressed

    def lights(self) -> tuple[float, float, float, float]:
        """What the four LEDs show now, 0..1 in COLOURS order."""
        assert self.firmware is not None, "the emulator is unplugged"
        return tuple(pwm.duty_u16() / 65535 for pwm in self.firmware.leds)
