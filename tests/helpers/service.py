"""The display service as a real process (`python -m cli display`) on a journal, and plain HTTP
to it: for the tests of what happens around a start (a full or read-only card, a second service
on the same journal, kill -9 and a restart). Importable on its own (the bench uses it too)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.helpers import children

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def spawn(*args: str, env: dict[str, str], **kw: Any) -> subprocess.Popen[str]:
    """`python -m cli ARGS` from the repository, its output (text) piped to the test; it stops
    on SIGINT however the test run was started, and never outlives its test (`children`)."""
    return children.popen(
        [sys.executable, "-m", "cli", *args],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kw,
    )


class Service:
    """`tinker-tray display --journal JOURNAL` on 127.0.0.1, started at once; `wait_ready` for
    its first 200, `kill` (-9) or `stop` (SIGTERM) it."""

    def __init__(self, journal: Path, *args: str, port: int | None = None):
        self.journal = journal
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "TINKER_TRAY_MDNS": "0"}
        network = ["--host", "127.0.0.1", "--port", str(self.port), "--no-mdns"]
        self.started = time.monotonic()
        self.proc = spawn("display", "--journal", str(journal), *network, *args, env=env)
        self.token = ""

    def wait_ready(self, timeout: float = 30) -> float:
        """Seconds from the process's start to the scoreboard's first 200 (it reads the token
        from the start-up lines); AssertionError, with what it said, if it stopped instead."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                out, err = self.proc.communicate()
                raise AssertionError(f"the service stopped ({self.proc.returncode}): {err}{out}")
            answer = f"{self.url}/api/view"
            with contextlib.suppress(OSError), urllib.request.urlopen(answer, timeout=2) as reply:
                if reply.status == 200:
                    ready = time.monotonic() - self.started
                    self._read_token()
                    return ready
            time.sleep(0.02)
        raise AssertionError("the service did not answer in time")

    def _read_token(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith("token:"):
                self.token = line.split()[-1]
                return

    def call(
        self, path: str, body: Any = None, *, key: str | None = None, host: bool = True
    ) -> tuple[int, Any]:
        """(status, the JSON answer) of GET `path`, or POST with `body`."""
        headers = {"Content-Type": "application/json"}
        if host and self.token:
            headers["X-Table-Token"] = self.token
        if key is not None:
            headers["X-Seat-Key"] = key
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.url}{path}", data=data, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as reply:
                return reply.status, json.loads(reply.read() or b"null")
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"null")

    @classmethod
    def ready(cls, journal: Path, *args: str) -> Service:
        """Started, and answering."""
        service = cls(journal, *args)
        service.wait_ready()
        return service

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.communicate(timeout=10)

    def killed_and_restarted(self) -> Service:
        """kill -9, then the next service on the same journal, answering."""
        self.kill()
        return Service.ready(self.journal)

    def stop(self, timeout: float = 15) -> tuple[int, str]:
        """Ctrl-C (`display` stops cleanly on it); (exit code, what it said on stderr). Not
        stopped within `timeout` seconds: ended (`children.end`), and its stderr says so."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            _out, err = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            children.end(self.proc)
            _out, err = self.proc.communicate()
            err += f"\n(tests: it did not stop on SIGINT within {timeout} s, so it was ended)"
        return self.proc.returncode, err

    def ended(self, timeout: float = 30) -> tuple[int, str]:
        """It stops by itself: (exit code, stderr)."""
        _out, err = self.proc.communicate(timeout=timeout)
        return self.proc.returncode, err


def until(check: Any, timeout: float = 20, every: float = 0.1) -> Any:
    """The first true answer of `check()` within `timeout` seconds (AssertionError if none)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = check()
        if answer:
            return answer
        time.sleep(every)
    raise AssertionError(f"not within {timeout} s: {check}")
