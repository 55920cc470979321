"""Every write counts once: a repeat of a request (`Idempotency-Key`) is answered, not redone.

A phone on the table's Wi-Fi loses answers: the POST reached the display and wrote, the answer
never came back, and the page tries again. Without a way to tell that try from a new action the
hand is entered twice (Ann's 27 became 54). So a page sends, with each write, a random id made
for that one action (`Idempotency-Key: <id>`), the same id on every try of it, and `Once`
answers a repeat with the first answer (status, headers and body) without running it again.

- A repeat is the same key from the same caller (the token, seat keys or, for a visitor with
  neither, the address: a stranger who learns a key can neither replay it nor read its answer)
  to the same method and path. It must carry the same body and query: the same key with
  another one is refused (422), for it is a page's mistake, not a retry.
- A repeat that arrives while the first is still running waits for its answer.
- Answers of 500 and above are not kept (nothing was written; a try again may do it), nor are
  answers to a request that failed before its answer (the next try runs as the first).
- A request without the header runs as it always did (curl, the tests, the bench).
- Memory is bounded: the last `KEPT` answers per app, for `KEEP_S` seconds, at most
  `MAX_BYTES` of answers in all; the oldest go first. Requests still running are not counted
  (the server's connection limits bound them: `scoreboard.guard`).

Pure ASGI (`starlette.middleware.base` would buffer and cannot wait on the body stream), one
event loop: no lock.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import hashlib
import time
from collections.abc import Callable
from typing import Any

from starlette.requests import cookie_parser
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from scoreboard import auth

HEADER = b"idempotency-key"
KEPT = 256
KEEP_S = 600.0
MAX_KEY = 128
MAX_ANSWER = 64 * 1024
"""An answer larger than this is not kept (a repeat is then refused: see `TOO_LARGE`)."""
MAX_BYTES = 1024 * 1024
MAX_DRAIN = 1024 * 1024
"""Body bytes read after the app answered without reading them all, to know the request."""
SAFE = frozenset({"GET", "HEAD", "OPTIONS"})
BAD_KEY = (
    f"Idempotency-Key is 1 to {MAX_KEY} visible characters without spaces (a random id made "
    "for each action, the same one on each try of it)"
)
OTHER_BODY = (
    "this Idempotency-Key was already used for another request: make a new key for each "
    "action, and send the same request again only with the same key"
)
TOO_LARGE = "this request was done already, and its answer was too large to keep: reload the page"


@dataclasses.dataclass
class _Kept:
    """One action's request and, once given, its answer."""

    at: float
    done: asyncio.Event = dataclasses.field(default_factory=asyncio.Event)
    fingerprint: bytes | None = None  # of the query and body, once all read
    status: int = 0
    headers: list[tuple[bytes, bytes]] = dataclasses.field(default_factory=list)
    body: bytes | None = None  # None: no answer kept (yet, or too large)
    answered: bool = False


class Once:
    """ASGI middleware: a request with an `Idempotency-Key` that repeats one already answered
    gets that answer again. `kept`, `keep_s`, `clock`: the bounds, and the clock they run on
    (tests pass one they move by hand)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        kept: int = KEPT,
        keep_s: float = KEEP_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.kept, self.keep_s, self.clock = kept, keep_s, clock
        self.answers: collections.OrderedDict[tuple[str, ...], _Kept] = collections.OrderedDict()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE:
            await self.app(scope, receive, send)
            return
        keys = [v for k, v in scope["headers"] if k.lower() == HEADER]
        if not keys:
            await self.app(scope, receive, send)
            return
        key = keys[0].decode("latin-1")
        if len(keys) > 1 or not 0 < len(key) <= MAX_KEY or not all(" " < c < "\x7f" for c in key):
            await JSONResponse({"error": BAD_KEY}, status_code=400)(scope, receive, send)
            return
        slot = (scope["method"], scope.get("path", ""), caller(scope), key)
        mine: bytes | None = None  # this request's fingerprint, read once it must be compared
        while True:
            self._forget_old()
            kept = self.answers.get(slot)
            if kept is None:
                await self._first(slot, scope, receive, send)
                return
            if mine is None:
                mine = await _read_fingerprint(scope, receive)
            if not kept.answered:
                await kept.done.wait()  # the first is running: its answer is this one's too
                continue  # answered, or failed (then gone: this one runs as the first)
            await self._repeat(kept, mine, scope, receive, send)
            return

    async def _first(
        self, slot: tuple[str, ...], scope: Scope, receive: Receive, send: Send
    ) -> None:
        kept = self.answers[slot] = _Kept(self.clock())
        seen = _Recording(scope, receive, send)
        try:
            await self.app(scope, seen.receive, seen.send)
        finally:  # an answer given in full is kept even if the app failed after it
            if seen.complete and seen.read and 0 < seen.status < 500:
                kept.fingerprint = seen.digest.digest()
                kept.status, kept.headers = seen.status, seen.headers
                kept.body = None if seen.large else bytes(seen.answer)
                kept.answered, kept.at = True, self.clock()
                self.answers.move_to_end(slot)
                self._bound()
            elif self.answers.get(slot) is kept:
                del self.answers[slot]
            kept.done.set()

    async def _repeat(
        self, kept: _Kept, mine: bytes | None, scope: Scope, receive: Receive, send: Send
    ) -> None:
        if mine != kept.fingerprint:
            await JSONResponse({"error": OTHER_BODY}, status_code=422)(scope, receive, send)
            return
        if kept.body is None:
            await JSONResponse({"error": TOO_LARGE}, status_code=409)(scope, receive, send)
            return
        headers = [*kept.headers, (b"idempotent-replayed", b"true")]
        await send({"type": "http.response.start", "status": kept.status, "headers": headers})
        await send({"type": "http.response.body", "body": kept.body})

    def _forget_old(self) -> None:
        """Drop the answers older than `keep_s` (oldest first: the dict is in answer order)."""
        now = self.clock()
        for slot, kept in list(self.answers.items()):
            if not kept.answered:
                continue
            if now - kept.at <= self.keep_s:
                break
            del self.answers[slot]

    def _bound(self) -> None:
        """At most `kept` answers and `MAX_BYTES` of them: the oldest answered go first."""
        answered = [(s, k) for s, k in self.answers.items() if k.answered]
        size = sum(len(k.body or b"") for _, k in answered)
        for slot, kept in answered:
            if len(answered) <= self.kept and size <= MAX_BYTES:
                break
            del self.answers[slot]
            answered = answered[1:]
            size -= len(kept.body or b"")


class _Recording:
    """The first request of a key on its way through the app: its body's digest as the app
    reads it, and its answer as the app sends it."""

    def __init__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self._receive, self._send = receive, send
        self.digest = hashlib.sha256(scope.get("query_string", b"") + b"\0")
        self.read = False  # the whole body went into the digest
        self.status = 0
        self.headers: list[tuple[bytes, bytes]] = []
        self.answer = bytearray()
        self.large = False
        self.complete = False  # the answer's last part was sent

    async def receive(self) -> Message:
        message = await self._receive()
        if message["type"] == "http.request":
            self.digest.update(message.get("body", b""))
            self.read = not message.get("more_body", False)
        return message

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            if not self.read:  # answered without reading it all: the rest, to know the request
                self.read = await _drain(self._receive, self.digest)
            self.status, self.headers = message["status"], list(message.get("headers", []))
        elif message["type"] == "http.response.body":
            body = message.get("body", b"")
            if len(self.answer) + len(body) > MAX_ANSWER:
                self.large = True
            elif not self.large:
                self.answer += body
            self.complete = not message.get("more_body", False)
        await self._send(message)


def caller(scope: Scope) -> str:
    """Who asks, as a digest: the credentials the request shows (`scoreboard.auth`), or, with
    none, the address it comes from. Never the credential itself: this is only compared."""
    headers = {k.lower(): v for k, v in scope["headers"]}
    shown = [headers.get(b"x-table-token", b""), headers.get(b"x-seat-key", b"")]
    cookies = cookie_parser(headers.get(b"cookie", b"").decode("latin-1"))  # as `auth` reads them
    for name in sorted(cookies):
        if name == auth.TOKEN_COOKIE or name.startswith(auth.SEAT_COOKIE):
            shown.append(f"{name}={cookies[name]}".encode("utf-8", "replace"))
    if not any(shown):
        client = scope.get("client") or ("", 0)
        shown.append(b"address " + str(client[0]).encode("latin-1", "replace"))
    return hashlib.sha256(b"\0".join(shown)).hexdigest()


async def _read_fingerprint(scope: Scope, receive: Receive) -> bytes | None:
    """A repeat's fingerprint: its whole body read (and dropped: the answer is the first's)."""
    digest = hashlib.sha256(scope.get("query_string", b"") + b"\0")
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None  # the caller went away
        digest.update(message.get("body", b""))
        if not message.get("more_body", False):
            return digest.digest()


async def _drain(receive: Receive, digest: Any) -> bool:
    """Read the rest of a body the app did not, into `digest`: True if all of it came (at most
    `MAX_DRAIN` bytes: a larger one is not worth keeping an answer for)."""
    drained = 0
    while drained <= MAX_DRAIN:
        message = await receive()
        if message["type"] != "http.request":
            return False
        body = message.get("body", b"")
        drained += len(body)
        digest.update(body)
        if not message.get("more_body", False):
            return True
    return False
