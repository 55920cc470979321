"""The club's page: every table live on one screen, and a read-only spectator view per table.

The same stack and look as a table's scoreboard: Starlette, server-sent events carrying the whole
board first and then the tables that changed, with the board's version as their `id:`, and the
scoreboard's own style.css and common.js, served from the scoreboard's folder (not copied).
Read-only: there is nothing to write, so there is no token. Only what the tables publish is
shown: totals and picks, never a hand.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from club.board import Board
from scoreboard import stream
from scoreboard.web import STATIC as SCOREBOARD_STATIC

STATIC = Path(__file__).with_name("static")
SHARED = ("style.css", "common.js", "icon.svg")  # the scoreboard's, served as they are


async def club_page(request: Request) -> Response:
    return FileResponse(STATIC / "club.html", headers={"Cache-Control": "no-cache"})


async def table_page(request: Request) -> Response:
    return FileResponse(STATIC / "table.html", headers={"Cache-Control": "no-cache"})


def shared_asset(name: str):
    async def endpoint(request: Request) -> Response:
        return FileResponse(SCOREBOARD_STATIC / name, headers={"Cache-Control": "no-cache"})

    return endpoint


async def club_view(request: Request) -> Response:
    return JSONResponse(request.state.board.snapshot())


async def table_view(request: Request) -> Response:
    table = request.state.board.table(request.path_params["name"])
    if table is None:
        raise HTTPException(404, f"no table {request.path_params['name']!r} has published yet")
    return JSONResponse(table)


async def events(request: Request) -> Response:
    """The board over server-sent events (the scoreboard's one stream helper): the whole board
    first, then only the tables that changed (`view-change`, merged by name in club.js)."""
    board: Board = request.state.board

    def changes(sent: str, _new: str) -> str:
        version = int(json.loads(sent)["version"])
        return json.dumps(board.changes_since(version), separators=(",", ":"))

    return stream.respond(request, board.snapshot_text, "view", changes)


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


def create_app(
    board: Board, clients: stream.Clients | None = None, *, ping: float = 15
) -> Starlette:
    """The club's page. `clients` are its open event streams (the service wakes them when the
    board changes)."""
    watching = clients if clients is not None else stream.Clients()  # (an empty one is falsy)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[dict[str, Any]]:
        yield {"board": board, "clients": watching, "ping": ping}  # request.state
        watching.close()

    app = Starlette(
        routes=routes, exception_handlers={HTTPException: http_error}, lifespan=lifespan
    )
    app.state.board = board
    app.state.clients = watching  # what scoreboard.server.ServerThread closes before stopping
    return app
