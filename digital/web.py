"""The web side of digital play: the /play page and /api/digital/*, an extension of the
scoreboard's app (`scoreboard.web.create_app`), added by the command line (`cli.app`). One page
and one protocol for every ruleset (`digital.view`); each refusal is one of digital play's own
errors (`digital.errors`) or the engine's, with its status: anything else is a bug, a 500.

Roles (`scoreboard.auth`): the host starts games and sees every seat's link and QR code; a seat
key (from its link, then a cookie) acts for that seat and sees its hand; anybody watches the
public state. The host exports the record; of a game in play (it shows every hand, the bots'
too) only with `?reveal=yes`; never to a seat key or a reader.

    GET  /play                     the page (?key=K once, from a seat's link: sets its cookie)
    GET  /api/digital/rulesets     what a new game's form offers, ruleset by ruleset
    GET  /api/digital/view         the view (?seat=N: which of your seats, if you hold several)
    GET  /api/digital/events       the same view as server-sent events (`id:` = its version)
    POST /api/digital/new          {players, humans, bots, dealer, options, seed, pace, confirm}
    POST /api/digital/act          {action} or {event} (and `seat`, if you hold several; `uno`
                                   true to play one of the view's `uno_plays` saying UNO!)
    POST /api/digital/end          {confirm: true}: the host ends the game in play unfinished
    GET  /api/digital/links        each person's seat link (host)
    GET  /api/digital/qr/N.svg     seat N's link as a QR code (host)
    GET  /api/digital/record       the game record (host; in play: ?reveal=yes)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from digital import games
from digital.errors import MoveError, NoGameError, NotSavedError, SeatError, SetupError
from digital.session import DigitalSession
from engine.errors import EventError, RuleError
from scoreboard import auth, bodies, stream
from scoreboard import web as table_web
from scoreboard.auth import needs
from scoreboard.bodies import Body, Field

STATIC = Path(__file__).with_name("static")
NEW = Body(
    "a digital game",
    (
        Field("players", (list,), True, "a list of names"),
        Field("humans", (list,), says="a list of the seats people play"),
        Field("bots", (str, list), says="a bot name or a list of them"),
        Field("dealer", (int,), says="a seat number"),
        Field("options", (dict,), says="an object of rule options"),
        Field("ruleset", (str,), says="a ruleset name"),
        Field("seed", (int, type(None)), says="a whole number"),
        Field("pace", (int, float), says="the seconds between bot moves"),
        Field("confirm", (bool,)),
        Field("bots_press", (bool,), says="true (bots press Tinker Bell for their cards) or false"),
    ),
)
END = Body("ending the game", (Field("confirm", (bool,), says="true: end it unfinished"),))
ACT = Body(
    "a move",
    (
        Field("seat", (int,), says="one of your seats"),
        Field("action", (int,), says="a whole number from the moves offered"),
        Field("event", (dict,), says="a game-record event object"),
        Field("uno", (bool,), says="true or false (UNO Elite: play the card saying UNO!)"),
    ),
)


# ---------------------------------------------------------------------- reading
async def page(request: Request) -> Response:
    response = table_web.page(request, STATIC / "play.html")
    key = request.query_params.get("key")
    session: DigitalSession = request.state.digital
    seat = session.seat_of(key) if key else None
    if key and seat is not None:
        response.set_cookie(f"{auth.SEAT_COOKIE}{seat}", key, **auth.cookie_options())
    return response


def _seat(request: Request, asked: Any = None) -> int | None:
    """The seat this request plays: the one asked for (?seat= or the body's), if its key came
    with the request; else the only seat it holds; else None (a spectator)."""
    seats: frozenset[int] = request.user.seats
    if asked is None:
        raw = request.query_params.get("seat", "")
        if raw:
            asked = int(raw) if raw.isdigit() and len(raw) < 6 else raw[:12]
    if asked is not None:
        if asked not in seats:
            raise SeatError(f"seat {asked!r} is not yours: open the link made for it")
        return asked
    return next(iter(seats)) if len(seats) == 1 else None


def _view_json(request: Request, seat: int | None) -> tuple[int, str]:
    view = request.state.digital.view_for(seat)
    view["emulator"] = request.state.press is not None
    view["host"] = request.user.host
    return view["version"], json.dumps(view, separators=(",", ":"))


async def rulesets(request: Request) -> Response:
    """The rules a new game may be played by (`digital.games.choices`): anybody may read them."""
    session: DigitalSession = request.state.digital
    return JSONResponse({"rulesets": games.choices(session.inputs)})


async def view(request: Request) -> Response:
    _, text = _view_json(request, _seat(request))
    return Response(text, media_type="application/json", headers={"Cache-Control": "no-store"})


async def events(request: Request) -> Response:
    seat = _seat(request)  # refuse a seat that is not yours before the stream starts
    session: DigitalSession = request.state.digital
    held = session.keys.get(seat) if seat is not None else None

    def snapshot() -> tuple[int, str]:
        # A new game since the stream opened gives the seat a new key: the key this stream was
        # opened with no longer holds it, so it gets what anybody sees (`seat` null, which the
        # page reads as its link being for the last game), never the new game's hand.
        same = seat is not None and session.keys.get(seat) == held
        return _view_json(request, seat if same else None)

    return stream.respond(request, snapshot, "digital")


@needs("host")
async def record(request: Request) -> Response:
    """The host exports the record; while the game is in play only with ?reveal=yes."""
    session: DigitalSession = request.state.digital
    if not session.over and request.query_params.get("reveal") != "yes":
        raise HTTPException(
            409,
            "the record shows every hand, the bots' too: export it "
            "when the game is over, or add ?reveal=yes to show it now",
        )
    text = session.record()
    return Response(
        text,
        media_type="application/x-ndjson",
        headers={
            "Content-Disposition": 'attachment; filename="tinker-digital-game.jsonl"',
            "Cache-Control": "no-store",
        },
    )


@needs("host")
async def links(request: Request) -> Response:
    session: DigitalSession = request.state.digital
    return JSONResponse(
        {"links": {str(s): _link(k) for s, k in session.keys.items()}},
        headers={"Cache-Control": "no-store"},
    )


@needs("host")
async def qr(request: Request) -> Response:
    key = request.state.digital.keys.get(request.path_params["seat"])
    if key is None:
        raise HTTPException(404, "no person plays that seat in this game")
    return table_web.qr_response(request, _link(key))


# ---------------------------------------------------------------------- writing
@needs("host")
async def new_game(request: Request) -> Response:
    data = await bodies.read(request, NEW)
    session: DigitalSession = request.state.digital
    args = {k: v for k, v in data.items() if k != "confirm"}
    keys = await run_in_threadpool(
        lambda: session.new_game(**args, confirm=data.get("confirm") is True)
    )
    return JSONResponse(
        {
            "keys": {str(s): k for s, k in keys.items()},
            "links": {str(s): _link(k) for s, k in keys.items()},
            "version": session.version,
        }
    )


@needs("seat")
async def act(request: Request) -> Response:
    data = await bodies.read(request, ACT)
    if ("action" in data) == ("event" in data):
        raise bodies.BadRequest("send either an action (a number) or an event")
    seat = _seat(request, data.get("seat"))
    if seat is None:
        raise bodies.BadRequest("you hold several seats' links: say which seat plays")
    session: DigitalSession = request.state.digital
    await run_in_threadpool(
        session.act_as, seat, data.get("action"), data.get("event"), data.get("uno", False)
    )
    return JSONResponse({"version": session.version})


@needs("host")
async def end_game(request: Request) -> Response:
    """The host ends the game in play, so that a restore (or a delete) is no longer refused
    for it; confirmed, since it cannot be carried on."""
    data = await bodies.read(request, END)
    session: DigitalSession = request.state.digital
    await run_in_threadpool(session.end_game, data.get("confirm") is True)
    return JSONResponse({"version": session.version})


def _link(key: str) -> str:
    return f"/play?key={key}"


class DigitalPlay:
    """The extension `scoreboard.web.create_app` takes: routes, errors, and the session.
    `inputs`: by ruleset, the files it needs, parsed (the command line reads them: UNO Elite's
    cards), so the page can start a game of every ruleset."""

    def __init__(self, inputs: Mapping[str, Mapping[str, Any]] | None = None) -> None:
        self.inputs = {} if inputs is None else inputs  # (as given: read when asked for)

    def start(self, parts: table_web.Parts) -> DigitalSession:
        return DigitalSession(
            parts.bus,
            table=parts.table,
            on_change=parts.clients.wake,
            inputs=self.inputs,
            press=parts.tray_press,
            bots_press=parts.tray_press is not None,  # nothing to press with: the people do
        )

    name = "digital"  # `request.state.digital` (and `app.state.digital`) is the session
    routes: ClassVar[list[BaseRoute]] = [
        Route("/play", page),
        Route("/api/digital/rulesets", rulesets),
        Route("/api/digital/view", view),
        Route("/api/digital/events", events),
        Route("/api/digital/new", new_game, methods=["POST"]),
        Route("/api/digital/act", act, methods=["POST"]),
        Route("/api/digital/end", end_game, methods=["POST"]),
        Route("/api/digital/links", links),
        Route("/api/digital/qr/{seat:int}.svg", qr),
        Route("/api/digital/record", record),
        Mount("/play/static", StaticFiles(directory=STATIC), name="play-static"),
    ]
    exception_handlers: ClassVar[dict[type[Exception], int]] = {
        SeatError: 403,
        NoGameError: 409,
        NotSavedError: 503,  # not taken: the game is at its last saved move
        SetupError: 422,  # a new game as asked cannot start: which part, in a sentence
        MoveError: 422,
        RuleError: 422,  # the engine's message: the state is unchanged
        EventError: 422,  # a game-record event the engine cannot read (every ruleset's)
    }
