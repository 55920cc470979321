"""One client flooding the display with half-sent requests, another asking for the scores: the
display as a subprocess with the systemd unit's open-file limit (or in this process, `served`,
when a test asks the server what it holds), clients on loopback addresses (127.0.0.2 stands for
the flooding machine, 127.0.0.1 for everyone else). Used by
tests/scoreboard/test_limits.py, test_seat_share.py and bench/half_open.py."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
HALF_SENT = b"GET / HTTP/1.1\r\nHost: x\r\n"  # and never the blank line that ends the header
UNIT_NOFILE = 1024  # hardware/tinker-tray.service's LimitNOFILE
ATTACKER, TABLE = "127.0.0.2", "127.0.0.1"


@dataclasses.dataclass
class Display:
    process: subprocess.Popen[str]
    port: int
    log: Path
    token: str

    def log_size(self) -> int:
        return self.log.stat().st_size


def _unit_limits() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (UNIT_NOFILE, UNIT_NOFILE))


@contextlib.contextmanager
def display(folder: Path, *extra: str) -> Iterator[Display]:
    """`tinker-tray display` on 127.0.0.1 with 1,024 open files at most, its log in a file."""
    log = folder / "display.log"
    env = {**os.environ, "TINKER_TRAY_MDNS": "0", "PYTHONUNBUFFERED": "1"}
    with log.open("w") as err:
        process = subprocess.Popen(
            [
                *(sys.executable, "-m", "cli", "display", "--host", TABLE, "--port", "0"),
                *("--journal", str(folder / "journal.sqlite3"), *extra),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            preexec_fn=_unit_limits,
        )
    try:
        assert process.stdout is not None
        port = token = None
        for line in process.stdout:
            if found := re.search(rf"read-only:\s+http://{TABLE}:(\d+)/", line):
                port = int(found[1])
            elif found := re.match(r"token:\s+(\S+)", line):
                token = found[1]
                break
        if port is None or token is None:
            raise RuntimeError(f"the display did not start: {log.read_text()[-2000:]}")
        yield Display(process, port, log, token)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def enough_files(n: int) -> None:
    """Let this process hold `n` sockets (the flooding client needs more than the display)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = n + 256
    if soft < want:
        if hard != resource.RLIM_INFINITY and hard < want:
            raise RuntimeError(f"this machine allows {hard} open files; the flood needs {want}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def half_open(port: int, n: int, source: str = ATTACKER) -> list[socket.socket]:
    """`n` connections from `source`, each with a request's header half sent. Connections the
    server resets at once are kept too (they cost the server nothing)."""
    enough_files(n)
    held = []
    for _ in range(n):
        sock = socket.socket()
        sock.settimeout(5)
        sock.bind((source, 0))
        try:
            sock.connect((TABLE, port))
            sock.sendall(HALF_SENT)
        except OSError:
            pass  # reset by the server: it refused this one
        held.append(sock)
    return held


@contextlib.contextmanager
def reconnecting(port: int, threads: int = 4, source: str = ATTACKER) -> Iterator[list[int]]:
    """Meanwhile, `threads` threads open half-sent requests from `source` as fast as they can,
    each closed at once (the server resets most of them anyway); yields [connections made]."""
    import threading

    stop, made = threading.Event(), [0]

    def churn() -> None:
        while not stop.is_set():
            with socket.socket() as sock:
                sock.settimeout(2)
                sock.bind((source, 0))
                try:
                    sock.connect((TABLE, port))
                    sock.sendall(HALF_SENT)
                    made[0] += 1
                except OSError:
                    pass

    running = [threading.Thread(target=churn, daemon=True) for _ in range(threads)]
    for thread in running:
        thread.start()
    try:
        yield made
    finally:
        stop.set()
        for thread in running:
            thread.join()


def still_open(sockets: list[socket.socket], wait: float = 0.2) -> int:
    """How many of `sockets` the server has not closed (no EOF, no reset within `wait`), as a
    client sees it: the benchmarks' figure; tests ask the server (`served`) instead."""
    count = 0
    for sock in sockets:
        sock.settimeout(wait / max(1, len(sockets)))
        try:
            if sock.recv(1):
                count += 1  # an answer: the server served it
        except TimeoutError:
            count += 1
        except OSError:
            pass
    return count


@dataclasses.dataclass
class Served:
    """The table's app served in this process: its gate is the server's own count of what it
    holds, which a client cannot time (a busy machine delays the resets it would wait for)."""

    server: Any
    port: int
    token: str

    @property
    def gate(self) -> Any:
        return self.server.protocol.gate


@contextlib.contextmanager
def served(folder: Path, token: str = "host-token-of-the-flood") -> Iterator[Served]:
    """The command line's app (digital play too) with the table's limits, on 127.0.0.1."""
    from cli.app import create_app
    from scoreboard.journal import Journal
    from scoreboard.server import ServerThread, bind
    from tray.bus import Bus

    journal = Journal(folder / "journal.sqlite3")
    server = ServerThread(create_app(journal, Bus(), token), bind(TABLE)).start()
    try:
        yield Served(server, server.port, token)
    finally:
        server.stop()
        journal.close()


def get(
    port: int,
    path: str = "/api/view",
    source: str = TABLE,
    timeout: float = 10,
    headers: dict[str, str] | None = None,
) -> float:
    """Seconds until a complete answer to GET `path` from `source` (raises on no answer)."""
    started = time.perf_counter()
    extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
    with socket.create_connection((TABLE, port), timeout=timeout, source_address=(source, 0)) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n{extra}Connection: close\r\n\r\n".encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    if not data.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(f"GET {path} answered {data[:60]!r}")
    return time.perf_counter() - started


def stream_sources(addresses: int, first: int = 2) -> list[str]:
    """`addresses` loopback addresses standing for as many machines: 127.0.0.2, .3, ..."""
    if first + addresses > 255:
        raise ValueError("127.0.0.x has addresses 2 to 254 for other machines")
    return [f"127.0.0.{first + k}" for k in range(addresses)]


def streams(
    port: int, sources: list[str], each: int, headers: dict[str, str] | None = None
) -> list[socket.socket]:
    """`each` event streams (`GET /api/events`) from every address of `sources`, each read up
    to its first message (raises if one is refused or closed first)."""
    enough_files(len(sources) * each)
    extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
    request = f"GET /api/events HTTP/1.1\r\nHost: x\r\n{extra}\r\n".encode()
    held = []
    try:
        for source in sources:
            for _ in range(each):
                sock = socket.create_connection((TABLE, port), 10, source_address=(source, 0))
                held.append(sock)
                sock.sendall(request)
        for sock in held:
            first = read_until(sock, b"\ndata:")
            if not first.startswith(b"HTTP/1.1 200"):
                raise RuntimeError(f"an event stream was answered {first[:60]!r}")
    except BaseException:
        close_all(held)
        raise
    return held


def read_until(sock: socket.socket, marker: bytes) -> bytes:
    """What `sock` receives up to and including `marker` (b"" if it closes first)."""
    got = b""
    while marker not in got:
        chunk = sock.recv(65536)
        if not chunk:
            return b""
        got += chunk
    return got


def close_all(sockets: list[socket.socket]) -> None:
    for sock in sockets:
        sock.close()
