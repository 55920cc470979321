"""The web display: a Starlette app that serves the pages and pushes the view over SSE.

Module-level endpoints and one `routes` list; the table session, the open streams and the
extensions' state are created in the `lifespan` and read from `request.state`; roles come from
`scoreboard.auth` (`AuthenticationMiddleware`, `needs("host")`); bodies are read and checked by
`scoreboard.bodies`; one `exception_handlers` map turns every domain error into a 4xx sentence.
Every write, digital play's too, counts once: a page sends an `Idempotency-Key` with each, and
a repeat of it (a double tap, a retry after a dropped answer) gets the first answer again
(`scoreboard.once`).

    GET  /  /enter  /tray  /pair         pages (?token= once, from the QR code: sets the cookie)
    GET  /api/view                       the view (?hands=all: every hand; else the recent ones)
    GET  /api/events                     the view as server-sent events (`id:` = its version)
    GET  /api/show                       the light show so far, for the virtual tray
    GET  /api/cards   /api/whoami        the card keyboard; the visitor's roles
    GET  /api/games                      kept games, newest first (?before=ID&limit=N)
    GET  /api/games/N.csv|json|jsonl     exports (host)
    POST /api/entry  /api/new-game  /api/games/N/delete  /api/press  /api/session
                                         (an entry's kind "redo": what the last undo took back)
    GET  /api/qr.svg                     the entry page's QR code, with the token (host)
    GET  /api/pairing  /api/pair-qr.svg  the pairing window; the pairing page's QR code (no token)
    POST /api/pair                       become host while the window is open (`scoreboard.pairing`)
    GET  /api/backup  POST /api/restore  the whole journal as one file, and back (host;
                                         `scoreboard.backup_web`)
    POST /api/new-key                    a new table token: every other phone is unpaired (host)
    GET  /api/update  POST /api/update/check|install|file   the tray's update (host;
                                         `scoreboard.update_page`)

Given the tray's show settings, the view keeps each pick back until the lights have settled
(`scoreboard.reveal`), and so does every other read: exports, the stream, the games list.
`create_app` is independent of the CLI; the command line adds digital play as an extension.
The event stream's view carries the pairing window's state too (`pairing`), so the kiosk shows
the pairing page's QR code while the window is open.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from engine import registry, sheets
from engine.score_sheet import EntryError
from scoreboard import auth, backup_web, bodies, guard, once, stream, update_page
from scoreboard.auth import needs
from scoreboard.bodies import BadRequest, Body, Field
from scoreboard.journal import (
    ConfirmError,
    DamagedGame,
    InPlayError,
    Journal,
    JournalWriteError,
    UnknownGameError,
)
from scoreboard.names import NameRefused
from scoreboard.pairing import WINDOW_S, Pairing
from scoreboard.session import PickRevealed, TableChanged, TableSession
from scoreboard.view import keyboard
from tray.bus import Bus
from tray.config import ShowSettings
from tray.events import LinkHeld

STATIC = Path(__file__).with_name("static")
EXPORT_TYPES = {"csv": "text/csv", "json": "application/json", "jsonl": "application/x-ndjson"}
MAX_GAME_ID = 2**62
PAGE_SIZE, MAX_PAGE = 50, 200

# ---------------------------------------------------------------------- request bodies
WEB_KINDS = ("declare", "dealer", "edit", "hand", "redo", "undo", "void")
"""Entries a page may send; picks come only from the tray, games start via /api/new-game.
A redo is journaled as the entry it brings back (`TableSession.redo`)."""
ENTRY = Body(
    "an entry",
    (
        Field("kind", (str,), True, "one of " + ", ".join(WEB_KINDS)),
        Field("winner", (int,), says="a seat number"),
        Field("held", (list, dict), says="a list with one item per seat"),
        Field("hand", (int,), says="a hand number (0 is the first)"),
        Field("dealer", (int,), says="a seat number"),
        Field("card", (str, int, type(None)), says="a card code such as RD2, or null"),
        Field("seat", (int, type(None)), says="a seat number or null"),
    ),
)
NEW_GAME = Body(
    "a new game",
    (
        Field("players", (list,), True, "a list of names"),
        Field("dealer", (int,), says="a seat number"),
        Field("options", (dict,), says="an object of rule options"),
        Field("name", (str, type(None)), says="text", max_chars=60),
        Field("confirm", (bool,)),
        Field(
            "ruleset", (str,), says="the name of a ruleset the table keeps a sheet of", max_chars=40
        ),
    ),
)
DELETE = Body("a deletion", (Field("confirm", (str,), True, 'the phrase "delete game N"'),))
LOGIN = Body("a sign-in", (Field("token", (str,), True, "the table's token"),))
EMPTY = Body("this request", ())


# ---------------------------------------------------------------------- extensions
@dataclasses.dataclass(frozen=True)
class Parts:
    """What an extension gets from the table's app when it starts."""

    bus: Bus
    clients: stream.Clients
    table: TableSession
    emulator: bool
    tray_press: Callable[[], None] | None = None  # the tray's button, for a bot's own press


class Extension(Protocol):
    """Something the command line adds to the app (digital play): its routes, its own
    exception handlers, and `start(parts)` -> its state (set as `request.state.<name>`; it has
    `close()`, and may have `seat_of(key)` to give seat keys their role)."""

    @property
    def name(self) -> str: ...

    @property
    def routes(self) -> Sequence[BaseRoute]: ...

    @property
    def exception_handlers(self) -> Mapping[type[Exception], int]: ...

    def start(self, parts: Parts) -> Any: ...


# ---------------------------------------------------------------------- reading
def _page(name: str) -> Callable[[Request], Any]:
    async def endpoint(request: Request) -> Response:
        return page(request, STATIC / name)

    return endpoint


def page(request: Request, path: Path) -> Response:
    """A page; opened with `?token=` (a QR code, a printed link) it sets the token's cookie, and
    the page strips the token from the address bar, so it lives in no URL after this visit."""
    response = FileResponse(path, headers={"Cache-Control": "no-cache"})
    given = request.query_params.get("token")
    if given is not None and auth.same_token(given, request.state.table_key.value):
        response.set_cookie(auth.TOKEN_COOKIE, given, **auth.cookie_options())
    return response


async def tray_page(request: Request) -> Response:
    if request.state.press is None:
        raise HTTPException(404, "there is no virtual tray: this display runs with a real one")
    return page(request, STATIC / "tray.html")


async def favicon(request: Request) -> Response:
    return FileResponse(
        STATIC / "icon.svg", media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"}
    )


async def manifest(request: Request) -> Response:
    return JSONResponse(
        {
            "name": "Tinker Bell tray",
            "short_name": "Tinker tray",
            "start_url": "/",
            "display": "fullscreen",
            "background_color": "#0b0d12",
            "theme_color": "#0b0d12",
            "icons": [{"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml"}],
        },
        media_type="application/manifest+json",
    )


async def view(request: Request) -> Response:
    session: TableSession = request.state.table
    if request.query_params.get("hands") == "all":
        return JSONResponse(session.view())
    _, text = session.view_json()
    return Response(text, media_type="application/json")


async def light_show(request: Request) -> Response:
    return JSONResponse(request.state.table.show(), headers={"Cache-Control": "no-store"})


async def cards(request: Request) -> Response:
    session: TableSession = request.state.table
    keys = keyboard(session.table, session.home)
    rulesets = [{"name": n, "title": registry.get(n).title} for n in sheets.kept()]
    return JSONResponse(
        {"keys": keys, "rulesets": rulesets, "emulator": request.state.press is not None}
    )


async def whoami(request: Request) -> Response:
    visitor: auth.Visitor = request.user
    return JSONResponse(
        {
            "host": visitor.host,
            "seats": sorted(visitor.seats),
            "press": request.state.press is not None,
            "tray": request.state.tray,  # a tray runs here (the emulator's, with `press`)
            "replaced": visitor.stale,  # it showed a token that is not the table's (a new key)
        },
        headers={"Cache-Control": "no-store"},
    )


async def events(request: Request) -> Response:
    session: TableSession = request.state.table
    return stream.respond(request, request.state.view_json, "view", session.view_change)


def view_with_pairing(session: TableSession, pairing: Pairing) -> stream.Snapshot:
    """The session's view text with the pairing window's state added (`"pairing": {...}`): the
    same string object while neither changes, so the stream's per-change diff is computed once
    for every page, as for the view alone. Called on the event loop only."""
    last: list[tuple[str, str, str]] = []

    def snapshot() -> tuple[int, str]:
        version, text = session.view_json()
        state = pairing.state_json()
        if not last or last[0][0] is not text or last[0][1] is not state:
            last[:] = [(text, state, f'{text[:-1]},"pairing":{state}}}')]
        return version, last[0][2]

    return snapshot


async def games(request: Request) -> Response:
    """Kept games, newest first, a page at a time: `next` is the `before` of the next page."""
    before = _query_int(request, "before", 1, MAX_GAME_ID + 1, None)
    limit = _query_int(request, "limit", 1, MAX_PAGE + 1, PAGE_SIZE) or PAGE_SIZE
    journal: Journal = request.state.journal
    found = journal.games(before=before, limit=limit + 1)
    more = len(found) > limit
    found = found[:limit]
    won = {r.game: r.players[r.winner] for r in journal.results() if r.game is not None}
    return JSONResponse(
        {
            "current": request.state.table.game_id,
            "games": [
                {
                    "id": g.id,
                    "name": g.name,
                    "created": g.created,
                    "entries": g.entries,
                    "digital": g.digital,
                    "finished": g.finished,
                    "ended": g.ended,  # ended unfinished by the host: never played on
                    "winner": won.get(g.id),  # a finished digital game's winner
                }
                for g in found
            ],
            "next": found[-1].id if more else None,
        }
    )


@needs("host")
async def export(request: Request) -> Response:
    game, fmt = _game(request), request.path_params["fmt"]
    session: TableSession = request.state.table
    if fmt == "jsonl":  # a digital game's record: every hand, so only once it is over
        table = session.journal.load(game).game  # None: a game without a score sheet
        over = session.journal.finished(game) if table is None else table.over
        if not over and request.query_params.get("reveal") != "yes":
            raise HTTPException(
                409,
                "the record shows every hand, the bots' too: export it when the game is "
                "over, or add ?reveal=yes to show every hand now",
            )
        text = await run_in_threadpool(session.journal.export_record, game)
    elif fmt == "json":
        text = await run_in_threadpool(session.export_json, game)
    elif fmt == "csv":
        text = await run_in_threadpool(session.journal.export_csv, game)
    else:
        raise HTTPException(404, "export as .csv, .json or (a digital game) .jsonl")
    return Response(
        text,
        media_type=EXPORT_TYPES[fmt],
        headers={
            "Content-Disposition": f'attachment; filename="tinker-game-{game}.{fmt}"',
            "Cache-Control": "no-store",
        },
    )


@needs("host")
async def qr(request: Request) -> Response:
    """The entry page's QR code: it carries the token once, for the phone's first visit."""
    return qr_response(request, f"/enter?token={request.state.table_key.value}")


def qr_response(request: Request, path: str) -> Response:
    """An SVG QR code of `path` on the address phones open (the host's screen shows it)."""
    import segno  # lazily: ~8 ms and ~1.3 MiB, only for the page that shows a QR code

    base = public_base(request)
    buf = io.BytesIO()
    segno.make(f"{base}{path}", error="m").save(
        buf, kind="svg", scale=1, dark="#000", light="#fff", border=2, omitsize=True, xmldecl=False
    )
    return Response(
        buf.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "no-store"}
    )


async def pairing_state(request: Request) -> Response:
    """The window's state, whether the visitor is host, and the pairing page's address."""
    return JSONResponse(
        {
            **request.state.pairing.state(),
            "host": request.user.host,
            "link": f"{public_base(request)}/pair",
        },
        headers={"Cache-Control": "no-store"},
    )


async def pairing_qr(request: Request) -> Response:
    """The pairing page's QR code, for the kiosk while the window is open: no token in it."""
    return qr_response(request, "/pair")


def public_base(request: Request) -> str:
    """The address phones open: the one the display was told, else the one asked."""
    return (request.state.public_url or str(request.base_url)).rstrip("/")


# ---------------------------------------------------------------------- writing
@needs("host")
async def entry(request: Request) -> Response:
    data = await bodies.read(request)
    kind = data.get("kind")
    if kind not in WEB_KINDS:  # before the fields: which fields belong depends on the kind
        raise BadRequest(f"kind must be one of {', '.join(WEB_KINDS)}, not {bodies.shown(kind)}")
    ENTRY.check(data)
    version = await run_in_threadpool(request.state.table.submit, data)
    return JSONResponse({"version": version})


@needs("host")
async def new_game(request: Request) -> Response:
    data = await bodies.read(request, NEW_GAME)
    session: TableSession = request.state.table
    game = await run_in_threadpool(
        lambda: session.new_game(
            data["players"],
            data.get("dealer", 0),
            data.get("options"),
            name=data.get("name") or None,
            confirm=data.get("confirm") is True,
            ruleset=data.get("ruleset") or None,
        )
    )
    return JSONResponse({"game": game, "version": session.version})


@needs("host")
async def delete_game(request: Request) -> Response:
    data = await bodies.read(request, DELETE)
    game = _game(request)
    if game == request.state.table.game_id:
        raise HTTPException(409, "this is the current game: start a new one before deleting it")
    await run_in_threadpool(request.state.journal.delete_game, game, data["confirm"])
    return JSONResponse({"deleted": game})


@needs("player")
async def press_button(request: Request) -> Response:
    """The virtual Tinker Bell button: the host's, or a seat's in digital play."""
    await bodies.read(request, EMPTY)
    if request.state.press is None:
        raise HTTPException(404, "there is no virtual button: this display has a real tray")
    await run_in_threadpool(request.state.press)
    return JSONResponse({"pressed": True})


async def sign_in(request: Request) -> Response:
    """Trade the token typed on a page for the cookie (the page never stores the token)."""
    data = await bodies.read(request, LOGIN)
    if not auth.same_token(data["token"], request.state.table_key.value):
        raise HTTPException(403, "that is not the table's token (the display printed it)")
    response = JSONResponse({"host": True})
    response.set_cookie(auth.TOKEN_COOKIE, data["token"], **auth.cookie_options())
    return response


NO_WINDOW = (
    "no pairing window is open: hold the Tinker Bell button on the tray for 3 seconds, then "
    "ask again within a minute (each hold makes one phone the host)"
)


async def pair(request: Request) -> Response:
    """A phone asks to become host: while the window the tray's button opened is open, it gets
    the host cookie, and the window closes (`scoreboard.pairing`). The token is in the cookie
    only (HTTP-only), never in the body: a page's script cannot read it."""
    await bodies.read(request, EMPTY)
    if request.user.host:  # this phone is host already: the window stays for another one
        return JSONResponse({"host": True})
    if not request.state.pairing.claim():
        raise HTTPException(403, NO_WINDOW)
    response = JSONResponse({"host": True})
    response.set_cookie(auth.TOKEN_COOKIE, request.state.table_key.value, **auth.cookie_options())
    return response


@needs("host")
async def new_key(request: Request) -> Response:
    """ "New table key": a new token replaces the table's, kept in the journal, so every phone
    that held the old one (a leaked photo of the QR code) is a reader again, and is told so
    (401). The phone asking keeps its place: its cookie is the new token, which it is also
    given to pass on. The games and the seats' links are untouched."""
    await bodies.read(request, EMPTY)
    token = await run_in_threadpool(request.state.journal.new_token)
    request.state.table_key.value = token
    response = JSONResponse({"host": True, "token": token}, headers={"Cache-Control": "no-store"})
    response.set_cookie(auth.TOKEN_COOKIE, token, **auth.cookie_options())
    return response


# ---------------------------------------------------------------------- helpers
def _game(request: Request) -> int:
    game = request.path_params["game"]
    if not 0 < game <= MAX_GAME_ID:
        raise UnknownGameError(f"no game {str(game)[:24]} in this journal")
    return game


def _query_int(request: Request, name: str, low: int, high: int, default: int | None) -> int | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    if not raw.isdigit() or len(raw) > 20:
        raise BadRequest(f"{name} is a whole number, not {raw[:24]!r}", 400)
    return bodies.whole(int(raw), name, low, high)


# ---------------------------------------------------------------------- errors
def answer(status: int, **extra: Any) -> Callable[[Request, Exception], Any]:
    """An exception handler: `status` with the exception's message."""

    async def handler(request: Request, exc: Exception) -> Response:
        return JSONResponse({"error": str(exc)[:500], **extra}, status_code=status)

    return handler


async def bad_request(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, BadRequest)
    return JSONResponse({"error": str(exc)}, status_code=exc.status)


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    detail = exc.detail
    if exc.status_code == 403 and detail == "Forbidden":  # from `requires`: say what it needs
        if getattr(request.user, "stale", False) and _wanted(request) in ("host", "player"):
            return JSONResponse({"error": auth.REPLACED}, status_code=401)
        detail = auth.refusal(request.scope)
    return JSONResponse({"error": detail}, status_code=exc.status_code, headers=exc.headers)


def _wanted(request: Request) -> str:
    """The role the endpoint asked for (`needs`)."""
    return str(getattr(request.scope.get("endpoint"), "needs", ""))


def auth_error(conn: HTTPConnection, exc: Exception) -> Response:
    return JSONResponse({"error": str(exc)}, status_code=400)


EXCEPTION_HANDLERS: dict[Any, Callable[..., Any]] = {
    HTTPException: http_error,
    BadRequest: bad_request,
    EntryError: answer(422),
    NameRefused: answer(422),  # a name with a control character, a lone surrogate, a look-alike
    ConfirmError: answer(409, confirm=True),
    UnknownGameError: answer(404),
    InPlayError: answer(409),
    DamagedGame: answer(409),  # its rows no longer read: kept as they are, said as they are
    JournalWriteError: answer(503),  # nothing was changed: the page says so, and may try again
}

routes: list[BaseRoute] = [
    Route("/", _page("scoreboard.html")),
    Route("/enter", _page("entry.html")),
    Route("/tray", tray_page),
    Route("/pair", _page("pair.html")),
    Route("/favicon.ico", favicon),
    Route("/manifest.webmanifest", manifest),
    Route("/api/view", view),
    Route("/api/show", light_show),
    Route("/api/cards", cards),
    Route("/api/whoami", whoami),
    Route("/api/events", events),
    Route("/api/entry", entry, methods=["POST"]),
    Route("/api/new-game", new_game, methods=["POST"]),
    Route("/api/games", games),
    Route("/api/games/{game:int}.{fmt}", export),
    Route("/api/games/{game:int}/delete", delete_game, methods=["POST"]),
    Route("/api/press", press_button, methods=["POST"]),
    Route("/api/session", sign_in, methods=["POST"]),
    Route("/api/qr.svg", qr),
    Route("/api/pairing", pairing_state),
    Route("/api/pair-qr.svg", pairing_qr),
    Route("/api/pair", pair, methods=["POST"]),
    *backup_web.routes,
    Route("/api/new-key", new_key, methods=["POST"]),
    *update_page.routes,
]


# ---------------------------------------------------------------------- the app
def create_app(
    journal: Journal,
    bus: Bus,
    token: str,
    press: Callable[[], None] | None = None,
    *,
    public_url: str | None = None,
    ping: float = 15,
    show: ShowSettings | None = None,
    clock: Callable[[], float] = time.monotonic,
    extensions: Sequence[Extension] = (),
    pairing_s: float = WINDOW_S,
    tray_press: Callable[[], None] | None = None,
) -> Starlette:
    """The display app. `press` adds the virtual Tinker Bell button (the emulator's, or a
    standalone display's fair pick) and the virtual tray page; `public_url`: the address for
    the QR codes (default: as requested); `show`: the tray's show settings; `clock`: the
    clock of `Pick.settles_at` and the pairing window (`pairing_s` long); `tray_press`: a
    tray's own press, for digital play's bots (default `press`); `extensions`: `Extension`."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[dict[str, Any]]:
        session = TableSession(journal, bus, show=show, clock=clock)
        clients = stream.Clients()
        pairing = Pairing(pairing_s, on_change=clients.wake, clock=clock)
        unsubscribe = [
            bus.subscribe(clients.wake, TableChanged, PickRevealed),
            bus.subscribe(pairing.held, LinkHeld),
        ]
        parts = Parts(bus, clients, session, press is not None, tray_press or press)
        added = {ext.name: ext.start(parts) for ext in extensions}
        state = {
            **backup_web.lifespan_state(token, added.values(), journal),  # token, on_restore
            "journal": journal,
            "table": session,
            "clients": clients,
            "press": press,
            "tray": tray_press is not None,
            "public_url": public_url,
            "ping": ping,
            "seat_lookups": [s.seat_of for s in added.values() if hasattr(s, "seat_of")],
            "pairing": pairing,
            "view_json": view_with_pairing(session, pairing),
            **added,
        }
        app.state.session, app.state.clients, app.state.pairing = session, clients, pairing
        for name, value in added.items():
            setattr(app.state, name, value)
        try:
            yield state
        finally:
            _stop(clients, unsubscribe, pairing, list(added.values()), session)

    return Starlette(
        routes=_routes(extensions),
        middleware=MIDDLEWARE,
        exception_handlers=_handlers(extensions),
        lifespan=lifespan,
    )


def _stop(
    clients: stream.Clients,
    unsubscribe: list[Callable[[], None]],
    pairing: Pairing,
    added: list[Any],
    session: TableSession,
) -> None:
    """The app's parts stopped in the order that lets none wait on another: the pages' streams
    first (no one waits for a change any more), the bus, the pairing window, the extensions
    (digital play, the club: their threads may still write to the session), the session last."""
    clients.close()
    for undo in unsubscribe:
        undo()
    pairing.close()
    for value in added:
        value.close()
    session.close()


MIDDLEWARE = [
    Middleware(auth.SameOrigin),
    Middleware(AuthenticationMiddleware, backend=auth.TableAuth(), on_error=auth_error),
    Middleware(guard.Budget),  # one seat's key buys one seat's share of the connections
    Middleware(once.Once),  # a repeat of a write (its Idempotency-Key) is answered, not redone
]


def _routes(extensions: Sequence[Extension]) -> list[BaseRoute]:
    return [
        *routes,
        *(r for ext in extensions for r in ext.routes),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]


def _handlers(extensions: Sequence[Extension]) -> dict[Any, Any]:
    """The one exception map: the scoreboard's, and each extension's errors as a 4xx sentence."""
    handlers: dict[Any, Any] = dict(EXCEPTION_HANDLERS)
    for ext in extensions:
        for error, status in ext.exception_handlers.items():
            handlers[error] = answer(status)
    return handlers
