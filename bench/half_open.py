"""One client holding 1,100 half-sent requests: is everyone else still served, and how fast?

    .venv/bin/python -m bench.half_open [--connections 1100] [--requests 50]

The display runs as `tinker-tray display` in a subprocess with the systemd unit's limit of
1,024 open files; the flooding client is 127.0.0.2, the table's phone 127.0.0.1 (loopback
only). Printed: the phone's GET /api/view times with no flood (the peer figure) and while the
flood is held, as median and worst, and their ratio; how many of the flood's connections the
display kept; how much its log grew; and, after the header deadline, how many it still keeps.
Then a harsher flood beside it: the same client also reconnecting as fast as 4 threads can
(each connection reset by the display), with how many of the phone's requests (0.1 s apart)
took over a second.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from bench.harness import duration, heading, rows, timings
from scoreboard.guard import Limits
from tests.helpers import flood


def times(port: int, n: int) -> list[float]:
    """Each request's seconds; `inf` for one not answered within 10 s (then the rest are not
    tried: each would wait as long)."""
    found = []
    for _ in range(n):
        try:
            found.append(flood.get(port))
        except OSError:
            return [*found, float("inf")]
    return found


def spaced(port: int, n: int, gap: float = 0.1) -> list[float]:
    """`times`, one request every `gap` seconds (a phone's page, not a benchmark's loop)."""
    found = []
    for _ in range(n):
        time.sleep(gap)
        found += times(port, 1)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=1100)
    parser.add_argument("--requests", type=int, default=50)
    args = parser.parse_args()
    limits = Limits()
    with tempfile.TemporaryDirectory() as tmp, flood.display(Path(tmp)) as shown:
        times(shown.port, 5)  # warm: the first request imports and opens what the rest reuse
        calm = times(shown.port, args.requests)
        log_before = shown.log_size()
        started = time.perf_counter()
        held = flood.half_open(shown.port, args.connections)
        opened_in = time.perf_counter() - started
        try:
            first = times(shown.port, 1)[0]
            loaded = times(shown.port, args.requests)
            kept = flood.still_open(held)
            with flood.reconnecting(shown.port) as made:
                churned = spaced(shown.port, args.requests)
            grew = shown.log_size() - log_before
            time.sleep(limits.header_s + 1)
            kept_later = flood.still_open(held)
        finally:
            flood.close_all(held)
        alive = shown.process.poll() is None
        out_of_files = shown.log.read_text().count("out of system resource")
    heading(
        f"half-open flood: {args.connections} connections from {flood.ATTACKER} (opened in "
        f"{opened_in:.2f} s); the display may open {flood.UNIT_NOFILE} files"
    )
    rows(
        [
            (f"GET /api/view from {flood.TABLE}, no flood (the peer)", timings(calm)),
            (f"GET /api/view from {flood.TABLE}, under flood", timings(loaded, calm)),
            ("... the first under flood", duration(first)),
            (
                f"... and reconnecting ({made[0]} connections)",
                f"{timings(churned, calm)}; over 1 s: {sum(t > 1 for t in churned)}",
            ),
            ("flood connections the display kept", f"{kept} (per client: {limits.per_client})"),
            (
                f"... {limits.header_s + 1:g} s later (deadline {limits.header_s:g} s)",
                str(kept_later),
            ),
            ("the display's log grew by", f"{grew} bytes"),
            ("'out of system resource' in its log", f"{out_of_files} times"),
            ("the display still runs", str(alive)),
        ]
    )


if __name__ == "__main__":
    main()
