"""A damaged journal never stops the table: each kind of damage a full or failing SD card leaves
(a row that is no longer JSON, bytes SQLite's quick check lets through, a result that cannot be,
a table gone, a file SQLite cannot open at all), and the service starts, the other games work,
and the page and the log say which game and why. Nothing damaged is overwritten."""

from __future__ import annotations

import logging
import sqlite3
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from scoreboard.journal import Journal
from scoreboard.session import TableSession
from scoreboard.web import create_app
from tests.helpers.web import TOKEN
from tray.bus import Bus
from tray.events import Pick

HAND = {"kind": "hand", "winner": 0, "held": [None, ["R7"]]}


def two_games(path: Path) -> None:
    """Game 1 finished-ish with a hand, game 2 (the latest) with a hand; a result of a game
    without points."""
    journal = Journal(path)
    session = TableSession(journal, Bus())
    session.new_game(["Ann", "Bo"])
    session.submit(HAND)
    session.new_game(["Cy", "Di"], confirm=True)
    session.submit(HAND)
    session.game_won(None, ["Ann", "Bo"], 1, "elite", mode="quick")
    session.close()
    journal.close()


def damage(path: Path, sql: str, *args) -> None:
    with sqlite3.connect(path) as db:
        db.execute(sql, args)


def started(path: Path) -> tuple[Journal, TestClient]:
    journal = Journal(path)
    client = TestClient(create_app(journal, Bus(), TOKEN))
    client.headers["X-Table-Token"] = TOKEN
    return journal, client


@pytest.mark.parametrize(
    ("sql", "args", "says"),
    [
        ('UPDATE entries SET entry = \'{"kind": "hand", "win\' WHERE id = 4', (), "not JSON"),
        ("UPDATE entries SET entry = CAST(? AS TEXT) WHERE id = 4", (b'{"k\xff\xfe"}',), "UTF-8"),
        ('UPDATE entries SET entry = \'{"kind": "hand", "winner": 7}\' WHERE id = 4', (), ""),
        ("UPDATE entries SET entry = '[1, 2]' WHERE id = 4", (), "not an entry"),
    ],
    ids=["bad-json", "not-utf8", "impossible-hand", "not-an-object"],
)
def test_a_damaged_entry_sets_its_game_aside_and_the_table_carries_on(tmp_path, sql, args, says):
    path = tmp_path / "journal.sqlite3"
    two_games(path)
    damage(path, sql, *args)
    journal, client = started(path)
    with client:
        view = client.get("/api/view").json()
        [problem] = view["journal"]["damaged"]
        assert problem.startswith("game 2 is damaged") and says in problem
        assert view["game"] is None  # set aside: not shown as the game in play
        assert client.get("/api/games/1.json").status_code == 200  # the others work
        new_game = {"players": ["Ed", "Flo"], "confirm": True}
        assert client.post("/api/new-game", json=new_game).status_code == 200
        assert client.post("/api/entry", json=HAND).status_code == 200
    journal.close()
    with sqlite3.connect(path) as db:  # left as it was found
        row = db.execute("SELECT CAST(entry AS BLOB) FROM entries WHERE id = 4").fetchone()
        assert row is not None


def test_an_impossible_result_is_set_aside(tmp_path, caplog):
    path = tmp_path / "journal.sqlite3"
    two_games(path)
    add = "INSERT INTO results (t, players, winner, ruleset) VALUES (1, ?, ?, 'elite')"
    damage(path, add, '["Ann"]', 5)
    damage(path, add, "{bad", 0)
    damage(
        path,
        "INSERT INTO results (t, players, winner, ruleset) VALUES (1, CAST(? AS TEXT), 0, 'elite')",
        b'["\xff"]',
    )
    journal, client = started(path)
    with client:
        view = client.get("/api/view").json()
        assert view["wins"]["games"] == 1  # the good one still counts
        said = [d for d in view["journal"]["damaged"] if d.startswith("result ")]
        assert len(said) == 3 and "is not one of its 1 seats" in said[0]
    journal.close()
    assert "result 2 is damaged" in caplog.text


@pytest.mark.parametrize("table", ["entries", "games", "results", "records", "moves", "meta"])
def test_a_dropped_table_is_made_again_and_said(tmp_path, table):
    path = tmp_path / "journal.sqlite3"
    two_games(path)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA foreign_keys=OFF")
        db.execute(f"DROP TABLE {table}")
    journal, client = started(path)
    with client:
        view = client.get("/api/view").json()
        assert any(f"lost its {table} table" in d for d in view["journal"]["damaged"])
        assert (
            client.post(
                "/api/new-game", json={"players": ["Ed", "Flo"], "confirm": True}
            ).status_code
            == 200
        )
        assert client.post("/api/entry", json=HAND).status_code == 200
    journal.close()


@pytest.mark.parametrize(
    "spoil",
    [
        lambda data: data[:100] + b"\x00" * 50 + data[150:],  # the header's page size gone
        lambda data: data[: len(data) // 3],  # cut short
        lambda data: b"SQLite format 3\x00" + bytes(range(256)) * 40,  # noise behind the magic
    ],
    ids=["header", "truncated", "noise"],
)
def test_a_file_sqlite_cannot_open_is_moved_aside_and_a_fresh_journal_starts(
    tmp_path, spoil, caplog
):
    path = tmp_path / "journal.sqlite3"
    two_games(path)
    damaged = spoil(path.read_bytes())
    path.write_bytes(damaged)
    caplog.set_level(logging.WARNING)
    journal, client = started(path)
    with client:
        view = client.get("/api/view").json()
        [problem] = view["journal"]["damaged"]
        assert "moved aside to" in problem and "a new journal was started" in problem
        assert (
            client.post(
                "/api/new-game", json={"players": ["Ed", "Flo"], "confirm": True}
            ).status_code
            == 200
        )
    journal.close()
    [aside] = [p for p in tmp_path.iterdir() if ".damaged-" in p.name and p.suffix != ".log"]
    assert aside.read_bytes() == damaged  # kept, never overwritten
    assert f"moved aside to {aside}" in caplog.text


def test_a_pick_still_reaches_a_table_whose_latest_game_is_damaged(tmp_path):
    path = tmp_path / "journal.sqlite3"
    two_games(path)
    damage(path, "UPDATE entries SET entry = 'nope' WHERE id = 4")
    journal = Journal(path)
    bus = Bus()
    session = TableSession(journal, bus)
    bus.publish(Pick(seq=1, colour="red", t=time.time(), source="tray"))
    assert session.view()["pick"]["colour"] == "red"
    session.close()
    journal.close()


@pytest.mark.parametrize(
    "setup",
    ["{bad", '{"header": 5}', '"just text"', b"{\xff"],
    ids=["not-json", "header", "not-object", "not-utf8"],
)
def test_a_damaged_uno_elite_game_does_not_stop_the_service(tmp_path, setup):
    from cli.app import create_app as full_app

    path = tmp_path / "journal.sqlite3"
    two_games(path)
    damage(
        path, "INSERT INTO games (id, created, name) VALUES (9, ?, 'UNO Elite game')", time.time()
    )
    damage(path, "INSERT INTO records (game, setup) VALUES (9, CAST(? AS TEXT))", setup)
    journal = Journal(path)
    with TestClient(full_app(journal, Bus(), TOKEN)) as client:
        client.headers["X-Table-Token"] = TOKEN
        view = client.get("/api/view").json()
        assert any(d.startswith("game 9 is damaged") for d in view["journal"]["damaged"])
        assert view["game"] == 2  # the table's game plays on
        assert client.get("/play").status_code == 200
        assert client.post("/api/entry", json=HAND).status_code == 200
    journal.close()
    with sqlite3.connect(path) as db:  # left as it was found
        kept = db.execute("SELECT CAST(setup AS BLOB) FROM records WHERE game = 9").fetchone()
        assert kept[0] == (setup if isinstance(setup, bytes) else setup.encode())


def test_a_damaged_digital_move_does_not_stop_the_service(tmp_path):
    from tests.helpers.digital import Table, some_moves

    path = tmp_path / "journal.sqlite3"
    table = Table(path)
    keys = table.digital.new_game(["Ann", "Bo"], [0], "greedy", seed=3)
    import random

    some_moves(table, 0, keys[0], random.Random(1), 10)
    table.stop()
    damage(path, "UPDATE moves SET event = '{not json' WHERE id = (SELECT MAX(id) FROM moves)")
    again = Table(path)
    assert again.digital.journal_error is not None  # said on the page: kept as it is
    assert again.table.view()["players"]  # the scoreboard still shows the table
    again.stop()


@pytest.mark.parametrize(
    ("sql", "args", "shown", "says"),
    [
        ("UPDATE games SET name = ? WHERE id = 1", (b"Friday",), "Game 1 (name damaged)", "name"),
        (
            "UPDATE games SET name = CAST(? AS TEXT) WHERE id = 1",
            (b"Fri\xffday",),
            "Game 1 (name damaged)",
            "name",
        ),
        (
            "UPDATE games SET created = 'yesterday' WHERE id = 1",
            (),
            "Disney UNO with the Tinker Bell tray: Ann, Bo",
            "start time",
        ),
    ],
    ids=["blob", "not-utf8", "created"],
)
def test_a_damaged_game_row_is_listed_and_named_not_a_500(tmp_path, sql, args, shown, says):
    path = tmp_path / "journal.sqlite3"
    two_games(path)
    damage(path, sql, *args)
    with sqlite3.connect(path) as db:
        before = db.execute("SELECT CAST(name AS BLOB), created FROM games").fetchall()
    journal, client = started(path)
    with client:
        listed = client.get("/api/games")
        assert listed.status_code == 200
        names = {g["id"]: g["name"] for g in listed.json()["games"]}
        assert names == {1: shown, 2: "Disney UNO with the Tinker Bell tray: Cy, Di"}
        damaged = client.get("/api/view").json()["journal"]["damaged"]
        assert any(d.startswith(f"game 1's {says} is damaged") for d in damaged), damaged
        assert client.get("/api/games/1.json").status_code == 200
        assert client.get("/api/games/1.csv").status_code == 200
    journal.close()
    with sqlite3.connect(path) as db:  # left as it was found
        assert db.execute("SELECT CAST(name AS BLOB), created FROM games").fetchall() == before


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE meta SET value = '' WHERE key = 'token'",
        "UPDATE meta SET value = ' ' WHERE key = 'token'",
        "UPDATE meta SET value = X'00ff' WHERE key = 'token'",
        "DELETE FROM meta WHERE key = 'token'",
    ],
    ids=["empty", "blank", "blob", "missing"],
)
def test_an_empty_or_missing_token_is_made_anew_and_printed(tmp_path, sql):
    from cli.commands.display import start_display

    path = tmp_path / "journal.sqlite3"
    two_games(path)
    Journal(path).token()  # kept, then damaged
    damage(path, sql)
    display = start_display(Bus(), path, "127.0.0.1", 0, mdns=False)
    try:
        [line] = [x for x in display.lines(path) if x.startswith("token:")]
        token = line.split()[-1]
        assert len(token) >= 16 and token != "token:"
        with TestClient(create_app(display.journal, Bus(), display.token)) as client:
            assert client.post("/api/session", json={"token": token}).json() == {"host": True}
    finally:
        display.close()
    assert Journal(path).token() == token  # kept for the next start
