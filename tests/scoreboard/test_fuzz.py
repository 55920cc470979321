"""Every route, driven by generated bodies, ids, query strings and headers, as the host, a seat
and a stranger: never a 5xx, never a traceback; each refusal is a sentence. Twice: with a Disney
digital game in play, and with an UNO Elite one (whose moves and views are the Elite engine's)."""

from __future__ import annotations

import json
import os
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.routing import Mount, Route
from starlette.testclient import TestClient

from cli.app import create_app
from scoreboard.journal import Journal
from scoreboard.update_page import Updates
from tests.helpers.web import TOKEN
from tray.bus import Bus
from tray.events import Pick

pytestmark = pytest.mark.slow

STREAM = "/api/digital/events"  # endless: only its refusals are fuzzed
ENDLESS = {"/api/events"}  # nothing to refuse: tested in test_browser (a real server)
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "1500"))

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(
        [
            "RD2",
            "VD4",
            "W",
            "R7",
            "hand",
            "undo",
            "void",
            "edit",
            "declare",
            "dealer",
            "play",
            "draw",
            "Ann",
            "greedy",
            "disney",
            "elite",
            "quick",
            "draft",
            "dynasty",
        ]
    ),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(
            st.sampled_from(
                [
                    "kind",
                    "winner",
                    "held",
                    "hand",
                    "dealer",
                    "card",
                    "seat",
                    "players",
                    "options",
                    "name",
                    "confirm",
                    "humans",
                    "bots",
                    "seed",
                    "pace",
                    "ruleset",
                    "action",
                    "event",
                    "act",
                    "token",
                    "target",
                    "scoring",
                    "partners",
                    "mode",
                    "uno",
                    "x",
                ]
            )
            | st.text(max_size=6),
            inner,
            max_size=6,
        )
    ),
    max_leaves=20,
)
bodies = st.one_of(
    json_values.map(lambda v: json.dumps(v).encode()),
    st.dictionaries(
        st.sampled_from(
            ["kind", "players", "action", "event", "winner", "held", "token", "confirm"]
        ),
        json_values,
        max_size=4,
    ).map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=64),
    st.integers(min_value=1, max_value=40_000).map(lambda n: b"[" * n + b"]" * n),
    st.integers(min_value=1, max_value=40_000).map(lambda n: b'{"a":' * n + b"1" + b"}" * n),
)
ids = st.one_of(
    st.integers(min_value=0, max_value=5).map(str),
    st.integers(min_value=2**62, max_value=10**30).map(str),
    st.text(alphabet="0123456789-x.%", min_size=1, max_size=30),
)
queries = st.dictionaries(
    st.sampled_from(["seat", "key", "token", "before", "limit", "hands", "reveal", "new"]),
    st.one_of(ids, st.text(max_size=10), st.sampled_from(["all", "yes", TOKEN])),
    max_size=3,
)
clean = st.sampled_from([{"X-Table-Token": TOKEN}, {"X-Seat-Key": "SEAT"}])
headers = clean | st.fixed_dictionaries(
    {},
    optional={
        "X-Table-Token": st.sampled_from([TOKEN, "wrong", ""]),
        "X-Seat-Key": st.sampled_from(["nope", "SEAT"]),
        "Origin": st.sampled_from(["http://testserver", "https://evil.example", "null", "::"]),
        "Content-Type": st.sampled_from(["application/json", "text/plain", "x/y"]),
        "Sec-Fetch-Site": st.sampled_from(["same-origin", "cross-site", "none"]),
        "Cookie": st.sampled_from([f"tinker-token={TOKEN}", "tinker-seat-0=SEAT", "a=b"]),
    },
)


def endpoints(app):
    out = []
    for route in app.routes:
        if isinstance(route, Route):
            for method in sorted(route.methods or {"GET"}):
                if method != "HEAD" and route.path not in ENDLESS:
                    out.append((method, route.path))
        elif isinstance(route, Mount):
            out.append(("GET", route.path + "/{file}"))
    return out


def _served(path, digital):
    """A display app with a scoreboard game and `digital` (a /api/digital/new body) in play."""
    bus = Bus()
    journal = Journal(path)
    unit = path.with_name("tinker-tray-update.path")  # root's: the page's asks are only files
    unit.touch()
    updates = Updates(path.parent, unit=unit, root_status=path.with_name("status.json"))
    app = create_app(journal, bus, TOKEN, press=lambda: bus.publish(Pick(1, "red", 0.0)))
    app.state.updates = updates
    with TestClient(app, raise_server_exceptions=False) as client:
        host = {"X-Table-Token": TOKEN}
        client.post("/api/new-game", json={"players": ["Ann", "Bea", "Cy"]}, headers=host)
        client.post(
            "/api/entry", json={"kind": "hand", "winner": 0, "held": [None, 5, 9]}, headers=host
        )
        res = client.post("/api/digital/new", headers=host, json=digital)
        client.seat_key = res.json()["keys"]["0"]
        client.routes_seen = endpoints(app)
        client.answers = {}
        yield client
    journal.close()


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    yield from _served(
        tmp_path_factory.mktemp("fuzz") / "journal.sqlite3",
        {"players": ["Ann", "Bo", "Cy"], "humans": [0], "pace": 0, "seed": 17, "confirm": True},
    )


@pytest.fixture(scope="module")
def elite_table(tmp_path_factory):
    yield from _served(
        tmp_path_factory.mktemp("fuzz-elite") / "journal.sqlite3",
        {
            "players": ["Ann", "Bo", "Cy"],
            "humans": [0],
            "pace": 0,
            "seed": 17,
            "ruleset": "elite",
            "options": {"mode": "draft"},
        },
    )


PARAMS = {
    "fmt": st.sampled_from(["csv", "json", "jsonl", "xml"]),
    "file": st.sampled_from(["style.css", "play.js", "x", "..%2fweb.py"]),
}


def fill(path: str, draw) -> str:
    return re.sub(r"\{(\w+)(:\w+)?\}", lambda m: draw(PARAMS.get(m.group(1), ids)), path)


FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)


@FUZZ
@given(data=st.data())
def test_no_route_answers_bad_input_with_a_5xx(table, data):
    _one_request(table, data)


@settings(FUZZ, max_examples=max(1, EXAMPLES // 3))
@given(data=st.data())
def test_no_route_answers_bad_input_with_a_5xx_in_an_elite_game(elite_table, data):
    _one_request(elite_table, data)
    view = elite_table.get("/api/digital/view").json()
    if view.get("ruleset") == "elite":  # still the Elite game (a fuzzed new game may replace it)
        assert not view.get("hand") and not view.get("legal")


def _one_request(table, data):
    method, template = data.draw(st.sampled_from(table.routes_seen))
    path = fill(template, data.draw)
    query = data.draw(queries)
    head = {k: v.replace("SEAT", table.seat_key) for k, v in data.draw(headers).items()}
    if template == STREAM:
        query["seat"] = data.draw(st.sampled_from(["9", "x", "-1"]))  # refused before it streams
    body = data.draw(bodies) if method == "POST" else None
    res = table.request(method, path, params=query, headers=head, content=body)
    table.answers[res.status_code] = table.answers.get(res.status_code, 0) + 1
    assert res.status_code < 500, (method, path, query, head, body and body[:80], res.text[:300])
    assert "Traceback" not in res.text
    if res.status_code >= 400 and "json" in res.headers.get("content-type", ""):
        error = res.json()["error"]
        assert isinstance(error, str) and error, res.text


def test_every_route_was_driven(table):
    assert len(table.routes_seen) >= 20
    print("answers:", dict(sorted(table.answers.items())))
