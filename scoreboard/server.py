"""Run the display app under uvicorn in a background thread (terminal mode, tests, benchmark).

The tray service may run the same app on its own loop instead; nothing here is required for that.
Every server started here has the table's limits (`scoreboard.guard`: connections in all and per
client, a deadline for a request's header), and the loggers a flood would fill (asyncio's,
uvicorn's) log a repeated error a few times a minute (`tray.log_limit`).
"""

from __future__ import annotations

import socket
import threading
import time

import uvicorn
from starlette.applications import Starlette

from scoreboard.guard import Limits, guarded_protocol
from tray.log_limit import limit_repeats


def bind(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """A listening socket (port 0: any free port), so the caller knows the port before serving."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(Limits.backlog)  # uvicorn listens again with the same
    return sock


START_S = 60.0
"""How long the app's lifespan may take to start: it folds the game in play, linear in its
hands (100,000 hands: 3 s of CPU on the development machine, 8.4 s of wall time with its load
at 8, bench/table_fold.py; a Pi Zero 2 W is several times slower), and the unit allows 90 s
(systemd's default TimeoutStartSec) before READY=1."""


class ServerThread:
    """uvicorn serving `app` on `sock` in a daemon thread; `stop()` ends it within a second.
    `limits`: the connection limits (`scoreboard.guard.Limits`; the table's by default)."""

    def __init__(
        self,
        app: Starlette,
        sock: socket.socket,
        *,
        log_level: str = "warning",
        limits: Limits | None = None,
    ):
        self.sock = sock
        self.app = app
        self.port = sock.getsockname()[1]
        limits = limits or Limits()
        self.protocol = guarded_protocol(limits)
        config = uvicorn.Config(
            app,
            http=self.protocol,
            backlog=limits.backlog,
            log_level=log_level,
            timeout_graceful_shutdown=1,
            lifespan="on",
        )
        limit_repeats("asyncio", "uvicorn.error")  # after Config: it configures uvicorn's logging
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [sock]}, daemon=True, name="display"
        )

    def start(self, timeout: float = START_S) -> ServerThread:
        """Serve, once the app's lifespan has started (raises if it fails or takes `timeout`)."""
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the display server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        clients = getattr(self.app.state, "clients", None)
        if clients is not None:  # the display app: end its event streams first
            clients.close()
        self.server.should_exit = True
        self.thread.join(5)
        self.sock.close()
