"""Issue 52: every write counts once. A repeat of a request (its `Idempotency-Key`, from the
same caller, to the same place, with the same body) is answered as the first was, and never
written again; a key reused for another body is refused; another caller's key replays nothing;
whatever the header holds, never a 500."""

from __future__ import annotations

import asyncio
import socket

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from cli.app import create_app as table_app
from scoreboard import once
from scoreboard.journal import Journal
from scoreboard.server import ServerThread, bind
from tests.helpers.web import TOKEN
from tray.bus import Bus

HAND = {"kind": "hand", "winner": 1, "held": [27, None, 0]}
KEY = {"Idempotency-Key": "0f3c9a2e7b5d41c8a6e2f9b7c3d1e5a4"}


def hands(journal, game=1):
    return [x.entry for x in journal.entries(game) if x.entry["kind"] == "hand"]


@pytest.fixture
def game(writer):
    writer.post("/api/new-game", json={"players": ["Ann", "Bea", "Cy"]})
    return writer


# ---------------------------------------------------------------- the table's app
def test_the_same_key_sent_again_writes_once_and_answers_the_same(game, journal):
    first = game.post("/api/entry", json=HAND, headers=KEY)
    again = game.post("/api/entry", json=HAND, headers=KEY)
    assert first.status_code == again.status_code == 200
    assert first.content == again.content
    assert again.headers["idempotent-replayed"] == "true"
    assert hands(journal) == [HAND]  # Ann's 27 stays 27
    other = game.post("/api/entry", json=HAND, headers={"Idempotency-Key": "another-action"})
    assert other.status_code == 200 and hands(journal) == [HAND, HAND]  # a new action: counted


def test_an_undo_sent_twice_takes_back_one_hand(game, journal):
    game.post("/api/entry", json=HAND)
    game.post("/api/entry", json={**HAND, "held": [3, None, 0]})
    for _ in range(2):
        assert game.post("/api/entry", json={"kind": "undo"}, headers=KEY).status_code == 200
    assert [p["total"] for p in game.get("/api/view").json()["players"]] == [0, 27, 0]


def test_a_refusal_is_answered_again_as_it_was(game, journal):
    bad = {"kind": "hand", "winner": 1, "held": [99999, None, 0]}
    first = game.post("/api/entry", json=bad, headers=KEY)
    again = game.post("/api/entry", json=bad, headers=KEY)
    assert first.status_code == again.status_code == 422
    assert first.json() == again.json() and hands(journal) == []


def test_a_key_reused_with_another_body_is_refused_with_a_sentence(game, journal):
    game.post("/api/entry", json=HAND, headers=KEY)
    res = game.post("/api/entry", json={**HAND, "winner": 0, "held": [None, 5, 0]}, headers=KEY)
    assert res.status_code == 422
    assert res.json()["error"] == once.OTHER_BODY
    assert hands(journal) == [HAND]


def test_another_callers_key_replays_nothing(game, client, journal):
    first = game.post("/api/entry", json=HAND, headers=KEY)
    stranger = httpx.Headers({**KEY, "X-Table-Token": ""})
    res = client.post("/api/entry", json=HAND, headers=stranger)
    assert res.status_code == 403 and res.content != first.content  # asked anew: refused
    assert "idempotent-replayed" not in res.headers
    assert hands(journal) == [HAND]


def test_a_key_is_one_caller_s_on_one_path(game, journal):
    game.post("/api/entry", json=HAND, headers=KEY)
    res = game.post("/api/press", json={}, headers=KEY)  # the same key elsewhere: its own
    assert res.status_code == 200 and res.json() == {"pressed": True}


@pytest.mark.parametrize(
    "value",
    ["", " ", "a b", "x" * (once.MAX_KEY + 1), "caf\u00e9"],
)
def test_a_key_no_page_makes_is_refused_with_a_sentence(game, journal, value):
    res = game.post("/api/entry", json=HAND, headers=[("Idempotency-Key", value.encode("latin-1"))])
    assert res.status_code == 400 and res.json()["error"] == once.BAD_KEY
    assert hands(journal) == []


def test_two_keys_on_one_request_are_refused(game, journal):
    headers = [("Idempotency-Key", b"a"), ("Idempotency-Key", b"b")]
    assert game.post("/api/entry", json=HAND, headers=headers).status_code == 400
    assert hands(journal) == []


def test_a_request_without_a_key_runs_as_before(game, journal):
    game.post("/api/entry", json=HAND)
    game.post("/api/entry", json=HAND)
    assert hands(journal) == [HAND, HAND]


@settings(max_examples=150, deadline=None)
@given(value=st.binary(min_size=0, max_size=300))
def test_whatever_the_header_holds_never_a_500(tmp_path_factory, value):
    journal = Journal(tmp_path_factory.mktemp("once") / "journal.sqlite3")
    try:
        with TestClient(table_app(journal, Bus(), TOKEN)) as client:
            client.headers["X-Table-Token"] = TOKEN
            client.post("/api/new-game", json={"players": ["Ann", "Bea", "Cy"]})
            for _ in range(2):
                res = client.post("/api/entry", json=HAND, headers=[("Idempotency-Key", value)])
                assert res.status_code in (200, 400), res.text
                assert "error" not in res.json() or res.json()["error"] == once.BAD_KEY
            assert len(hands(journal)) in (0, 1)
    finally:
        journal.close()


def test_digital_play_s_writes_count_once_too(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite3")
    body = {"players": ["Ann", "Bot1"], "humans": [0], "bots": "greedy", "seed": 5, "pace": 0}
    try:
        with TestClient(table_app(journal, Bus(), TOKEN)) as client:
            client.headers["X-Table-Token"] = TOKEN
            first = client.post("/api/digital/new", json=body, headers=KEY)
            again = client.post("/api/digital/new", json=body, headers=KEY)
            assert first.status_code == 200 and again.json() == first.json()  # the same seat keys
            assert again.headers["idempotent-replayed"] == "true"
            assert len([g for g in journal.games() if g.digital]) == 1
    finally:
        journal.close()


# ---------------------------------------------------------------- a dropped connection
def test_a_retry_after_a_dropped_answer_writes_once(tmp_path):
    """The first try's connection closes before its answer (a phone leaving the Wi-Fi); the
    page sends it again with the same key: one hand, and the retry gets a whole answer."""
    journal = Journal(tmp_path / "journal.sqlite3")
    server = ServerThread(table_app(journal, Bus(), TOKEN), bind("127.0.0.1", 0)).start()
    url = f"http://127.0.0.1:{server.port}"
    try:
        headers = {"X-Table-Token": TOKEN, **KEY}
        httpx.post(url + "/api/new-game", json={"players": ["Ann", "Bea", "Cy"]}, headers=headers)
        body = httpx.Request("POST", url + "/api/entry", json=HAND, headers=headers)
        raw = (
            f"POST /api/entry HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            + "".join(f"{k}: {v}\r\n" for k, v in body.headers.items() if k.lower() != "host")
            + "\r\n"
        ).encode() + body.read()
        with socket.create_connection(("127.0.0.1", server.port)) as conn:
            conn.sendall(raw)
            conn.shutdown(socket.SHUT_WR)  # gone before the answer
        retry = httpx.post(url + "/api/entry", json=HAND, headers=headers, timeout=30)
        assert retry.status_code == 200 and "version" in retry.json()
        again = httpx.post(url + "/api/entry", json=HAND, headers=headers, timeout=30)
        assert again.json() == retry.json()
        assert hands(journal) == [HAND]
    finally:
        server.stop()
        journal.close()


# ---------------------------------------------------------------- the middleware alone
class Counting:
    """A small app behind `Once`: counts its writes; `/slow` waits until it is let go."""

    def __init__(self, **options):
        self.calls = 0
        self.go = asyncio.Event()
        self.status = 200

        async def write(request: Request) -> JSONResponse:
            await request.body()
            self.calls += 1
            if request.url.path == "/slow":
                await self.go.wait()
            return JSONResponse({"call": self.calls}, status_code=self.status)

        app = Starlette(
            routes=[
                Route("/write", write, methods=["POST"]),
                Route("/slow", write, methods=["POST"]),
            ]
        )
        self.app = once.Once(app, **options)


def call(app, path="/write", key="k", body=b"{}", headers=()):
    transport = httpx.ASGITransport(app=app)

    async def run():
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            return await c.post(path, content=body, headers=[("Idempotency-Key", key), *headers])

    return asyncio.run(run())


def test_two_identical_requests_at_once_the_second_waits_for_the_first():
    counting = Counting()

    async def run():
        transport = httpx.ASGITransport(app=counting.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            first = asyncio.ensure_future(
                c.post("/slow", content=b"{}", headers={"Idempotency-Key": "same"})
            )
            second = asyncio.ensure_future(
                c.post("/slow", content=b"{}", headers={"Idempotency-Key": "same"})
            )
            while counting.calls == 0:
                await asyncio.sleep(0)
            for _ in range(50):  # the second is let run as far as it goes: it waits
                await asyncio.sleep(0)
            assert counting.calls == 1 and not second.done()
            counting.go.set()
            return await first, await second

    first, second = asyncio.run(run())
    assert counting.calls == 1
    assert first.json() == second.json() == {"call": 1}
    assert second.headers["idempotent-replayed"] == "true"


def test_an_answer_of_500_or_more_is_not_kept():
    counting = Counting()
    counting.status = 503  # nothing was written: the page may try again
    assert call(counting.app).status_code == 503
    counting.status = 200
    assert call(counting.app).json() == {"call": 2}
    assert call(counting.app).json() == {"call": 2}


def test_the_answers_kept_are_bounded_in_number_and_time():
    now = [0.0]
    counting = Counting(kept=2, keep_s=600, clock=lambda: now[0])
    for key in ("a", "b", "c"):
        call(counting.app, key=key)
    assert len(counting.app.answers) == 2
    assert call(counting.app, key="a").json() == {"call": 4}  # forgotten: run again
    assert call(counting.app, key="c").json() == {"call": 3}  # kept: answered again
    now[0] = 601.0
    assert call(counting.app, key="c").json() == {"call": 5}  # too old: run again
    assert len(counting.app.answers) <= 2


def test_an_anonymous_caller_is_told_apart_by_address():
    one = {"type": "http", "headers": [], "client": ("10.0.0.2", 5000)}
    two = {"type": "http", "headers": [], "client": ("10.0.0.3", 5000)}
    host = {"type": "http", "headers": [(b"x-table-token", b"t")], "client": ("10.0.0.2", 1)}
    cookie = {"type": "http", "headers": [(b"cookie", b"tinker-token=t; other=1")]}
    assert len({once.caller(one), once.caller(two), once.caller(host)}) == 3
    assert once.caller(cookie) != once.caller(one)
    assert once.caller({"type": "http", "headers": [(b"cookie", b"\xff;;=")]})  # no 500
