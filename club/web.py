"""The club's page: every table live on one screen, and a read-only spectator view per table.

The same stack and look as a table's scoreboard: Starlette, server-sent events carrying whole
snapshots with the board's version as their `id:`, and the scoreboard's own style.css and
common.js, served from the scoreboard's folder (not copied). Read-only: there is nothing to
write, so there is no token. Only what the tables publish is shown: totals and picks, never a
hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path

from sse_starlette.sse import EventSourceResponse, ServerSentEvent
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from club.board import Board
from scoreboard.web import STATIC as SCOREBOARD_STATIC

STATIC = Path(__file__).with_name("static")
SHARED = ("style.css", "common.js")  # the scoreboard's, served as they are


class Watchers:
    """The open event streams, each woken (from any thread) when the board changes."""

    def __init__(self) -> None:
        self._waiting: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()
        self.closing = False

    def add(self) -> tuple[asyncio.AbstractEventLoop, asyncio.Event]:
        entry = (asyncio.get_running_loop(), asyncio.Event())
        self._waiting.add(entry)
        return entry

    def remove(self, entry: tuple[asyncio.AbstractEventLoop, asyncio.Event]) -> None:
        self._waiting.discard(entry)

    def wake(self) -> None:
        for loop, changed in list(self._waiting):
            try:
                loop.call_soon_threadsafe(changed.set)
            except RuntimeError:  # that stream's loop has closed
                self._waiting.discard((loop, changed))

    def close(self) -> None:
        self.closing = True
        self.wake()


async def club_page(request: Request) -> Response:
    return FileResponse(STATIC / "club.html", headers={"Cache-Control": "no-cache"})


async def table_page(request: Request) -> Response:
    return FileResponse(STATIC / "table.html", headers={"Cache-Control": "no-cache"})


def shared_asset(name: str):
    async def endpoint(request: Request) -> Response:
        return FileResponse(SCOREBOARD_STATIC / name, headers={"Cache-Control": "no-cache"})

    return endpoint


async def club_view(request: Request) -> Response:
    return JSONResponse(request.app.state.board.snapshot())


async def table_view(request: Request) -> Response:
    table = request.app.state.board.table(request.path_params["name"])
    if table is None:
        raise HTTPException(404, f"no table {request.path_params['name']!r} has published yet")
    return JSONResponse(table)


async def events(request: Request) -> Response:
    board: Board = request.app.state.board
    watchers: Watchers = request.app.state.watchers
    ping = request.app.state.ping

    async def stream() -> AsyncIterator[ServerSentEvent]:
        entry = watchers.add()
        _, changed = entry
        sent = None
        try:
            while not watchers.closing:
                changed.clear()
                snapshot = board.snapshot()
                if snapshot["version"] != sent:
                    sent = snapshot["version"]
                    yield ServerSentEvent(data=json.dumps(snapshot, separators=(",", ":")),
                                          event="view", id=str(sent), retry=1000)
                await changed.wait()
        finally:
            watchers.remove(entry)

    return EventSourceResponse(stream(), ping=ping, headers={"Cache-Control": "no-cache"})


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code)


routes = [
    Route("/", club_page),
    Route("/table/{name}", table_page),
    Route("/api/club", club_view),
    Route("/api/tables/{name}", table_view),
    Route("/api/events", events),
    *(Route(f"/static/{name}", shared_asset(name)) for name in SHARED),
    Mount("/club-static", StaticFiles(directory=STATIC), name="club-static"),
]


def create_app(board: Board, watchers: Watchers | None = None, *, ping: float = 15) -> Starlette:
    watchers = watchers or Watchers()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        watchers.close()

    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error},
                    lifespan=lifespan)
    app.state.board = board
    app.state.watchers = watchers
    app.state.clients = watchers  # what scoreboard.server.ServerThread closes before stopping
    app.state.ping = ping
    return app
