"""What `./tinker run` costs left idle (the emulator on a laptop, open all evening): the CPU
time of its process over `--seconds` of nobody pressing anything, as a share of one core, beside
the emulator's previous drawing (rich's `Live` refreshing 20 times a second by itself) in the
same run.

    .venv/bin/python -m bench.idle [--seconds 10] [--rounds 2]

Each side is `tinker-tray run` (what `./tinker run` execs: `cli.main`) in a process of its own
on a pseudo-terminal of 120x40 (the emulator draws only on a terminal), with its journal in a
temporary folder, the display on 127.0.0.1 and no mDNS. After a settling time its user and
system CPU time (all its threads: /proc/PID/stat) is read at the start and the end of the idle
spell; the terminal's output is read and thrown away, as a terminal would draw it. The sides run
in turns (`harness.interleaved`). The issue's bar: below 2% of a core.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path

from bench.harness import ROOT, heading, interleaved, row, versus

SIDES = {"redrawn on change (now)": "now", "refresh_per_second=20 (the peer: before)": "before"}
SETTLE_S = 4.0
"""The start-up (imports, the journal, the web server) is not idle: left out of the figure."""

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User plus system time of every thread of `pid` so far (fields 14 and 15 of its stat,
    counted after the command's name, which may hold spaces)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def drain(fd: int, stop: threading.Event) -> None:
    """Read what the emulator draws, as a terminal does: a full pty would block its writes."""
    while not stop.is_set():
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                os.read(fd, 65536)
            except OSError:
                return


def share_of_a_core(side: str, seconds: float) -> float:
    """One idle spell of one side: its CPU seconds per wall-clock second."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    stop = threading.Event()
    reader = threading.Thread(target=drain, args=(master, stop), daemon=True)
    reader.start()
    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, "-m", "bench.idle", "--child", side, "--", "run"]
        command += ["--journal", f"{tmp}/journal.sqlite3", "--host", "127.0.0.1"]
        command += ["--port", str(free_port()), "--no-mdns"]
        proc = subprocess.Popen(
            command, cwd=ROOT, stdin=slave, stdout=slave, stderr=slave, start_new_session=True
        )
        try:
            time.sleep(SETTLE_S)
            before, started = cpu_seconds(proc.pid), time.monotonic()
            time.sleep(seconds)
            used, wall = cpu_seconds(proc.pid) - before, time.monotonic() - started
            if proc.poll() is not None:  # a figure of a process that was not there is none
                raise SystemExit(f"{side}: tinker-tray run exited ({proc.returncode}) while idle")
        finally:
            os.write(master, b"q")  # the emulator's own way out, terminal restored
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGTERM)
                proc.wait(timeout=15)
            stop.set()
            reader.join()
            os.close(master)
            os.close(slave)
    return used / wall


def previous_drawing() -> None:
    """The peer, in its child: the emulator's `Live` as it was, refreshing 20 times a second
    from its own thread (the loop's own redraws stay, and find nothing changed)."""
    from rich.live import Live

    from tray.terminal_emulator import TerminalEmulator

    def live(self: TerminalEmulator) -> Live:
        return Live(get_renderable=self.render, refresh_per_second=20, screen=False)

    TerminalEmulator.live = live  # type: ignore[method-assign]


def child(side: str, argv: list[str]) -> int:
    from cli.main import main as tinker_tray

    if side == "before":
        previous_drawing()
    return tinker_tray(argv)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="each idle spell")
    parser.add_argument("--rounds", type=int, default=2, help="idle spells of each side")
    parser.add_argument("--child", choices=sorted(SIDES.values()), help=argparse.SUPPRESS)
    args, rest = parser.parse_known_args()
    if args.child:
        return child(args.child, [a for a in rest if a != "--"])
    runs = {
        label: (lambda side=side: share_of_a_core(side, args.seconds))
        for label, side in SIDES.items()
    }
    found = interleaved(runs, args.rounds)
    heading(f"`tinker-tray run` (the emulator) idle, {args.seconds:g} s x {args.rounds} each")
    now, before = (max(found[label]) for label in SIDES)
    for label, shares in found.items():
        spells = ", ".join(f"{s:.2%}" for s in shares)
        row(label, f"worst {max(shares):.2%} of a core ({spells})")
    row("now, beside the peer", versus(now, before))
    row("below 2% of a core (issue 52)", "yes" if now < 0.02 else "NO")
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
