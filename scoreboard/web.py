"""The web display: a Starlette app that serves the pages and pushes the view over SSE.

Reading (pages, the view, the event stream, exports) needs nothing; every write needs the
table's token in the `X-Table-Token` header. Every server-sent event carries the journal id of
the state it shows as its `id:` and is a whole snapshot of the view, so a page that reconnects
(after a network blip or a server restart) is up to date with its first message.

`create_app` is independent of the CLI so the tray service can serve the same app. Given the
tray's show settings, the view keeps each pick's colour back until the lights have settled, and
`/api/show` gives the virtual tray the very frames the LEDs play (see `scoreboard.reveal`).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import secrets
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

from sse_starlette.sse import EventSourceResponse, ServerSentEvent
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from engine.table import EntryError
from scoreboard.journal import ConfirmError, Journal, UnknownGameError
from scoreboard.session import PickRevealed, TableChanged, TableSession
from scoreboard.view import keyboard
from tray.bus import Bus
from tray.config import ShowSettings

STATIC = Path(__file__).with_name("static")
WEB_KINDS = frozenset({"hand", "edit", "void", "dealer", "undo", "declare"})
"""Entries a page may send; picks come only from the tray, games start via /api/new-game."""
MAX_BODY = 64 * 1024


EXPORT_TYPES = {"csv": "text/csv", "json": "application/json", "jsonl": "application/x-ndjson"}


class _Clients:
    """The open event streams: each waits on its own asyncio.Event, set from any thread."""

    def __init__(self) -> None:
        self._waiting: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()
        self.closing = False

    def close(self) -> None:
        """End every stream (before the server stops, so it need not cancel them)."""
        self.closing = True
        self.wake()

    def add(self) -> tuple[asyncio.AbstractEventLoop, asyncio.Event]:
        entry = (asyncio.get_running_loop(), asyncio.Event())
        self._waiting.add(entry)
        return entry

    def remove(self, entry: tuple[asyncio.AbstractEventLoop, asyncio.Event]) -> None:
        self._waiting.discard(entry)

    def wake(self, _event: object = None) -> None:
        for loop, changed in list(self._waiting):
            try:
                loop.call_soon_threadsafe(changed.set)
            except RuntimeError:  # that client's loop has closed
                self._waiting.discard((loop, changed))

    def __len__(self) -> int:
        return len(self._waiting)


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
    extensions: Sequence[Callable[..., Any]] = (),
) -> Starlette:
    """The display app. `press` (emulator mode) adds the virtual tray page and /api/press;
    `public_url` is the address phones should open (for the QR code), default: as requested;
    `show` is the tray's show settings (None: no tray, picks show at once); `clock` is the
    clock `Pick.settles_at` is on (tests pass theirs). Each of `extensions` (digital play, added
    by the command line) is called with the app's parts (bus, clients, authorised, read_body,
    table, emulator, ping) and gives `routes`, `state` (set as `app.state.<name>`) and
    `close()`."""
    session = TableSession(journal, bus, show=show, clock=clock)
    clients = _Clients()
    unsubscribe = bus.subscribe(clients.wake, TableChanged, PickRevealed)

    def authorised(request: Request) -> None:
        given = request.headers.get("x-table-token") or request.query_params.get("token") or ""
        if not secrets.compare_digest(given.encode(), token.encode()):
            raise HTTPException(403, "this needs the table's token (shown when the display starts)")

    async def body(request: Request) -> dict[str, Any]:
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise HTTPException(413, "request too large")
        try:
            data = json.loads(raw or b"{}")
        except (ValueError, UnicodeDecodeError):
            raise HTTPException(400, "the request body is not valid JSON") from None
        if not isinstance(data, dict):
            raise HTTPException(400, "the request body must be a JSON object")
        return data

    async def page(request: Request) -> Response:
        name = {"/": "scoreboard.html", "/enter": "entry.html", "/tray": "tray.html"}[
            request.url.path
        ]
        if name == "tray.html" and press is None:
            raise HTTPException(404, "there is no virtual tray: this display runs with a real one")
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

    async def view(request: Request) -> Response:
        _, text = session.view_json()
        return Response(text, media_type="application/json")

    async def light_show(request: Request) -> Response:
        return JSONResponse(session.show(), headers={"Cache-Control": "no-store"})

    async def cards(request: Request) -> Response:
        return JSONResponse({"keys": keyboard(), "emulator": press is not None})

    async def events(request: Request) -> Response:
        async def stream():
            entry = clients.add()
            _, changed = entry
            sent = None
            try:
                while not clients.closing:
                    changed.clear()
                    version, text = session.view_json()
                    if text != sent:  # a new version, or the same one with its pick revealed
                        yield ServerSentEvent(data=text, event="view", id=str(version), retry=1000)
                        sent = text
                    await changed.wait()
            finally:
                clients.remove(entry)

        return EventSourceResponse(stream(), ping=ping, headers={"Cache-Control": "no-cache"})

    async def entry(request: Request) -> Response:
        authorised(request)
        data = await body(request)
        if data.get("kind") not in WEB_KINDS:
            raise HTTPException(
                422, f"kind must be one of {', '.join(sorted(WEB_KINDS))}, not {data.get('kind')!r}"
            )
        version = await run_in_threadpool(session.submit, data)
        return JSONResponse({"version": version})

    async def new_game(request: Request) -> Response:
        authorised(request)
        data = await body(request)
        extra = set(data) - {"players", "dealer", "options", "name", "confirm"}
        if extra:
            raise HTTPException(422, f"a new game has no field {', '.join(sorted(extra))}")
        if "players" not in data:
            raise HTTPException(422, "a new game needs players: a list of names")
        name = data.get("name")
        if name is not None and not isinstance(name, str):
            raise HTTPException(422, "name is text")
        game = await run_in_threadpool(
            lambda: session.new_game(
                data["players"],
                data.get("dealer", 0),
                data.get("options"),
                name=name or None,
                confirm=data.get("confirm") is True,
            )
        )
        return JSONResponse({"game": game, "version": session.version})

    async def games(request: Request) -> Response:
        return JSONResponse(
            {"current": session.game_id,
             "games": [{"id": g.id, "name": g.name, "created": g.created, "entries": g.entries,
                        "digital": g.digital} for g in journal.games()]}
        )

    async def export(request: Request) -> Response:
        game, fmt = request.path_params["game"], request.path_params["fmt"]
        if fmt == "jsonl":  # a digital game's record: every hand, so only once it is over
            table = journal.load(game).game
            if table is None or not table.over:
                authorised(request)
                if request.query_params.get("reveal") != "yes":
                    raise HTTPException(
                        409, "the record shows every hand: export it when the game is over, "
                        "or add ?reveal=yes to show it now")
            text = journal.export_record(game)
        elif fmt in ("csv", "json"):
            text = journal.export_csv(game) if fmt == "csv" else journal.export_json(game)
        else:
            raise HTTPException(404, "export as .csv, .json or (a digital game) .jsonl")
        return Response(
            text,
            media_type=EXPORT_TYPES[fmt],
            headers={"Content-Disposition": f'attachment; filename="tinker-game-{game}.{fmt}"'},
        )

    async def delete_game(request: Request) -> Response:
        authorised(request)
        data = await body(request)
        game = request.path_params["game"]
        if game == session.game_id:
            raise HTTPException(409, "this is the current game: start a new one before deleting it")
        confirm = data.get("confirm")
        confirm = confirm if isinstance(confirm, str) else ""
        await run_in_threadpool(journal.delete_game, game, confirm)
        return JSONResponse({"deleted": game})

    async def press_button(request: Request) -> Response:
        if press is None:
            raise HTTPException(404, "there is no virtual tray: this display runs with a real one")
        authorised(request)
        await run_in_threadpool(press)
        return JSONResponse({"pressed": True})

    async def qr(request: Request) -> Response:
        authorised(request)  # the QR carries the token: only a page that has it may show it
        import segno  # lazily: ~8 ms and ~1.3 MiB, only for the page that shows the QR

        base = (public_url or str(request.base_url)).rstrip("/")
        code = segno.make(f"{base}/enter?token={token}", error="m")
        buf = io.BytesIO()
        code.save(buf, kind="svg", scale=1, dark="#000", light="#fff", border=2, omitsize=True,
                  xmldecl=False)
        return Response(buf.getvalue(), media_type="image/svg+xml",
                        headers={"Cache-Control": "no-store"})

    async def refuse(request: Request, exc: Exception) -> Response:
        if isinstance(exc, ConfirmError):
            return JSONResponse({"error": str(exc), "confirm": True}, status_code=409)
        if isinstance(exc, UnknownGameError):
            return JSONResponse({"error": str(exc)}, status_code=404)
        return JSONResponse({"error": str(exc)}, status_code=422)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        unsubscribe()
        for extension in added:
            extension.close()
        session.close()

    added = [
        make(bus=bus, clients=clients, authorised=authorised, read_body=body, table=session,
             emulator=press is not None, ping=ping)
        for make in extensions
    ]
    routes = [
        Route("/", page),
        Route("/enter", page),
        Route("/tray", page),
        Route("/api/view", view),
        Route("/api/show", light_show),
        Route("/api/cards", cards),
        Route("/api/events", events),
        Route("/api/entry", entry, methods=["POST"]),
        Route("/api/new-game", new_game, methods=["POST"]),
        Route("/api/games", games),
        Route("/api/games/{game:int}.{fmt}", export),
        Route("/api/games/{game:int}/delete", delete_game, methods=["POST"]),
        Route("/api/press", press_button, methods=["POST"]),
        Route("/api/qr.svg", qr),
        *(route for extension in added for route in extension.routes),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={
            HTTPException: http_error,
            EntryError: refuse,
            ConfirmError: refuse,
            UnknownGameError: refuse,
        },
        lifespan=lifespan,
    )
    app.state.session = session
    app.state.clients = clients
    for extension in added:
        setattr(app.state, extension.name, extension.state)
    return app
