"""The web display over HTTP: reading is open, writing needs the token, errors are 4xx."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from scoreboard.session import TableChanged
from scoreboard.web import STATIC, create_app
from tests.helpers.web import TOKEN
from tray.bus import Bus
from tray.events import Pick

GAME = {"players": ["Ann", "Bea", "Cy"], "dealer": 1}


def test_pages_and_assets_are_served_locally(client):
    for path in ("/", "/enter", "/tray"):
        res = client.get(path)
        assert res.status_code == 200 and "<html" in res.text
    for asset in STATIC.iterdir():
        text = asset.read_text()
        assert not re.search(r"(src|href)=\"https?://", text), f"{asset.name} loads from the net"
        assert client.get(f"/static/{asset.name}").status_code == 200


def test_writing_needs_the_token(client, presses):
    for path, body in [
        ("/api/entry", {"kind": "undo"}),
        ("/api/new-game", GAME),
        ("/api/press", {}),
        ("/api/games/1/delete", {"confirm": "x"}),
    ]:
        res = client.post(path, json=body)
        assert res.status_code == 403, path
        assert "token" in res.json()["error"]
        res = client.post(path, json=body, headers={"X-Table-Token": "wrong"})
        assert res.status_code == 401  # a token, but not the table's (mistyped, or replaced)
        assert "not the table's" in res.json()["error"]
    assert client.get("/api/qr.svg").status_code == 403
    assert presses == []


def test_an_entry_changes_the_view_and_is_journaled(writer, journal):
    assert writer.post("/api/new-game", json=GAME).json()["game"] == 1
    res = writer.post(
        "/api/entry", json={"kind": "hand", "winner": 0, "held": [None, ["R7", "W"], 10]}
    )
    assert res.status_code == 200
    view = writer.get("/api/view").json()
    assert [p["total"] for p in view["players"]] == [67, 0, 0]
    assert view["dealer"] == 2 and view["version"] == res.json()["version"]
    assert [x.entry["kind"] for x in journal.entries(1)] == ["start", "hand"]


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        (b"{not json", 400, "not valid JSON"),
        (b"[1, 2]", 400, "must be a JSON object"),
        (b'{"kind": "pick", "seq": 1, "colour": "red"}', 422, "kind must be one of"),
        (b'{"kind": "start", "players": ["A", "B"]}', 422, "kind must be one of"),
        (b'{"kind": "hand", "winner": "Ann", "held": []}', 422, "winner must be a seat"),
        (b'{"kind": "hand", "winner": 0, "held": [null, ["XX"], 1]}', 422, "unknown card 'XX'"),
        (b'{"kind": "hand", "winner": 0, "held": {"a": 1}}', 422, "in seat order"),
        (b'{"kind": "declare", "card": 7}', 422, "has no pixie dust"),
        (b'{"kind": "undo"}', 422, "nothing to undo"),
        (b"\xff\xfe", 400, "not valid JSON"),
    ],
)
def test_malformed_entries_get_a_4xx_with_a_message_and_change_nothing(
    writer, body, status, message
):
    writer.post("/api/new-game", json=GAME)
    before = writer.get("/api/view").json()
    res = writer.post("/api/entry", content=body, headers={"Content-Type": "application/json"})
    assert res.status_code == status
    assert message in res.json()["error"]
    assert writer.get("/api/view").json() == before


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"players": ["Solo"]}, "2 to 10 players"),
        ({"players": "Ann, Bea"}, "list of names"),
        ({"dealer": 0}, "needs players"),
        ({"players": ["A", "B"], "colour": "red"}, "no field 'colour'"),
        ({"players": ["A", "B"], "options": {"partners": True}}, "partners need exactly four"),
        ({"players": ["A", "B"], "name": 5}, "name must be text"),
        ({"players": ["A", "B"], "name": "x" * 60_000}, "name is at most 60 characters"),
        (
            {
                "players": ["A", "B"],
                "options": {},
                "dealer": 0,
                "confirm": True,
                "name": "ok",
                "extra": "y" * 500,
            },
            "no field 'extra'",
        ),
        ({"players": ["A", "B"], "options": [1]}, "options must be an object"),
        ({"players": ["A", "B"], "dealer": "A"}, "dealer must be a seat"),
    ],
)
def test_bad_new_games_are_refused(writer, body, message):
    res = writer.post("/api/new-game", json=body)
    assert res.status_code == 422 and message in res.json()["error"]


def test_a_new_game_over_an_unfinished_one_needs_confirmation(writer):
    writer.post("/api/new-game", json=GAME)
    writer.post("/api/entry", json={"kind": "hand", "winner": 0, "held": [None, 5, 5]})
    res = writer.post("/api/new-game", json={"players": ["X", "Y"]})
    assert res.status_code == 409 and res.json()["confirm"] is True
    assert writer.get("/api/view").json()["players"][0]["name"] == "Ann"
    res = writer.post("/api/new-game", json={"players": ["X", "Y"], "confirm": True})
    assert res.status_code == 200
    games = writer.get("/api/games").json()
    assert games["current"] == 2 and [g["id"] for g in games["games"]] == [2, 1]


def test_games_are_exported_and_deleted_only_with_confirmation(writer):
    writer.post("/api/new-game", json=GAME)
    writer.post("/api/entry", json={"kind": "hand", "winner": 0, "held": [None, 5, 5]})
    writer.post("/api/new-game", json={"players": ["X", "Y"], "confirm": True})
    csv = writer.get("/api/games/1.csv")
    assert csv.status_code == 200 and csv.text.splitlines()[1].startswith("1,Bea,Ann,10")
    assert writer.get("/api/games/1.json").json()["totals"] == [10, 0, 0]
    assert writer.get("/api/games/9.json").status_code == 404
    assert writer.get("/api/games/1.xml").status_code == 404
    assert writer.post("/api/games/2/delete", json={"confirm": "delete game 2"}).status_code == 409
    res = writer.post("/api/games/1/delete", json={"confirm": "yes"})
    assert res.status_code == 409 and "delete game 1" in res.json()["error"]
    assert writer.post("/api/games/1/delete", json={"confirm": "delete game 1"}).status_code == 200
    assert [g["id"] for g in writer.get("/api/games").json()["games"]] == [2]


def test_a_pick_on_the_bus_is_journaled_and_explained(writer, bus, journal):
    writer.post("/api/new-game", json=GAME)
    writer.post("/api/entry", json={"kind": "declare", "card": "GD2", "seat": 2})
    bus.publish(Pick(seq=4, colour="green", t=1.0))
    pick = writer.get("/api/view").json()["pick"]
    assert pick["seq"] == 4 and pick["colour"] == "green"
    assert pick["says"].startswith("Tinker Bell chose green: it matches Cy's green Draw 2.")
    assert journal.entries(1)[-1].entry["kind"] == "pick"


def test_a_pick_before_any_game_is_shown_and_kept(tmp_path):
    from scoreboard.journal import Journal

    path = tmp_path / "j.sqlite3"
    journal, bus = Journal(path), Bus()
    with TestClient(create_app(journal, bus, TOKEN)) as c:
        bus.publish(Pick(seq=1, colour="yellow", t=0.0))
        assert c.get("/api/view").json()["pick"]["meanings"][0][0] == "Yellow Draw 2"
    journal.close()
    journal = Journal(path)
    with TestClient(create_app(journal, Bus(), TOKEN)) as c:
        assert c.get("/api/view").json()["pick"]["colour"] == "yellow"
    journal.close()


def test_entries_are_announced_on_the_bus(writer, bus):
    seen = []
    bus.subscribe(seen.append, TableChanged)
    writer.post("/api/new-game", json=GAME)
    writer.post("/api/entry", json={"kind": "hand", "winner": 0, "held": [None, 5, 5]})
    assert [(e.kind, e.game) for e in seen] == [("start", 1), ("hand", 1)]


def test_the_virtual_button_presses_with_the_token(writer, presses):
    assert writer.post("/api/press", json={}).status_code == 200
    assert presses == [1]


def test_without_a_virtual_tray_there_is_no_tray_page_or_press(journal):
    with TestClient(create_app(journal, Bus(), TOKEN)) as c:
        assert c.get("/tray").status_code == 404
        res = c.post("/api/press", headers={"X-Table-Token": TOKEN})
        assert res.status_code == 404 and "real tray" in res.json()["error"]
        assert c.get("/api/cards").json()["emulator"] is False


def test_the_qr_code_points_phones_at_the_entry_page_with_the_token(client):
    assert client.get(f"/api/qr.svg?token={TOKEN}").status_code == 403  # no token in API URLs
    res = client.get("/api/qr.svg", headers={"X-Table-Token": TOKEN})
    assert res.status_code == 200 and res.headers["content-type"].startswith("image/svg+xml")
    assert res.text.startswith("<svg")
    import segno  # encodes but cannot decode: check the symbol's size for that URL instead

    expected = segno.make(f"http://table.local:8000/enter?token={TOKEN}", error="m")
    assert f'viewBox="0 0 {expected.symbol_size(scale=1, border=2)[0]}' in res.text


def test_the_card_keyboard_has_every_disney_card_with_its_points(client):
    keys = {k["code"]: k for k in client.get("/api/cards").json()["keys"]}
    assert len(keys) == 4 * 13 + 3
    assert (keys["R7"]["points"], keys["GD2"]["points"], keys["VD4"]["points"]) == (7, 20, 75)
    assert keys["W"]["copies"] == 4 and keys["B0"]["copies"] == 1
    assert "W4" not in keys


def test_every_text_field_of_every_body_has_a_limit(writer):
    from scoreboard import bodies

    writer.post("/api/new-game", json={"players": ["Ann", "Bo"]})
    res = writer.post("/api/games/1/delete", json={"confirm": "x" * (bodies.MAX_TEXT + 1)})
    assert res.status_code == 422
    assert f"confirm is at most {bodies.MAX_TEXT} characters" in res.json()["error"]


def test_a_game_in_play_is_not_deleted_and_the_page_is_told_why(writer, journal):
    writer.post("/api/new-game", json={"players": ["Ann", "Bo"]})
    playing = [True]
    journal.hold(1, "digital play (/play)", lambda: playing[0])
    writer.post("/api/new-game", json={"players": ["Cy", "Di"], "confirm": True})  # at the table
    res = writer.post("/api/games/1/delete", json={"confirm": "delete game 1"})
    assert res.status_code == 409 and "is being played in digital play" in res.json()["error"]
    playing[0] = False  # the game is over: it may go
    assert writer.post("/api/games/1/delete", json={"confirm": "delete game 1"}).status_code == 200
