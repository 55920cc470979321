"""What the display keeps after its event streams close (issue 20: "memory returns to its level").

    .venv/bin/python -m bench.stream_memory [--streams 250] [--rounds 4]

Each round opens `--streams` event streams at once (each from its own loopback address, as that
many phones would, so the per-client cap does not refuse them), reads each one's first message,
closes them all and waits two seconds. Printed per round, beside a bare Starlette +
sse-starlette server in the same run:

- the server process's RSS above its level before the first round, and
- (ours only) the Python heap as tracemalloc sees it, in a server run in this process.

What the figures say: the Python heap returns to its level (every object of a stream is freed);
the RSS keeps a high-water mark from the first round (the allocator keeps the pages it was
given), which later rounds do not raise, so it is bounded by the connection cap
(`scoreboard.guard.Limits`) and matched by the bare server.
"""

from __future__ import annotations

import argparse
import gc
import socket
import subprocess
import tempfile
import time
import tracemalloc
from pathlib import Path

from bench import display_latency as D
from bench.harness import ROOT, child, heading, row
from bench.harness import resident_mib as rss_mib
from scoreboard.server import ServerThread, bind


def open_and_close(port: int, path: str, n: int) -> None:
    """`n` streams open at once, each read up to its first message, then all closed."""
    socks = []
    try:
        for i in range(n):
            s = socket.socket()
            s.bind((f"127.0.{1 + i // 200}.{2 + i % 200}", 0))
            s.connect(("127.0.0.1", port))
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: t\r\n\r\n".encode())
            socks.append(s)
        for s in socks:
            s.settimeout(10)
            if not s.recv(65536):
                raise SystemExit("a stream closed before its first message")
    finally:
        for s in socks:
            s.close()
    time.sleep(2)


def rss_rounds(kind: str, streams: int, rounds: int) -> list[float]:
    sock = bind()
    port = sock.getsockname()[1]
    sock.close()
    with tempfile.TemporaryDirectory() as tmp:
        args = ["--serve", kind, "--port", str(port), "--journal", f"{tmp}/j.sqlite3"]
        proc = subprocess.Popen(
            child("bench.display_latency", *args), cwd=ROOT, stderr=subprocess.DEVNULL
        )
        try:
            D.wait_up(port)
            time.sleep(1)
            base = rss_mib(proc.pid)
            path = "/events" if kind == "bare" else "/api/events"
            grown = []
            for _ in range(rounds):
                open_and_close(port, path, streams)
                grown.append(rss_mib(proc.pid) - base)
            return grown
        finally:
            proc.terminate()
            proc.wait(5)


def heap_rounds(streams: int, rounds: int) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        app, _ = D.ours_app(Path(tmp) / "j.sqlite3")
        sock = bind("127.0.0.1", 0)
        server = ServerThread(app, sock).start()
        try:
            D.wait_up(sock.getsockname()[1])
            tracemalloc.start()
            gc.collect()
            base = tracemalloc.get_traced_memory()[0]
            grown = []
            for _ in range(rounds):
                open_and_close(sock.getsockname()[1], "/api/events", streams)
                gc.collect()
                grown.append((tracemalloc.get_traced_memory()[0] - base) / 2**20)
            return grown
        finally:
            tracemalloc.stop()
            server.stop()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--streams", type=int, default=250)
    ap.add_argument("--rounds", type=int, default=4)
    args = ap.parse_args()
    ours = rss_rounds("ours", args.streams, args.rounds)
    bare = rss_rounds("bare", args.streams, args.rounds)
    heap = heap_rounds(args.streams, args.rounds)
    heading(
        f"{args.streams} event streams opened at once and closed, {args.rounds} rounds:"
        " memory kept after each (the peer: a bare Starlette server)"
    )
    for k, (o, b, h) in enumerate(zip(ours, bare, heap, strict=True), 1):
        row(
            f"round {k}",
            f"RSS ours {o:+.1f} MiB, bare {b:+.1f} MiB; ours' Python heap {h:+.2f} MiB",
        )
    row(
        "RSS growth after round 1",
        f"ours {ours[-1] - ours[0]:+.1f} MiB, bare {bare[-1] - bare[0]:+.1f} MiB",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
