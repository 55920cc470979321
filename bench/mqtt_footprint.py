"""What MQTT costs the tray service: start-up and memory with and without --mqtt, and
paho-mqtt's own import time and memory (the Pi Zero 2 W budget: 512 MB, a slow start).

    .venv/bin/python -m bench.mqtt_footprint [--runs 5]

Each run is a fresh process: `tinker-tray emulate --presses 1` on a quick show, web display on
and off, against Debian's mosquitto on a free loopback port. Start-up is from the process's
first line to "emulator ready"; memory is the process's peak RSS (ru_maxrss) at the end.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import textwrap
from functools import partial
from pathlib import Path

from bench.harness import ROOT, heading, interleaved, row, timings
from tests.helpers.broker import Mosquitto
from tests.helpers.config import MOCK_PINS, QUICK_PIN_MAP

PROBE = textwrap.dedent("""\
    import time
    START = time.perf_counter()
    import builtins, resource, sys
    ready = []
    real_write = sys.stdout.write
    def write(text):
        if "emulator ready" in text and not ready:
            ready.append(time.perf_counter() - START)
        return real_write(text)
    sys.stdout.write = write
    from cli.main import main
    main(sys.argv[1:])
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"RESULT {ready[0]:.4f} {rss:.1f}", file=sys.stderr)
    """)

IMPORT = textwrap.dedent("""\
    import resource, time
    def rss():
        return int(open("/proc/self/status").read().split("VmRSS:")[1].split()[0]) / 1024
    before = rss()
    start = time.perf_counter()
    import paho.mqtt.client as mqtt
    took = time.perf_counter() - start
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    print(f"RESULT {took:.4f} {rss() - before:.1f}")
    """)


def one_start(args: list[str]) -> tuple[float, float]:
    """One fresh process's start-up (seconds to "emulator ready") and peak RSS (MiB)."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        cwd=ROOT,
        text=True,
        capture_output=True,
        timeout=120,
    )
    line = [x for x in done.stderr.splitlines() if x.startswith("RESULT")]
    if not line:
        raise SystemExit(done.stderr)
    _, start, mem = line[-1].split()
    return float(start), float(mem)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    imports = []
    for _ in range(args.runs):
        out = subprocess.run(
            [sys.executable, "-c", IMPORT], text=True, capture_output=True, check=True
        ).stdout.split()
        imports.append((float(out[1]), float(out[2])))
    heading(f"paho-mqtt import and one client, {args.runs} processes")
    row("import", timings([t for t, _ in imports]))
    row("RSS it adds", f"{statistics.median(m for _, m in imports):.1f} MiB (median)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "pins.toml").write_text(MOCK_PINS + QUICK_PIN_MAP)
        broker = Mosquitto(folder / "mosquitto").start()
        try:
            for web in ("--no-web", "--web"):
                common = ["emulate", "--config", str(folder / "pins.toml"), "--presses", "1"]
                common += [web, "--port", "0", "--journal", str(folder / "j.sqlite3")]
                mqtt = [*common, "--mqtt", broker.url, "--table", "b"]
                runs = interleaved(
                    {
                        "without MQTT": partial(one_start, common),
                        "with --mqtt": partial(one_start, mqtt),
                    },
                    args.runs,
                )
                heading(f"emulate {web}, {args.runs} starts each, in turns (start-up, peak RSS)")
                peer = runs["without MQTT"]
                for label, found in runs.items():
                    starts = [s for s, _ in found]
                    rss = statistics.median(m for _, m in found)
                    beside = None if found is peer else [s for s, _ in peer]
                    row(
                        f"{label}{' (the peer)' if beside is None else ''}", timings(starts, beside)
                    )
                    row("... peak RSS, median", f"{rss:.1f} MiB")
        finally:
            broker.stop()


if __name__ == "__main__":
    main()
