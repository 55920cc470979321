"""One client cannot take the table down: connection limits and a header deadline for uvicorn.

uvicorn (0.29 to 0.54 at least, h11 protocol) accepts every connection and waits for a
request's header for ever: its keep-alive timer runs only after a response, and is cancelled as
soon as any byte arrives. So one machine on the LAN holding a thousand half-sent requests
(`GET / HTTP/1.1`, `Host:` and nothing more) exhausts the process's open files, and everyone
else's requests time out. `limit_concurrency` does not help: it answers 503 to requests, after
the connection (and its file) is taken, and never to a connection that sends no full header.

`guarded_protocol(limits)` is uvicorn's own h11 protocol with what is missing:
- at most `limits.connections` open connections in all, and `limits.per_client` from one
  address (a browser opens at most 6 to one site, so a phone never meets the cap); a connection
  over either is reset at once, so its file is back before the next is accepted;
- a request's header must be complete within `limits.header_s` of the connection opening (or of
  the previous response ending, on a kept-alive connection), else the connection is closed;
  once a header has arrived the deadline is off, so an event stream (SSE) lives as long as
  the page does.

Refusals are counted and logged at a bounded rate (`log_limit.RepeatLimit`), never one line each.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import logging
from typing import Any, ClassVar

from uvicorn.protocols.http.h11_impl import H11Protocol

from tray.log_limit import RepeatLimit

log = logging.getLogger(__name__)
log.addFilter(RepeatLimit())


@dataclasses.dataclass(frozen=True)
class Limits:
    """The table's server limits, sized for the systemd unit's `LimitNOFILE=1024`.

    `connections` are held at most; `per_client` of them from one address, so no one address
    takes them all. `backlog` is both the kernel's queue of connections not yet accepted and
    how many asyncio accepts in one go, before any of them is refused: a few such bursts are in
    flight before the refused ones are closed, so 256 held + 4 x 128 + the journal and the
    interpreter's own files stay well under 1,024 (uvicorn's 2,048 would not: its first burst
    of a flood runs out of files, and asyncio then stops accepting for a second)."""

    connections: int = 256
    per_client: int = 16
    header_s: float = 10.0
    backlog: int = 128

    def __post_init__(self) -> None:
        if not 0 < self.per_client <= self.connections:
            raise ValueError("per_client must be at least 1 and at most connections")
        if not self.header_s > 0:
            raise ValueError("header_s must be positive")
        if self.backlog < 1:
            raise ValueError("backlog must be at least 1")


class Gate:
    """The open connections of one server, by client address (one event loop: no lock)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.open: collections.Counter[str] = collections.Counter()
        self.total = 0

    def admit(self, client: str) -> str | None:
        """Count a new connection from `client`; or why it is refused (it was not counted)."""
        if self.total >= self.limits.connections:
            return f"the server already has {self.total} connections open"
        if self.open[client] >= self.limits.per_client:
            return f"{client} already has {self.open[client]} connections open"
        self.open[client] += 1
        self.total += 1
        return None

    def release(self, client: str) -> None:
        self.total -= 1
        self.open[client] -= 1
        if not self.open[client]:
            del self.open[client]


def guarded_protocol(limits: Limits) -> type[H11Protocol]:
    """uvicorn's h11 protocol class with `limits` (one `Gate` for the server it is given to)."""
    shared = Gate(limits)

    class GuardedH11Protocol(H11Protocol):
        gate: ClassVar[Gate] = shared  # the server's: one per class (tests and the bench read it)
        _admitted: str | None = None
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            peer = transport.get_extra_info("peername")
            client = str(peer[0]) if isinstance(peer, tuple) and peer else "local"
            refused = self.gate.admit(client)
            if refused is not None:
                log.warning("refused a connection: %s", refused)
                transport.abort()  # a reset, and the socket closed on the next loop turn
                return
            self._admitted = client
            super().connection_made(transport)
            self._await_header()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._admitted is None:
                return  # refused: uvicorn never saw it
            self.gate.release(self._admitted)
            self._admitted = None
            self._stop_header_timer()
            super().connection_lost(exc)

        def handle_events(self) -> None:
            cycle = self.cycle
            super().handle_events()
            if self.cycle is not cycle:  # a request's header arrived
                self._stop_header_timer()

        def on_response_complete(self) -> None:
            self._await_header()  # first: the pipelined next request may be read at once
            super().on_response_complete()

        def _await_header(self) -> None:
            self._stop_header_timer()
            self._header_timer = self.loop.call_later(limits.header_s, self._header_late)

        def _stop_header_timer(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _header_late(self) -> None:
            self._header_timer = None
            if self.transport.is_closing():
                return
            log.warning(
                "closed a connection from %s: no complete request header within %g s",
                self._admitted,
                limits.header_s,
            )
            self.transport.close()  # uvicorn's connection_lost tells h11

    return GuardedH11Protocol
