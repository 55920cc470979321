"""/api/digital under generated requests close to real ones (issue 20, point 6): new games with
every field varied, moves and record events as a seat sends them, for every ruleset. A bad
request is a 4xx with a sentence (digital play's own errors, the engine's refusals); never a 5xx.
And the other way round: a bug is a 500, never dressed up as a client's mistake."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from cli.app import create_app
from digital.session import DigitalSession
from scoreboard.journal import Journal
from tests.helpers.web import TOKEN
from tray.bus import Bus

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "300"))
HOST = {"X-Table-Token": TOKEN}

junk = (
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
names = st.lists(st.sampled_from(["Ann", "Bo", "Cy", "Dee", "", " ", "x" * 30]) | junk, max_size=11)
bots = (
    st.sampled_from(
        [
            "greedy",
            "random",
            "search:5",
            "search:0",
            "search:9s",
            "search:10ms",
            "search:x",
            "greedy:5",
        ]
    )
    | st.lists(st.sampled_from(["greedy", "random", "smart"]), max_size=3)
    | junk
)
options = (
    st.fixed_dictionaries(
        {},
        optional={
            "target": st.integers(-5, 2000) | junk,
            "mode": st.sampled_from(["quick", "draft", "dynasty", "blitz"]) | junk,
            "decks": st.lists(st.lists(st.text(max_size=4), max_size=2), max_size=3) | junk,
            "partners": st.booleans() | junk,
            "stack": st.booleans() | junk,
        },
    )
    | junk
)
new_bodies = st.fixed_dictionaries(
    {"players": names, "confirm": st.just(True)},
    optional={
        "humans": st.lists(st.integers(-2, 12) | junk, max_size=4) | junk,
        "bots": bots,
        "dealer": st.integers(-2, 12) | junk,
        "options": options,
        "ruleset": st.sampled_from(["disney", "classic", "official-2018", "elvis", "elite", "x"])
        | junk,
        "seed": st.integers(-(2**70), 2**70) | junk,
        "pace": st.sampled_from([0, 0.3, -1, 6, 1e308]) | junk,
    },
)
events = st.fixed_dictionaries(
    {},
    optional={
        "act": st.sampled_from(["play", "draw", "pass", "discard", "catch", "draft", "uno"]) | junk,
        "card": st.sampled_from(["R7", "W", "VD4", "g2", "wr", "Q9"]) | junk,
        "cards": st.lists(st.sampled_from(["R3", "R2", "g2"]) | junk, max_size=3) | junk,
        "colour": st.sampled_from(["red", "blue", "mauve"]) | junk,
        "target": st.integers(-1, 12) | junk,
        "elite": st.text(max_size=10) | junk,
        "seat": st.integers(-1, 3) | junk,
        "chance": junk,
        "uno": junk,
    },
)
actions = st.integers(-5, 12_000)
act_bodies = st.fixed_dictionaries(
    {},
    optional={
        "action": actions | st.none() | st.booleans() | st.floats(-9, 9) | st.text(max_size=8),
        "event": events | junk,
        "uno": st.booleans() | junk,
        "seat": st.integers(-1, 3) | junk,
    },
)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    journal = Journal(tmp_path_factory.mktemp("digital-fuzz") / "journal.sqlite3")
    with TestClient(create_app(journal, Bus(), TOKEN), raise_server_exceptions=False) as c:
        yield c
    journal.close()


def refused_in_a_sentence(res) -> None:
    assert res.status_code < 500, res.text[:300]
    if res.status_code >= 400:
        error = res.json()["error"]
        assert isinstance(error, str) and len(error) > 5 and "Traceback" not in error


def start(client, ruleset):
    body = {"players": ["Ann", "Bo", "Cy"], "humans": [0], "pace": 0, "seed": 3}
    body.update(ruleset=ruleset, confirm=True)
    res = client.post("/api/digital/new", json=body, headers=HOST)
    assert res.status_code == 200, res.text
    return {"Cookie": f"tinker-seat-0={res.json()['keys']['0']}"}


FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(body=new_bodies)
def test_a_new_game_as_asked_starts_or_is_refused_in_a_sentence(client, body):
    refused_in_a_sentence(client.post("/api/digital/new", json=body, headers=HOST))
    refused_in_a_sentence(client.get("/api/digital/view"))


@pytest.mark.parametrize("ruleset", ["disney", "elite"])
def test_a_seats_moves_are_taken_or_refused_in_a_sentence(client, ruleset):
    seat = start(client, ruleset)

    @FUZZ
    @given(body=act_bodies, offered=st.integers(0, 50))
    def fuzz(body, offered):
        view = client.get("/api/digital/view", headers=seat).json()
        moves = [m["action"] for m in view.get("legal", [])]
        if moves and offered < 10:  # now and then a move on offer, so the game goes on
            body = {**body, "action": moves[offered % len(moves)]}
            body.pop("event", None)
        refused_in_a_sentence(client.post("/api/digital/act", json=body, headers=seat))
        refused_in_a_sentence(client.get("/api/digital/view", headers=seat))

    fuzz()


def test_an_action_naming_no_card_is_refused_in_a_sentence(client):
    seat = start(client, "disney")
    for action in (560, 999, 1140, 1999):  # a play or a protection with a card the deck lacks
        answer = client.post("/api/digital/act", json={"action": action}, headers=seat)
        refused_in_a_sentence(answer)


def test_a_bug_reads_as_a_500_not_as_a_bad_request(client, mocker):
    seat = start(client, "disney")
    mocker.patch.object(DigitalSession, "act_as", side_effect=KeyError("a bug"))
    assert client.post("/api/digital/act", json={"action": 1}, headers=seat).status_code == 500
    mocker.patch.object(DigitalSession, "new_game", side_effect=TypeError("a bug"))
    body = {"players": ["Ann", "Bo"], "confirm": True}
    assert client.post("/api/digital/new", json=body, headers=HOST).status_code == 500
