"""16 machines hold 16 event streams each, every connection the display has: is the host served,
and how fast?

    .venv/bin/python -m bench.stream_roles [--addresses 16] [--each 16] [--requests 50]

The display runs as `tinker-tray display` in a subprocess with the systemd unit's limit of
1,024 open files; the readers' streams (`GET /api/events`, each read up to its first message)
come from 127.0.0.2 to 127.0.0.17, the host (its token in `X-Table-Token`) from 127.0.0.100
and the TV (the Pi's own screen, no token) from 127.0.0.1 (loopback only). Printed: the host's
and the TV's GET /api/view times with no stream open (the peer figure) and while the streams
are held, as median and worst, their ratio, the first request's time (it sheds the oldest
reader's stream to get a connection: `scoreboard.guard`), and how many streams the display
still holds. Before connections by role (main 290b66c), the host's connection was reset.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from bench.harness import duration, heading, rows, timings
from tests.helpers import flood

HOST, TV = "127.0.0.100", flood.TABLE


def times(port: int, n: int, source: str, headers: dict[str, str] | None = None) -> list[float]:
    """Each request's seconds; `inf` for one not answered or reset (then no more are tried)."""
    found = []
    for _ in range(n):
        try:
            found.append(flood.get(port, "/api/view", source=source, headers=headers))
        except (OSError, RuntimeError):
            return [*found, float("inf")]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--addresses", type=int, default=16)
    parser.add_argument("--each", type=int, default=16)
    parser.add_argument("--requests", type=int, default=50)
    args = parser.parse_args()
    n = args.requests
    with tempfile.TemporaryDirectory() as tmp, flood.display(Path(tmp)) as shown:
        port, host = shown.port, {"X-Table-Token": shown.token}
        times(port, 5, HOST, host)  # warm: the first request imports what the rest reuse
        calm = {"host": times(port, n, HOST, host), "TV": times(port, n, TV)}
        held = flood.streams(port, flood.stream_sources(args.addresses), args.each)
        try:
            first = times(port, 1, HOST, host)[0]
            loaded = {"host": times(port, n, HOST, host), "TV": times(port, n, TV)}
            kept = flood.still_open(held)
        finally:
            flood.close_all(held)
        alive = shown.process.poll() is None
    streams = args.addresses * args.each
    heading(
        f"{streams} event streams held ({args.each} from each of {args.addresses} addresses, "
        f"127.0.0.2 on); the display may open {flood.UNIT_NOFILE} files; {n} requests each"
    )
    figures = []
    for who, source in (("host", HOST), ("TV", TV)):
        figures += [
            (f"GET /api/view, the {who} ({source}), none open", timings(calm[who])),
            (f"... while {streams} streams are open", timings(loaded[who], calm[who])),
        ]
    figures += [
        ("the host's first request, every connection held", duration(first)),
        ("readers' streams still held afterwards", f"{kept} of {streams}"),
        ("the display still runs", str(alive)),
    ]
    rows(figures)


if __name__ == "__main__":
    main()
