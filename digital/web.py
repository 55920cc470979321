"""The web side of digital play: the /play page and /api/digital/*, an extension of the
scoreboard's app (`scoreboard.web.create_app`), added by the command line (`cli.app`).

Kept out of web.py so the table display and digital play change independently. The routes use
the display's own token check, body reader and stream registry (so stopping the server ends
these streams too); everything about the game is `DigitalSession`'s.

    GET  /play                     the page (?seat=N&key=K for a person's seat; without: watch)
    GET  /api/digital/view         the view (?seat=&key= for that seat's hand and moves)
    GET  /api/digital/events       the same view as server-sent events (`id:` = its version)
    POST /api/digital/new          {players, humans, bots, dealer, options, seed, pace, confirm}
    POST /api/digital/act          {seat, key, action} or {seat, key, event}
    GET  /api/digital/record       the game record (in play: token and ?reveal=yes)
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from sse_starlette.sse import EventSourceResponse, ServerSentEvent
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from digital.session import DigitalSession, NoGameError, SeatError
from engine import cards as C
from engine.hand import RuleError
from engine.notation import EventError
from engine.table import EntryError
from scoreboard.journal import ConfirmError
from tray.bus import Bus

STATIC = Path(__file__).with_name("static")
NEW_FIELDS = {
    "players", "humans", "bots", "dealer", "options", "ruleset", "seed", "pace", "confirm",
}


class DigitalPlay:
    """The routes and the session behind them. `close()` when the app stops."""

    name = "digital"  # the app's state: `app.state.digital` is the session

    def __init__(
        self,
        *,
        bus: Bus,
        clients: Any,
        authorised: Callable[[Request], None],
        read_body: Callable[[Request], Awaitable[dict[str, Any]]],
        table: Any = None,
        emulator: bool = False,
        ping: float = 15,
    ):
        self.session = DigitalSession(bus, table=table, on_change=clients.wake)
        self.state = self.session
        self.clients, self.authorised, self.read_body = clients, authorised, read_body
        self.emulator, self.ping = emulator, ping
        self.routes = [
            Route("/play", self.page),
            Route("/api/digital/view", self.view),
            Route("/api/digital/events", self.events),
            Route("/api/digital/new", self.new_game, methods=["POST"]),
            Route("/api/digital/act", self.act, methods=["POST"]),
            Route("/api/digital/record", self.record),
            Mount("/play/static", StaticFiles(directory=STATIC), name="play-static"),
        ]

    def close(self) -> None:
        self.session.close()

    # ------------------------------------------------------------------ reading
    async def page(self, request: Request) -> Response:
        return FileResponse(STATIC / "play.html", headers={"Cache-Control": "no-cache"})

    def _view_json(self, seat: int | None, key: str | None) -> tuple[int, str]:
        view = _guard(self.session.view, seat, key)
        view["emulator"] = self.emulator
        return view["version"], json.dumps(view, separators=(",", ":"))

    async def view(self, request: Request) -> Response:
        seat, key = _seat_query(request)
        _, text = self._view_json(seat, key)
        return Response(text, media_type="application/json")

    async def events(self, request: Request) -> Response:
        seat, key = _seat_query(request)
        self._view_json(seat, key)  # refuse a wrong key before the stream starts

        async def stream():
            entry = self.clients.add()
            _, changed = entry
            sent = -1
            try:
                while not self.clients.closing:
                    changed.clear()
                    version, text = self._view_json(seat, key)
                    if version != sent:
                        yield ServerSentEvent(data=text, event="digital", id=str(version),
                                              retry=1000)
                        sent = version
                    await changed.wait()
            finally:
                self.clients.remove(entry)

        return EventSourceResponse(stream(), ping=self.ping, headers={"Cache-Control": "no-cache"})

    async def record(self, request: Request) -> Response:
        if not self.session.over:
            self.authorised(request)
            if request.query_params.get("reveal") != "yes":
                raise HTTPException(
                    409, "the record shows every hand: export it when the game is over, or add "
                    "?reveal=yes to show it now")
        text = _guard(self.session.record)
        return Response(text, media_type="application/x-ndjson", headers={
            "Content-Disposition": 'attachment; filename="tinker-digital-game.jsonl"'})

    # ------------------------------------------------------------------ writing
    async def new_game(self, request: Request) -> Response:
        self.authorised(request)
        data = await self.read_body(request)
        extra = set(data) - NEW_FIELDS
        if extra:
            raise HTTPException(422, f"a digital game has no field {', '.join(sorted(extra))}")
        if "players" not in data:
            raise HTTPException(422, "a digital game needs players: a list of names")
        args = {k: v for k, v in data.items() if k != "confirm"}
        keys = await run_in_threadpool(
            _guard, self.session.new_game, **args, confirm=data.get("confirm") is True)
        return JSONResponse({
            "keys": {str(s): k for s, k in keys.items()},
            "links": {str(s): f"/play?seat={s}&key={k}" for s, k in keys.items()},
            "version": self.session.version,
        })

    async def act(self, request: Request) -> Response:
        self.authorised(request)
        data = await self.read_body(request)
        extra = set(data) - {"seat", "key", "action", "event"}
        if extra:
            raise HTTPException(422, f"an action has no field {', '.join(sorted(extra))}")
        if ("action" in data) == ("event" in data):
            raise HTTPException(422, "send either an action (a number) or an event")
        await run_in_threadpool(_guard, self.session.act, data.get("seat"), data.get("key"),
                                data.get("action"), data.get("event"))
        return JSONResponse({"version": self.session.version})


def _guard(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call into the session, turning its refusals into 4xx answers with the message."""
    try:
        return fn(*args, **kwargs)
    except (ConfirmError, EntryError):
        raise  # the table session's: the display's own handlers answer them
    except SeatError as exc:
        raise HTTPException(403, str(exc)) from None
    except NoGameError as exc:
        raise HTTPException(409, str(exc)) from None
    except RuleError as exc:  # the engine's message: the state is unchanged
        raise HTTPException(422, str(exc)) from None
    except (EventError, C.CardError, KeyError, TypeError) as exc:
        raise HTTPException(422, f"malformed event: {exc}") from None
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from None


def _seat_query(request: Request) -> tuple[int | None, str | None]:
    raw = request.query_params.get("seat")
    if raw in (None, ""):
        return None, None
    try:
        seat = int(raw)
    except ValueError:
        raise HTTPException(422, f"seat is a number, not {raw!r}") from None
    return seat, request.query_params.get("key", "")
