"""A club page as a browser holds it open: one `GET /api/events` on a plain socket, read in a
thread, counting the bytes and the events it receives (for the tests and bench/club_flood.py)."""

from __future__ import annotations

import json
import socket
import threading


class Page:
    def __init__(self, port: int, path: str = "/api/events") -> None:
        self.bytes = 0
        self.events = 0
        self.last: dict | None = None  # the data of the last event that carried the board
        self._buffer = b""
        self._lock = threading.Lock()
        self._sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self._sock.settimeout(None)  # a quiet board sends nothing for a while: not an error
        # HTTP/1.0: the body comes as it is, not in chunks
        self._sock.sendall(f"GET {path} HTTP/1.0\r\nHost: club\r\n\r\n".encode())
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = self._sock.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            with self._lock:
                self.bytes += len(chunk)
                self._buffer += chunk
                self._parse()

    def _parse(self) -> None:
        """Count each complete event (a blank line ends it) and keep the last one's data."""
        while b"\r\n\r\n" in self._buffer:
            block, self._buffer = self._buffer.split(b"\r\n\r\n", 1)
            data = [ln[6:] for ln in block.split(b"\r\n") if ln.startswith(b"data: ")]
            if data:
                self.events += 1
                self.last = json.loads(b"".join(data))

    def version(self) -> int:
        with self._lock:
            return -1 if self.last is None else int(self.last["version"])

    def close(self) -> None:
        self._sock.close()
        self._thread.join(5)
