"""Latency of the tray on MockFactory pins, beside raw gpiozero in the same run.

    .venv/bin/python -m bench.tray_latency [--presses 10000] [--scoreboard] [--json]

For each of N taps (the tap is decided on the release edge; debounce 1 ms, a show of four
0.1 ms steps so the next tap is not ignored), it measures from the pin edge to
  (a) the Pick arriving at a bus subscriber, and
  (b) the show's first frame written to the LED pins,
and (c) how long the tray's thread was busy handling the tap (pick, show, posting the events),
beside gpiozero's own edge -> `when_activated` callback on another mock pin. Then the service's
start-up time and resident memory beside a bare `python -c 'import gpiozero'`.

`--scoreboard` attaches the table's scoreboard (`TableSession`) with its SQLite journal in a
temporary directory (WAL, synchronous=FULL: an fsync per pick), as `tinker-tray run` does; the
next tap comes once the journal has the pick (at a table the show alone lasts about 3 s).
`--json` prints one JSON object instead of the table (no start-up figures).
Figures are from this machine; a Pi Zero 2 W is several times slower: compare the ratios.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from gpiozero import DigitalInputDevice
from gpiozero.pins.mock import MockFactory, MockPWMPin

from bench.harness import ROOT, heading, percentile, ratio, row, timings
from tray import config as tray_config
from tray.backend import DARK
from tray.bus import Bus
from tray.config import ShowSettings
from tray.events import ButtonPressed, Event, Pick
from tray.gpio_tray import GpioTray
from tray.pick import Picker
from tray.service import TrayService


def wait(seconds: float) -> None:
    """The finger's pauses. Sleeping, not spinning: a busy loop here would hold the GIL, and the
    tray's thread would queue behind it for up to the 5 ms switch interval (on a Pi the edges
    come from lgpio's thread, and nothing in the service spins)."""
    time.sleep(seconds)


def percentiles(samples_ns: list[int]) -> tuple[float, float]:
    """(median, p99) in microseconds."""
    us = [s / 1000 for s in samples_ns]
    return statistics.median(us), percentile(us, 0.99)


def summary(name: str, samples_ns: list[int], peer_ns: list[int] | None = None) -> None:
    """A row of nanosecond samples, beside raw gpiozero's (the peer) if given."""
    peer = None if peer_ns is None else [s / 1e9 for s in peer_ns]
    row(name, timings([s / 1e9 for s in samples_ns], peer))


def raw_gpiozero(factory: MockFactory, n: int) -> list[int]:
    device = DigitalInputDevice(4, pull_up=True, pin_factory=factory)
    seen: list[int] = []
    device.when_activated = lambda: seen.append(time.perf_counter_ns())
    starts = []
    for _ in range(n):
        starts.append(time.perf_counter_ns())
        device.pin.drive_low()
        device.pin.drive_high()
    device.close()
    return [b - a for a, b in zip(starts, seen, strict=True)]


def bare_handoff(n: int) -> list[int]:
    """The floor for any design that leaves the callback thread: one hop to another thread."""
    from tray.player import Scheduler

    scheduler, done, out = Scheduler("bench-handoff"), threading.Semaphore(0), []

    def job(t0: int) -> None:
        out.append(time.perf_counter_ns() - t0)
        done.release()

    for _ in range(n):
        scheduler.call_soon(job, time.perf_counter_ns())
        done.acquire()
    scheduler.close()
    return out


@contextlib.contextmanager
def scoreboard(bus: Bus, show: ShowSettings) -> Iterator[threading.Semaphore]:
    """The scoreboard with its journal on `bus`; yields a semaphore released per journaled pick."""
    from scoreboard.journal import Journal
    from scoreboard.session import TableChanged, TableSession

    journaled = threading.Semaphore(0)
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "journal.sqlite3")
        session = TableSession(journal, bus, show=show)
        session.new_game(["Ann", "Bea", "Cy"])

        def on_change(event: Event) -> None:
            if isinstance(event, TableChanged) and event.kind == "pick":
                journaled.release()

        bus.subscribe(on_change, TableChanged)
        try:
            yield journaled
        finally:
            session.close()
            journal.close()


@dataclasses.dataclass
class Marks:
    """When each tap's Pick reached the bus and its show's first frame the pins (ns), how long
    the tray's thread was busy with each tap, and a semaphore released at each, so the finger
    waits for both before the next tap."""

    picks: list[int] = dataclasses.field(default_factory=list)
    frames: list[int] = dataclasses.field(default_factory=list)
    busy: list[int] = dataclasses.field(default_factory=list)
    picked: threading.Semaphore = dataclasses.field(default_factory=lambda: threading.Semaphore(0))
    lit: threading.Semaphore = dataclasses.field(default_factory=lambda: threading.Semaphore(0))
    waiting_frame: bool = False  # a tap is out: the next lit frame is its first


def quick_config() -> tray_config.Config:
    """The tray's own settings, with a 1 ms debounce and a show of four 0.1 ms steps, so that
    the next tap comes at once and is not ignored as one during the show."""
    base = tray_config.load()
    return dataclasses.replace(
        base,
        button=dataclasses.replace(base.button, debounce_s=0.001),
        show=ShowSettings(steps=4, first_step_s=1e-4, last_step_s=1e-4, blinks=0, lit_s=0.0),
    )


def time_frames(tray: GpioTray, marks: Marks) -> None:
    """Mark the first lit frame the player writes to the LED pins after each tap."""
    show = tray.player._show

    def timed_show(levels):
        show(levels)
        if marks.waiting_frame and levels != DARK:
            marks.waiting_frame = False
            marks.frames.append(time.perf_counter_ns())
            marks.lit.release()

    tray.player._show = timed_show


def time_picks(bus: Bus, marks: Marks) -> None:
    """Mark each Pick as a subscriber of the bus receives it."""

    def on_pick(event):
        marks.picks.append(time.perf_counter_ns())
        marks.picked.release()

    bus.subscribe(on_pick, Pick)


def time_handling(service: TrayService, marks: Marks) -> None:
    """Mark how long the tray's thread spends handling each press (the pick, the show started,
    the events posted)."""
    handle = service._handle

    def timed_handle(event: Event) -> None:  # on the tray's thread
        t0 = time.perf_counter_ns()
        handle(event)
        if isinstance(event, ButtonPressed):
            marks.busy.append(time.perf_counter_ns() - t0)

    service._handle = timed_handle  # type: ignore[method-assign]


def tap(service: TrayService, pin: Any, marks: Marks) -> int:
    """One tap, once the last show is over, as a quick finger makes it; the release edge's
    time (ns), when the tap is decided."""
    while service.spinning:
        wait(0.0002)
    wait(0.002)  # the finger stays up longer than the debounce time, as a real one does
    pin.drive_low()
    wait(0.0015)  # longer than the 1 ms debounce: a real (if very quick) tap
    marks.waiting_frame = True
    edge = time.perf_counter_ns()
    pin.drive_high()
    return edge


def service_latency(
    factory: MockFactory, n: int, with_scoreboard: bool = False
) -> tuple[list[int], list[int], list[int], int]:
    """(edge to Pick, edge to first frame, the thread's busy time) of `n` taps (ns), and how many
    taps were missed (a Pick, frame or journaled pick that did not come in time)."""
    config = quick_config()
    tray = GpioTray(config, pin_factory=factory)
    marks = Marks()
    time_frames(tray, marks)
    bus = Bus()
    time_picks(bus, marks)
    with contextlib.ExitStack() as stack:
        journaled = stack.enter_context(scoreboard(bus, config.show)) if with_scoreboard else None
        service = TrayService(tray, bus, Picker(), config)
        time_handling(service, marks)
        service.start()
        stack.callback(service.stop)
        pin = tray.devices.button.pin
        edges: list[int] = []
        missed = 0
        for _ in range(n):
            edges.append(tap(service, pin, marks))
            if not (
                marks.picked.acquire(timeout=2)
                and marks.lit.acquire(timeout=2)
                and (journaled is None or journaled.acquire(timeout=5))
            ):
                missed += 1
                edges.pop()
                marks.waiting_frame = False
    return (
        [p - e for e, p in zip(edges, marks.picks, strict=False)],
        [f - e for e, f in zip(edges, marks.frames, strict=False)],
        marks.busy,
        missed,
    )


CHILD_SERVICE = """
import time; t0 = time.perf_counter()
from gpiozero.pins.mock import MockFactory, MockPWMPin
from tray import config; from tray.bus import Bus; from tray.pick import Picker
from tray.gpio_tray import GpioTray; from tray.service import TrayService
cfg = config.load()
s = TrayService(GpioTray(cfg, pin_factory=MockFactory(pin_class=MockPWMPin)), Bus(), Picker(), cfg)
s.start(); s.press(); time.sleep(0.2)
rss = [l for l in open('/proc/self/status') if l.startswith('VmRSS')][0].split()[1]
print(rss, time.perf_counter() - t0); s.stop()
"""
CHILD_BARE = """
import time; t0 = time.perf_counter()
import gpiozero
rss = [l for l in open('/proc/self/status') if l.startswith('VmRSS')][0].split()[1]
print(rss, time.perf_counter() - t0)
"""


def child(code: str, runs: int = 7) -> tuple[float, float, float]:
    """(median wall time of the whole process, median in-process time, RSS MiB)."""
    walls, inner, rss = [], [], []
    for _ in range(runs):
        start = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.split()
        walls.append(time.perf_counter() - start)
        rss.append(int(out[0]) / 1024)
        inner.append(float(out[1]))
    return statistics.median(walls), statistics.median(inner), statistics.median(rss)


def figures(
    raw: list[int],
    handoff: list[int],
    to_pick: list[int],
    to_frame: list[int],
    busy: list[int],
    missed: int,
    args: argparse.Namespace,
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "presses": args.presses,
        "missed": missed,
        "scoreboard": args.scoreboard,
        "python": sys.version.split()[0],
    }
    for name, samples in (
        ("raw_gpiozero_edge_to_callback", raw),
        ("bare_handoff", handoff),
        ("edge_to_pick", to_pick),
        ("edge_to_led", to_frame),
        ("tray_thread_busy_per_tap", busy),
    ):
        median, p99 = percentiles(samples)
        out[f"{name}_median_us"], out[f"{name}_p99_us"] = round(median, 1), round(p99, 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=10_000)
    parser.add_argument(
        "--scoreboard",
        action="store_true",
        help="attach the scoreboard and its journal, as `tinker-tray run` does",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    factory = MockFactory(pin_class=MockPWMPin)
    raw = raw_gpiozero(factory, args.presses)
    handoff = bare_handoff(args.presses)
    to_pick, to_frame, busy, missed = service_latency(factory, args.presses, args.scoreboard)
    if args.json:
        print(json.dumps(figures(raw, handoff, to_pick, to_frame, busy, missed, args)))
        return
    attached = ", scoreboard and journal attached" if args.scoreboard else ""
    heading(
        f"tray latency on MockFactory pins, {args.presses} presses{attached} "
        f"(python {sys.version.split()[0]}), missed {missed}; the peer: raw gpiozero"
    )
    summary("raw gpiozero edge -> callback (the peer)", raw)
    summary("bare hop to another thread", handoff, raw)
    summary("edge -> Pick on the bus", to_pick, raw)
    summary("edge -> first LED frame on pins", to_frame, raw)
    summary("tray thread busy per tap", busy)
    bare_wall, bare_in, bare_rss = child(CHILD_BARE)
    svc_wall, svc_in, svc_rss = child(CHILD_SERVICE)
    heading("start-up, median of whole processes (the peer: python -c 'import gpiozero')")
    row(
        "python -c import gpiozero (the peer)",
        f"process {bare_wall * 1000:.0f} ms, in-process {bare_in * 1000:.0f} ms,"
        f" RSS {bare_rss:.1f} MiB",
    )
    row(
        "tray service started (+0.2 s)",
        f"process {svc_wall * 1000:.0f} ms, to start {(svc_in - 0.2) * 1000:.0f} ms,"
        f" RSS {svc_rss:.1f} MiB ({ratio(svc_rss, bare_rss)} the peer's)",
    )


if __name__ == "__main__":
    main()
