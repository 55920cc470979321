"""One client cannot take the table down: connection limits by role and deadlines for uvicorn.

uvicorn (0.29 to 0.54 at least, h11 protocol) accepts every connection and waits for a
request's header for ever: its keep-alive timer runs only after a response, and is cancelled as
soon as any byte arrives. So one machine on the LAN holding a thousand half-sent requests
(`GET / HTTP/1.1`, `Host:` and nothing more) exhausts the process's open files, and everyone
else's requests time out. `limit_concurrency` does not help: it answers 503 to requests, after
the connection (and its file) is taken, and never to a connection that sends no full header.

`guarded_protocol(limits)` is uvicorn's own h11 protocol with what is missing:
- at most `limits.connections` open connections in all, and `limits.per_client` from one
  address (a browser opens at most 6 to one site, so a phone never meets the cap); a connection
  over its address's share is reset at once, so its file is back before the next is accepted;
- by role when the server is full: a new connection sheds the oldest *anonymous* one (a
  reader's: neither the host's, a seat's nor the TV's), so 16 machines holding 16 event
  streams each never keep the host, a seat or the TV out. Who asked is known only once a
  request is read (`scope["user"]`, Starlette's authentication); a connection that has sent
  one request as host or seat keeps its role while it lives, and one from the table's own
  screen (the kiosk on the Pi, `127.0.0.1`/`::1`) has it from the start;
- by credential as well as by address: one seat's key buys one seat's share, never the table.
  A seat's connections (whatever addresses they come from) are capped like one address's
  (`limits.per_client`): the one over it sheds the oldest of that seat's. When the server is
  full and holds no reader, a newcomer sheds the oldest connection of the seat holding the
  most, so the host's token and the TV (its loopback address) always have the rest: theirs
  are never shed. `Budget`, a middleware placed after the authentication, tells the gate
  whose a request is. Only when every connection is the host's or the TV's is a new one
  refused;
- a request's header must be complete within `limits.header_s` of the connection opening (or of
  the previous response ending, on a kept-alive connection), else the connection is closed;
  once a header has arrived the deadline is off, so an event stream (SSE) lives as long as
  the page does;
- a client that stops reading is dropped `limits.stall_s` after its connection's write buffer
  filled (asyncio's high-water mark, 64 KiB: writers wait beyond it, uvicorn's flow control),
  so a stream that never reads holds at most that much memory, and only for that long.

Refusals are counted and logged at a bounded rate (`log_limit.RepeatLimit`), never one line each.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import logging
from typing import Any, ClassVar, Protocol

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
    stall_s: float = 30.0
    """How long a client may leave its connection's write buffer full (two pings of an event
    stream: a page that reads, even over a slow link, empties it long before)."""
    kiosk: frozenset[str] = frozenset({"127.0.0.1", "::1"})
    """Addresses of the table's own screen (a browser on the Pi itself): the TV's role."""

    def __post_init__(self) -> None:
        if not 0 < self.per_client <= self.connections:
            raise ValueError("per_client must be at least 1 and at most connections")
        if not self.header_s > 0:
            raise ValueError("header_s must be positive")
        if not self.stall_s > 0:
            raise ValueError("stall_s must be positive")
        if self.backlog < 1:
            raise ValueError("backlog must be at least 1")


HOST = "host"
"""The credential of the host's token, and of the TV (the kiosk's address): never shed."""
CONNECTION = "tinker.connection"
"""The scope's key for the connection a request came on (`Budget` tells it whose it is)."""


class Held(Protocol):
    """A connection the gate holds: whether it has a role, and how to drop it."""

    def has_role(self) -> bool: ...

    def shed(self) -> None: ...


class Gate:
    """The open connections of one server, oldest first, and how many each address holds (one
    event loop: no lock)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.open: collections.Counter[str] = collections.Counter()
        self.held: dict[Held, str] = {}  # insertion order: the oldest first
        self.shed = 0  # connections shed to admit others, since the server started
        self.credential: dict[Held, str] = {}  # whose each connection is, once known
        self.of_credential: collections.Counter[str] = collections.Counter()

    @property
    def total(self) -> int:
        return len(self.held)

    def admit(self, conn: Held, client: str) -> str | None:
        """Hold `conn` from `client`, shedding the oldest connection without a role if the
        server is full (else the oldest of the seat holding the most); or why it is refused
        (then it is not held)."""
        if self.open[client] >= self.limits.per_client:
            return f"{client} already has {self.open[client]} connections open"
        if self.total >= self.limits.connections:
            oldest = next((c for c in self.held if not c.has_role()), None)
            if oldest is not None:
                self._shed(oldest, "the oldest connection without a role")
            elif (seat := self._largest_seat()) is not None:
                self._shed(self._oldest_of(seat), f"the oldest connection of {seat}")
            else:
                return f"all {self.total} connections are the host's or the TV's"
        self.held[conn] = client
        self.open[client] += 1
        return None

    def known(self, conn: Held, credential: str) -> None:
        """A request on `conn` was found to be `credential`'s (`HOST`, or a seat's): counted
        against that credential's share, shedding its oldest connection when over it. The
        host's are never shed; a connection keeps the credential it first showed (or the
        host's, if it shows the token later)."""
        had = self.credential.get(conn)
        if conn not in self.held or had in (credential, HOST):
            return
        if had is not None:
            self._uncount(conn)
        self.credential[conn] = credential
        self.of_credential[credential] += 1
        if credential != HOST and self.of_credential[credential] > self.limits.per_client:
            self._shed(self._oldest_of(credential), f"the oldest connection of {credential}")

    def release(self, conn: Held) -> None:
        """Forget `conn` (once: a shed connection is released before it closes)."""
        client = self.held.pop(conn, None)
        if client is None:
            return
        self._uncount(conn)
        self.open[client] -= 1
        if not self.open[client]:
            del self.open[client]

    def _shed(self, conn: Held, which: str) -> None:
        log.warning("shed %s (%s)", which, self.held[conn])
        self.release(conn)
        self.shed += 1
        conn.shed()

    def _uncount(self, conn: Held) -> None:
        credential = self.credential.pop(conn, None)
        if credential is not None:
            self.of_credential[credential] -= 1
            if not self.of_credential[credential]:
                del self.of_credential[credential]

    def _largest_seat(self) -> str | None:
        """The seat credential that holds the most connections (None: no seat holds any)."""
        seats = [(n, c) for c, n in self.of_credential.items() if c != HOST]
        return max(seats)[1] if seats else None

    def _oldest_of(self, credential: str) -> Held:
        return next(c for c in self.held if self.credential.get(c) == credential)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the limits (a subclass per server: `guarded_protocol`)."""

    gate: ClassVar[Gate]  # the server's (tests and the bench read it)
    limits: ClassVar[Limits]
    _admitted: str | None = None
    _role = False  # the host's, a seat's or the TV's (kept while the connection lives)
    _header_timer: asyncio.TimerHandle | None = None
    _stall_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        peer = transport.get_extra_info("peername")
        client = str(peer[0]) if isinstance(peer, tuple) and peer else "local"
        self._role = client in self.limits.kiosk
        refused = self.gate.admit(self, client)
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
        self.gate.release(self)
        self._admitted = None
        self._header_timer = _cancelled(self._header_timer)
        self._stall_timer = _cancelled(self._stall_timer)
        super().connection_lost(exc)

    def has_role(self) -> bool:
        """The host's, a seat's or the TV's: the kiosk's address, or a request on this
        connection that the app's authentication found to be the host's or a seat's."""
        if not self._role and self.cycle is not None:
            user = self.cycle.scope.get("user")
            self._role = bool(getattr(user, "is_authenticated", False))
        return self._role

    def shed(self) -> None:
        """Drop this connection for a newer one (the gate has released it already)."""
        self.transport.abort()

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._stall_timer is None:
            self._stall_timer = self.loop.call_later(self.limits.stall_s, self._stalled)

    def resume_writing(self) -> None:
        self._stall_timer = _cancelled(self._stall_timer)
        super().resume_writing()

    def _stalled(self) -> None:
        self._stall_timer = None
        log.warning(
            "dropped a connection from %s: it read nothing for %g s",
            self._admitted,
            self.limits.stall_s,
        )
        self.transport.abort()  # its buffer is dropped with it; the writer is woken

    def handle_events(self) -> None:
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle:  # a request's header arrived
            self._header_timer = _cancelled(self._header_timer)
            if self.cycle is not None:  # for `Budget`, before the app runs (a task, later)
                self.cycle.scope[CONNECTION] = self  # type: ignore[literal-required]

    def credential(self, user: Any) -> None:
        """The request on this connection was `user`'s (Starlette's authenticated user): the
        host's token, or the seats whose keys it holds; a reader's counts against nothing."""
        if self._admitted is None:
            return
        if self._admitted in self.limits.kiosk or getattr(user, "host", False):
            self.gate.known(self, HOST)
        elif seats := sorted(getattr(user, "seats", ())):
            self.gate.known(self, "seat " + ",".join(map(str, seats)))

    def on_response_complete(self) -> None:
        self.has_role()  # kept: the next request on this connection starts a new cycle
        self._await_header()  # first: the pipelined next request may be read at once
        super().on_response_complete()

    def _await_header(self) -> None:
        self._header_timer = _cancelled(self._header_timer)
        self._header_timer = self.loop.call_later(self.limits.header_s, self._header_late)

    def _header_late(self) -> None:
        self._header_timer = None
        if self.transport.is_closing():
            return
        log.warning(
            "closed a connection from %s: no complete request header within %g s",
            self._admitted,
            self.limits.header_s,
        )
        self.transport.close()  # uvicorn's connection_lost tells h11


class Budget:
    """ASGI middleware, placed after the authentication: tells the connection a request came
    on whose the request is (`GuardedH11Protocol.credential`), so the gate counts it against
    that credential's share. Nothing under another server (the tests' client)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        conn = scope.get(CONNECTION)
        if isinstance(conn, GuardedH11Protocol):
            conn.credential(scope.get("user"))
        await self.app(scope, receive, send)


def guarded_protocol(limits: Limits) -> type[GuardedH11Protocol]:
    """uvicorn's h11 protocol class with `limits` (one `Gate` for the server it is given to)."""
    return type(
        "GuardedH11Protocol", (GuardedH11Protocol,), {"gate": Gate(limits), "limits": limits}
    )


def _cancelled(timer: asyncio.TimerHandle | None) -> asyncio.TimerHandle | None:
    """`timer` cancelled if it was set, and None for its attribute: `t = _cancelled(t)`."""
    if timer is not None:
        timer.cancel()
    return None
