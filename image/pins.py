"""The outside of an emulated Pi's pins: a button to press and four LEDs to watch, on the patched
qemu (image/qemu/, ./tinker image qemu; docs/image.md, "An emulated Pi whose pins work").

qemu is driven through its qtest protocol (QEMU's tests/qtest/libqtest.c speaks it): a line in,
a line out, over a Unix socket qemu connects to. The patch makes each of the GPIO block's 54
pins a qdev GPIO input, so `set_irq_in` drives one from outside (0 or 1; -1 releases it to its
pull), the way QEMU's own device tests drive pins; nothing new in QMP. The LEDs' level changes
are read from the patch's trace event `bcm2835_gpio_output`, which carries qemu's virtual clock:
exact times whether the clock is qtest's (`-accel qtest`, no CPU: each step is ours, what the
tests use) or a guest's running under TCG (`-qtest` works beside `-accel tcg`, where qtest's
`clock_step` does not: the waits are then the host's). The pin numbers are hardware/pinmap.toml's.

Python's standard library only.
"""

from __future__ import annotations

import re
import socket
import subprocess
import tempfile
import time
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

ROOT = Path(__file__).resolve().parent.parent
GPIO_DEVICE = "/machine/soc/peripherals/gpio"
"""The GPIO block's QOM path on qemu's raspi machines (machine, soc, peripherals, gpio)."""
GPIO_BASE = 0x3F200000
"""The GPIO registers on the BCM2837 (Pi 3, Zero 2 W) as the CPU sees them."""
TRACE = re.compile(r"bcm2835_gpio_output pin (\d+) level (\d) at (-?\d+) ns")
LEVELS = re.compile(r"bcm2835_gpio_level levels 0x([0-9a-f]+) events 0x[0-9a-f]+ at (-?\d+) ns")
"""The patch's `bcm2835_gpio_level`: every pin's level after a change, and qemu's virtual time
(the only place a driven input's changes get their virtual time beside a running guest)."""
OUTPUTS = ("bcm2835_gpio_output",)
START_TIMEOUT = 30.0


class QtestError(RuntimeError):
    """qemu refused a qtest command, or stopped, or never connected."""


@dataclass(frozen=True)
class Change:
    """One output pin's level change, at qemu's virtual time (ns since power on)."""

    pin: int
    level: int
    ns: int


@dataclass(frozen=True)
class PinMap:
    """The BCM pins of the button and the LEDs (hardware/pinmap.toml's format)."""

    button: int
    leds: dict[str, int]
    gains: dict[str, float] = field(default_factory=dict)
    """Each LED's `brightness` (1.0 where unsaid), by which the tray scales its level."""

    @classmethod
    def load(cls, path: Path = ROOT / "hardware" / "pinmap.toml") -> PinMap:
        with path.open("rb") as file:
            data = tomllib.load(file)
        leds = {name: led for name, led in data["leds"].items() if isinstance(led, dict)}
        return cls(
            button=int(data["button"]["pin"]),
            leds={name: int(led["pin"]) for name, led in leds.items()},
            gains={name: float(led.get("brightness", 1.0)) for name, led in leds.items()},
        )


class Qtest:
    """A qemu run under qtest, and the line protocol to it. `args` are qemu's own (machine,
    accelerator ...); the qtest socket, the trace and its log file are added here, with no
    display, serial or monitor unless `board_io` is False (a booted guest's args say their own
    serial ports). `events`: the trace events logged (the LEDs' `bcm2835_gpio_output`; add
    `bcm2835_gpio_level` for the button's own changes)."""

    def __init__(
        self,
        qemu: Path,
        args: Sequence[str],
        *,
        board_io: bool = True,
        events: Sequence[str] = OUTPUTS,
    ) -> None:
        self.folder = tempfile.TemporaryDirectory(prefix="tinker-qtest-")
        self.log = Path(self.folder.name) / "trace.log"
        self.irqs: list[tuple[str, int]] = []
        """qtest's asynchronous `IRQ raise N` / `IRQ lower N` lines, in order."""
        path = str(Path(self.folder.name) / "qtest.sock")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(path)
        listener.listen(1)
        listener.settimeout(START_TIMEOUT)
        io = ("-display", "none", "-serial", "null", "-monitor", "none") if board_io else ()
        traces = [arg for event in events for arg in ("-trace", event)]
        command = [
            str(qemu), *args, "-qtest", f"unix:{path}", *io, *traces, "-D", str(self.log),
        ]  # fmt: skip
        self.command_line = command
        self.process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        try:
            self.sock, _ = listener.accept()
        except TimeoutError as error:
            self.close()
            raise QtestError(f"qemu did not connect to qtest: {command}") from error
        finally:
            listener.close()
        self.sock.settimeout(START_TIMEOUT)
        self.reader = self.sock.makefile("r", encoding="ascii", newline="\n")

    def command(self, line: str) -> str:
        """Send one command; its answer after "OK" ("" for a bare OK). IRQ lines that arrive
        meanwhile are kept in `irqs`."""
        self.sock.sendall(line.encode("ascii") + b"\n")
        while True:
            answer = self.reader.readline()
            if not answer:
                raise QtestError(f"qemu closed qtest at {line!r}: {self.stderr()}")
            words = answer.split()
            if words[:1] == ["IRQ"]:
                self.irqs.append((words[1], int(words[2])))
            elif words[:1] == ["OK"]:
                return " ".join(words[1:])
            else:
                raise QtestError(f"{line!r}: {answer.strip()}")

    def readl(self, address: int) -> int:
        return int(self.command(f"readl {address:#x}"), 16)

    def writel(self, address: int, value: int) -> None:
        self.command(f"writel {address:#x} {value:#x}")

    def stderr(self) -> str:
        if self.process.poll() is None or self.process.stderr is None:
            return ""
        return self.process.stderr.read().decode(errors="replace").strip()

    def close(self) -> None:
        """Stop qemu: SIGTERM, as libqtest does (qemu outlives a closed qtest socket)."""
        if hasattr(self, "sock"):
            self.sock.close()
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stderr is not None:
            self.process.stderr.close()
        self.folder.cleanup()

    def __enter__(self) -> Qtest:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class Pins:
    """The tray's button and LEDs on a running patched qemu. In qtest's own clock (`-accel
    qtest`) every wait steps the virtual clock exactly; beside a running guest it sleeps."""

    def __init__(self, qtest: Qtest, pinmap: PinMap | None = None) -> None:
        self.qtest = qtest
        self.pinmap = pinmap or PinMap.load()

    def drive(self, pin: int, level: int) -> None:
        """Drive `pin` from outside: 0 or 1, or -1 to let it go (it reads its pull)."""
        self.qtest.command(f"set_irq_in {GPIO_DEVICE} unnamed-gpio-in {pin} {level}")

    def press(self) -> None:
        """The button down: it joins its pin to ground (pinmap.toml's pull_up = true)."""
        self.drive(self.pinmap.button, 0)

    def release(self) -> None:
        """The button up: nothing drives the pin, its pull-up holds it high."""
        self.drive(self.pinmap.button, -1)

    def bouncing_press(self, edges: int = 5, over_ns: int = 3_000_000) -> None:
        """A press as a real contact makes it, from up: `edges` edges (odd: it ends down),
        evenly over `over_ns`."""
        if edges % 2 == 0:
            raise ValueError(f"a press from up ends down after an odd number of edges: {edges}")
        for edge in range(edges):
            self.drive(self.pinmap.button, 0 if edge % 2 == 0 else -1)
            if edge < edges - 1:
                self.wait(over_ns // (edges - 1))

    def wait(self, ns: int) -> int:
        """Let `ns` of virtual time pass (qtest's clock), or sleep that long beside a guest.
        The virtual time after it, or -1 when qemu's clock is not qtest's."""
        try:
            return int(self.qtest.command(f"clock_step {ns}"))
        except QtestError as error:  # qtest's answer beside TCG: FAIL Unknown command
            if "Unknown command" not in str(error):
                raise
            time.sleep(ns / 1e9)
            return -1

    def changes(self) -> list[Change]:
        """Every LED pin's level changes so far, with their virtual times, from qemu's trace."""
        leds = set(self.pinmap.leds.values())
        text = self.qtest.log.read_text() if self.qtest.log.exists() else ""
        found = (Change(int(p), int(level), int(ns)) for p, level, ns in TRACE.findall(text))
        return [change for change in found if change.pin in leds]

    def button_changes(self) -> list[Change]:
        """The button pin's level changes so far, with their virtual times, from the trace's
        `bcm2835_gpio_level` lines (Qtest started with that event); the pin reads 0 at power
        on (pulls off, undriven)."""
        pin, bit = self.pinmap.button, 1 << self.pinmap.button
        text = self.qtest.log.read_text() if self.qtest.log.exists() else ""
        found, last = [], 0
        for levels, ns in LEVELS.findall(text):
            level = 1 if int(levels, 16) & bit else 0
            if level != last:
                found.append(Change(pin, level, int(ns)))
                last = level
        return found
