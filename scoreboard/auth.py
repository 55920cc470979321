"""Who is asking: the roles of the table's web app, for Starlette's `AuthenticationMiddleware`.

- **reader**: everybody. Sees the scores, the pick once its lights settle, a digital game's
  public state.
- **host**: holds the table's token. Starts, ends, undoes, enters, exports; sees the QR codes.
- **seat**: holds a seat key of the digital game in play. Acts for that seat and sees its hand.
- **player**: the host or a seat: may press the virtual Tinker Bell button.

Credentials travel in a header (`X-Table-Token`, `X-Seat-Key`) or a same-site, HTTP-only cookie
that a page sets on its first visit (`?token=` / `?key=` from a QR code or a printed link; the
page then strips it from the address bar). Never in the query string of an API call. A phone
can also be given the host cookie without the token: while the tray's button has opened a
pairing window, the first phone that asks (`scoreboard.pairing`).
The host can replace the token ("New table key", `POST /api/new-key`): every phone that held
the old one is a reader again, and a request that still shows it is answered 401 with a
sentence (`replaced`), so a leaked token (a photo of the QR code) locks nobody in.
Endpoints declare their role with `needs("host")` (Starlette's `requires` plus the sentence a
refusal says). Writes from another site are refused before any of this (`SameOrigin`).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from starlette.authentication import (
    AuthCredentials,
    AuthenticationBackend,
    BaseUser,
    requires,
)
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

TOKEN_COOKIE = "tinker-token"
SEAT_COOKIE = "tinker-seat-"  # + the seat number: one phone may hold several seats' links
COOKIE_AGE = 30 * 24 * 3600

REFUSALS = {
    "host": "this needs the table's token: open the page from the QR code or the link the "
    "display printed, enter the token on the entry page, or hold the Tinker Bell button on "
    "the tray for 3 seconds and open /pair",
    "seat": "this needs your seat's link: open the link (or QR code) made for your seat",
    "player": "this needs the table's token or a seat's link",
}

REPLACED = (
    "this phone's table key is not the table's (the host made a new one, the tray's card is "
    "new, or it was mistyped): it is not the host's any more. Hold the Tinker Bell button on "
    "the tray for 3 seconds and open /pair, or enter the new key on the entry page"
)
"""The 401 to a request that shows a token, but not the table's."""
SEAT_KEY = (
    "a seat key is not the table's key: it plays its own seat from the link (or QR code) made "
    "for that seat, and to be the host hold the Tinker Bell button on the tray for 3 seconds "
    "and open /pair, or enter the table's key on the entry page"
)
"""The refusal to a request that shows a seat key as the table's token (typed in its place)."""


class TableKey:
    """The table's token as it stands, shared by every request: a request's state is a copy
    of the app's, so a token replaced as a string would never reach the next request."""

    def __init__(self, value: str):
        self.value = value


SeatLookup = Callable[[str], int | None]
"""A seat key -> its seat in the game in play (None: no such key)."""


class Visitor(BaseUser):
    """Whoever sent the request: the host (with the table token), and the seats whose keys they
    hold. Every visitor is at least a reader."""

    def __init__(
        self,
        host: bool = False,
        seats: Iterable[int] = (),
        *,
        stale: bool = False,
        seat_key_as_token: bool = False,
    ):
        self.host = host
        self.seats = frozenset(seats)
        self.stale = stale  # it showed a token that is not the table's (replaced: 401)
        self.seat_key_as_token = seat_key_as_token  # not replaced: a seat's key (SEAT_KEY)

    @property
    def is_authenticated(self) -> bool:
        return self.host or bool(self.seats)

    @property
    def display_name(self) -> str:
        return "host" if self.host else "seat" if self.seats else "reader"

    def scopes(self) -> list[str]:
        player = ["player"] if self.host or self.seats else []
        return [
            "reader",
            *(["host"] if self.host else []),
            *(["seat"] if self.seats else []),
            *player,
        ]


def same_token(given: str, token: str) -> bool:
    """The one comparison of a token: in constant time (how much of it matched must not show in
    the time taken), and never true for an empty token."""
    return bool(token) and secrets.compare_digest(given.encode(), token.encode())


class TableAuth(AuthenticationBackend):
    """Reads the table token and seat keys from the lifespan state (`table_key`,
    `seat_lookups`)."""

    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, BaseUser]:
        state = conn.scope.get("state") or {}
        key = state.get("table_key")
        token = key.value if isinstance(key, TableKey) else ""
        given = conn.headers.get("x-table-token") or conn.cookies.get(TOKEN_COOKIE) or ""
        host = same_token(given, token)
        keys = [conn.headers.get("x-seat-key", "")]
        keys += [v for k, v in conn.cookies.items() if k.startswith(SEAT_COOKIE)]
        seats = {
            seat
            for key in keys
            if key
            for lookup in state.get("seat_lookups", ())
            if (seat := lookup(key)) is not None
        }
        wrong = bool(given) and not host
        lookups = state.get("seat_lookups", ())
        seat_key = wrong and any(lookup(given) is not None for lookup in lookups)
        visitor = Visitor(host, seats, stale=wrong and not seat_key, seat_key_as_token=seat_key)
        return AuthCredentials(visitor.scopes()), visitor


def needs(scope: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """`requires(scope)`, remembering the scope so a refusal can say what was missing."""

    def decorate(endpoint: Callable[..., Any]) -> Callable[..., Any]:
        wrapped = requires(scope)(endpoint)
        wrapped.needs = scope  # type: ignore[attr-defined]
        return wrapped

    return decorate


def refusal(scope: MutableMapping[str, Any]) -> str:
    """The sentence for a 403 from `needs`: what the endpoint wanted."""
    if getattr(scope.get("user"), "seat_key_as_token", False):
        return SEAT_KEY
    wanted = getattr(scope.get("endpoint"), "needs", "")
    return REFUSALS.get(wanted, "this is not yours to do")


class SameOrigin:
    """Refuses a write (any method but GET/HEAD/OPTIONS) sent by a page of another site: its
    `Origin` (or `Sec-Fetch-Site`) says so. A form or a `text/plain` fetch from another site
    carries the browser's cookies, so the cookie alone must never be enough to write."""

    SAFE = frozenset({"GET", "HEAD", "OPTIONS"})

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in self.SAFE:
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            if not same_origin(headers):
                response = JSONResponse(
                    {"error": "refused: this request came from another site's page"},
                    status_code=403,
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def same_origin(headers: dict[str, str]) -> bool:
    """True unless the browser says the request comes from another site."""
    if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        return False
    origin = headers.get("origin")
    if origin is None:
        return True  # not a browser page's fetch (curl, the tests, the bench)
    try:
        return origin != "null" and urlsplit(origin).netloc == headers.get("host", "")
    except ValueError:
        return False


def cookie_options(max_age: int = COOKIE_AGE) -> dict[str, Any]:
    return {"max_age": max_age, "httponly": True, "samesite": "strict", "path": "/"}
