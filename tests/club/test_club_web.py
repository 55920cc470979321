"""The club's board, journal and page, without a broker: fed messages as the broker gives them."""

from __future__ import annotations

import json

from starlette.testclient import TestClient

from club.board import Board
from club.journal import ClubJournal
from club.web import create_app
from scoreboard.web import STATIC as SCOREBOARD_STATIC


def feed(board: Board, table: str, leaf: str, payload) -> bool:
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return board.apply(table, leaf, data)


SCORES = {
    "game": 1,
    "players": [
        {"name": "Ann", "total": 40, "out": False, "leads": True},
        {"name": "Bo", "total": 0, "out": False, "leads": False},
    ],
    "totals": {"Ann": 40, "Bo": 0},
    "leader": "Ann",
    "hands": 1,
    "target": 500,
    "scoring": "standard",
    "over": False,
}


def test_the_same_message_twice_changes_nothing():
    board = Board()
    pick = {"seq": 1, "colour": "red", "says": "red!", "declared": None, "game": 1, "t": 5.0}
    assert feed(board, "a", "pick", pick) and not feed(board, "a", "pick", pick)
    assert feed(board, "a", "scores", SCORES) and not feed(board, "a", "scores", SCORES)
    assert feed(board, "a", "availability", b"online")
    assert not feed(board, "a", "availability", b"online")
    assert not feed(board, "a", "unknown-leaf", b"x") and not feed(board, "a", "pick", b"{bad")
    winner = {"game": 1, "names": ["Ann"], "text": "Ann wins!", "totals": {"Ann": 500}}
    assert feed(board, "a", "winner", winner) and not feed(board, "a", "winner", winner)
    snap = board.snapshot()
    assert [t["name"] for t in snap["tables"]] == ["a"]
    assert snap["finished"][0]["table"] == "a" and snap["tables"][0]["leader"] == "Ann"


def test_a_replayed_journal_rebuilds_the_same_board(tmp_path):
    board, journal = Board(), ClubJournal(tmp_path / "club.sqlite3")
    for table, leaf, payload in [
        ("a", "scores", SCORES),
        ("b", "availability", b"online"),
        ("a", "pick", {"seq": 2, "colour": "blue", "t": 1}),
    ]:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        if board.apply(table, leaf, data):
            journal.append(table, leaf, data)
    journal.close()
    again = Board()
    ClubJournal(tmp_path / "club.sqlite3").replay(again)
    assert again.snapshot()["tables"] == board.snapshot()["tables"]


def test_the_page_serves_the_scoreboards_own_style_and_script():
    board = Board()
    feed(board, "kitchen", "scores", SCORES)
    with TestClient(create_app(board)) as client:
        for name in ("style.css", "common.js"):
            res = client.get(f"/static/{name}")
            assert res.status_code == 200
            assert res.content == (SCOREBOARD_STATIC / name).read_bytes()
        assert client.get("/static/entry.js").status_code == 404  # only the shared two
        assert "every table" in client.get("/table/kitchen").text
        assert client.get("/").status_code == 200
        assert client.get("/club-static/club.js").status_code == 200
        assert client.get("/api/club").json()["tables"][0]["scores"]["totals"]["Ann"] == 40
        assert client.get("/api/tables/kitchen").json()["leader"] == "Ann"
        missing = client.get("/api/tables/nowhere")
        assert missing.status_code == 404 and "nowhere" in missing.json()["error"]


def test_nothing_the_club_shows_carries_a_hand():
    """The spectator view shows scores and picks: what the tables publish holds no cards."""
    from club import topics

    view = {
        "game": 1,
        "players": [{"name": "Ann", "total": 3, "out": False, "leads": True, "hand": ["R7"]}],
        "hands": [{"held": [["R7"]]}],
        "rules": {"target": 500, "scoring": "standard"},
        "winner": None,
        "pick": {"seq": 1, "pending": False, "colour": "red", "says": "x", "declared": None},
    }
    for payload in (topics.scores_payload(view), topics.pick_payload(view, 0.0)):
        text = json.dumps(payload)
        assert "R7" not in text and "held" not in text
