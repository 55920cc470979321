"""Every object of an event stream is freed when the stream closes: on a real uvicorn over
loopback, rounds of streams opened at once (from 127.0.0.2 and up, as many phones) and closed
leave the open-stream set empty and the Python heap where the first round left it.

The process's RSS keeps the allocator's high-water mark of the largest round, bounded by the
connection cap; bench/stream_memory.py prints both figures beside a bare Starlette server."""

from __future__ import annotations

import gc
import socket
import time
import tracemalloc

from scoreboard import stream
from scoreboard.journal import Journal
from scoreboard.server import ServerThread, bind
from scoreboard.web import create_app
from tests.helpers.web import TOKEN
from tray.bus import Bus
from tray.events import Pick

STREAMS = 60


def _round(port: int, bus: Bus, seq: int) -> None:
    socks = []
    for i in range(STREAMS):
        sock = socket.socket()
        sock.bind((f"127.0.0.{2 + i}", 0))
        sock.settimeout(10)
        sock.connect(("127.0.0.1", port))
        sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: t\r\nAccept: text/event-stream\r\n\r\n")
        socks.append(sock)
    for sock in socks:
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
    bus.publish(Pick(seq=seq, colour="red", t=time.time()))  # every stream wakes and sends
    for sock in socks:
        sock.close()


def _settle(clients, deadline: float = 10.0) -> None:
    end = time.monotonic() + deadline
    while len(clients) and time.monotonic() < end:
        time.sleep(0.05)
    time.sleep(0.3)
    gc.collect()


def test_closed_streams_leave_nothing_behind(tmp_path):
    journal, bus = Journal(tmp_path / "j.sqlite3"), Bus()
    app = create_app(journal, bus, TOKEN)
    server = ServerThread(app, bind()).start()
    port = server.port
    try:
        _round(port, bus, 0)  # the lifespan's state exists once a request has been served
        (clients,) = [o for o in gc.get_objects() if isinstance(o, stream.Clients)]
        tracemalloc.start()
        try:
            _round(port, bus, 1)
            _settle(clients)
            first = tracemalloc.get_traced_memory()[0]
            for k in range(2, 5):
                _round(port, bus, k)
                _settle(clients)
            later = tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()
        assert len(clients) == 0
        # A stream holds tens of KiB while open: three more rounds of 60 leaking even a tenth of
        # that would add well over this.
        assert later - first < 256 * 1024, f"{(later - first) / 1024:.0f} KiB kept"
    finally:
        server.stop()
        journal.close()
