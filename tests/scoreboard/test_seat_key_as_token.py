"""Issue 48.7: a seat key sent as the table's token (typed on the entry page, pasted into the
token's place) is not a replaced table key, and the phone is told so and what to do instead;
a token that is no key at all still hears that it was replaced or mistyped."""

from __future__ import annotations

from scoreboard import auth
from tests.helpers.web import TOKEN

DIGITAL = {"players": ["Ann", "Bo", "Cy"], "humans": [0, 1], "pace": 0}


def test_a_seat_key_sent_as_the_table_token_is_told_it_is_a_seat_key(writer):
    keys = writer.post("/api/digital/new", json=DIGITAL).json()["keys"]
    writer.headers["X-Table-Token"] = keys["0"]
    res = writer.post("/api/new-game", json={"players": ["Ann", "Bo"]})
    assert res.status_code == 403, res.text
    assert res.json()["error"] == auth.SEAT_KEY
    assert res.json()["error"].startswith("a seat key is not the table's key")
    assert "replaced" not in res.json()["error"]
    assert writer.get("/api/games/1.csv").json()["error"] == auth.SEAT_KEY
    who = writer.get("/api/whoami").json()
    assert who["host"] is False and who["replaced"] is False  # nothing was replaced
    writer.headers["X-Table-Token"] = TOKEN
    assert writer.get("/api/games").status_code == 200


def test_a_token_that_is_no_key_still_hears_it_was_replaced_or_mistyped(writer):
    writer.post("/api/digital/new", json=DIGITAL)
    writer.headers["X-Table-Token"] = "not-a-key"
    res = writer.post("/api/new-game", json={"players": ["Ann", "Bo"]})
    assert res.status_code == 401 and res.json()["error"] == auth.REPLACED
    assert writer.get("/api/whoami").json()["replaced"] is True
