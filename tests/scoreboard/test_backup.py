"""Backup and restore through the host's API (issue 39, item 3): one file with the whole
journal, taken back by a fresh tray with every record byte for byte and the old token working;
a damaged or foreign file refused with a sentence, changing nothing; only the host may do
either; a journal that holds games is replaced only when the host confirms."""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

from scoreboard import backup
from scoreboard import journal as J
from scoreboard.journal import Journal
from tests.helpers.backup import (
    DIGITAL,
    Tray,
    play_a_digital_game,
    play_a_table_game,
    records,
)
from tests.helpers.card import fill
from tests.scoreboard.test_disk_full import small_tmpfs


@pytest.fixture
def old(tmp_path):
    tray = Tray(tmp_path / "old" / "journal.sqlite3").start()
    play_a_table_game(tray)
    play_a_digital_game(tray)
    yield tray
    tray.stop()


@pytest.fixture
def fresh(tmp_path):
    tray = Tray(tmp_path / "new" / "journal.sqlite3").start()
    yield tray
    tray.stop()


def backed_up(tray: Tray) -> bytes:
    res = tray.call("GET", "/api/backup")
    assert res.status_code == 200, res.text
    assert re.fullmatch(
        r'attachment; filename="tinker-tray-backup-\d{8}-\d{4}\.ttb"',
        res.headers["content-disposition"],
    )
    return res.content


def test_a_fresh_tray_takes_the_backup_back_with_every_record_and_the_old_token(old, fresh):
    before = records(old)
    assert len(before) == 6  # the list; each game's sheet as JSON and CSV; the game record
    data = backed_up(old)
    assert data.startswith(b"tinker-tray backup 1 sha256=")
    assert fresh.token != old.token

    res = fresh.call("POST", "/api/restore", content=data)
    assert res.status_code == 200, res.text
    assert res.json()["restored"] == 2
    assert f"tinker-token={old.token}" in res.headers["set-cookie"]  # this phone stays host

    assert records(fresh, old.token) == before  # the old card's token works here
    assert fresh.call("GET", "/api/whoami", old.token).json()["host"] is True
    assert fresh.call("GET", "/api/whoami").json()["host"] is False  # the fresh card's is gone
    view = fresh.call("GET", "/api/view").json()
    assert view["game"] == old.call("GET", "/api/view").json()["game"]
    assert [p["total"] for p in view["players"]] == [
        p["total"] for p in old.call("GET", "/api/view").json()["players"]
    ]
    shown = fresh.call("GET", "/api/digital/view", old.token).json()
    was = old.call("GET", "/api/digital/view").json()
    assert shown.pop("version") > 0 and was.pop("version") > 0  # each session counts its own
    assert shown == was  # the digital game, as it ended


def test_the_restored_tray_plays_on_and_backs_up_the_same_games(old, fresh, tmp_path):
    assert fresh.call("POST", "/api/restore", content=backed_up(old)).status_code == 200
    start = {"players": ["Di", "Ed"]}
    assert fresh.call("POST", "/api/new-game", old.token, json=start).status_code == 200
    body = {"kind": "hand", "winner": 1, "held": [4, None]}
    assert fresh.call("POST", "/api/entry", old.token, json=body).status_code == 200
    again = Tray(tmp_path / "third" / "journal.sqlite3").start()
    try:
        data = fresh.call("GET", "/api/backup", old.token).content
        assert again.call("POST", "/api/restore", content=data).status_code == 200
        assert records(again, old.token) == records(fresh, old.token)
    finally:
        again.stop()


def changed(data: bytes, at: int) -> bytes:
    damaged = bytearray(data)
    damaged[at] ^= 0x01
    return bytes(damaged)


@pytest.mark.parametrize("where", ["format", "sum", "description", "middle", "last"])
def test_one_changed_byte_is_refused_with_a_sentence_and_changes_nothing(old, fresh, where):
    data = backed_up(old)
    at = {
        "format": 3,
        "sum": data.index(b"sha256=") + 10,
        "description": data.index(b'"games"') + 2,
        "middle": len(data) // 2,
        "last": len(data) - 1,
    }[where]
    play_a_table_game(fresh)
    before = records(fresh)
    res = fresh.call("POST", "/api/restore?replace=1", content=changed(data, at))
    assert res.status_code == 422
    error = res.json()["error"]
    assert "Nothing was changed" in error and "Traceback" not in error
    assert error.lower().count("nothing was") == 1, error  # said once
    assert records(fresh) == before
    assert fresh.call("GET", "/api/whoami").json()["host"] is True  # its own token still


def forged(tmp_path, database, games: int) -> bytes:
    """A file in the backup's format, sum right, around another SQLite database."""
    with (tmp_path / "forged.ttb").open("w+b") as out:
        size = database.stat().st_size
        backup._write(out, database, {"made": "x", "schema": 4, "games": games, "bytes": size})
    return (tmp_path / "forged.ttb").read_bytes()


def test_a_foreign_or_cut_file_is_refused_with_a_sentence(old, fresh, tmp_path):
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE games (id INTEGER)")
    data = backed_up(old)
    for body, says in [
        (b"hello, this is a text file\n", "not a tinker-tray backup"),
        (b"SQLite format 3\x00" + bytes(4000), "not a tinker-tray backup"),
        (data[: len(data) // 2], "damaged"),
        (data.replace(b"backup 1 ", b"backup 9 ", 1), "newer tinker-tray"),
        (forged(tmp_path, other, 0), "not a tinker-tray journal"),
    ]:
        res = fresh.call("POST", "/api/restore", content=body)
        assert res.status_code == 422 and says in res.json()["error"], (says, res.text)
    res = fresh.call("POST", "/api/restore", content=b"")
    assert res.status_code == 400 and "body" in res.json()["error"]
    assert records(fresh)["games"] == fresh.call("GET", "/api/games?limit=200").content
    assert fresh.call("GET", "/api/games").json()["games"] == []


def test_a_file_over_the_size_bound_is_refused_unread(fresh, monkeypatch):
    monkeypatch.setattr(backup, "MAX_BYTES", 1000)
    res = fresh.call("POST", "/api/restore", content=b"x" * 5000)
    assert res.status_code == 413 and "over" in res.json()["error"]
    assert not list(fresh.path.parent.glob(".tinker-backup-*"))  # no scratch file left


def test_only_the_host_backs_up_or_restores(old, fresh):
    data = backed_up(old)
    seat = old.app.state.digital.keys or {0: "some-seat-key"}
    for token, extra in (("", {}), ("wrong", {}), ("", {"X-Seat-Key": next(iter(seat.values()))})):
        old.client.cookies.clear()
        refused = 401 if token else 403  # a token that is not the table's: 401 (replaced?)
        res = old.client.get("/api/backup", headers={"X-Table-Token": token, **extra})
        assert res.status_code == refused and "the table's" in res.json()["error"]
        fresh.client.cookies.clear()
        res = fresh.client.post(
            "/api/restore", content=data, headers={"X-Table-Token": token, **extra}
        )
        assert res.status_code == refused and "the table's" in res.json()["error"]
    assert fresh.call("GET", "/api/games").json()["games"] == []


def test_a_journal_with_games_is_replaced_only_once_the_host_confirms(old, fresh):
    data = backed_up(old)
    play_a_table_game(fresh)
    before = records(fresh)
    res = fresh.call("POST", "/api/restore", content=data)
    assert res.status_code == 409 and res.json()["confirm"] is True
    assert "holds 1 game:" in res.json()["error"] and "confirm" in res.json()["error"]
    assert records(fresh) == before
    assert fresh.call("POST", "/api/restore?replace=yes", content=data).status_code == 400
    res = fresh.call("POST", "/api/restore?replace=1", content=data)
    assert res.status_code == 200 and res.json()["replaced"] == 1
    assert records(fresh, old.token) == records(old)


def test_a_digital_game_in_play_is_not_replaced_under_its_players(old, fresh):
    data = backed_up(old)
    res = fresh.call("POST", "/api/digital/new", json={"players": ["Ann", "Bot"], "pace": 0})
    assert res.status_code == 200
    res = fresh.call("POST", "/api/restore?replace=1", content=data)
    assert res.status_code == 409 and "being played" in res.json()["error"]
    assert len(fresh.call("GET", "/api/games").json()["games"]) == 1


def test_the_backup_is_a_consistent_copy_while_the_table_plays(old, tmp_path):
    """The copy is SQLite's backup API from its own connection: the journal's WAL, not yet
    checkpointed into the file, is in it."""
    wal = old.path.with_name(old.path.name + "-wal")
    assert wal.stat().st_size > 0
    made = backup.make(old.journal, tmp_path)
    with backup.checked(made.path, tmp_path) as kept:
        assert kept.games == 2
        with sqlite3.connect(kept.database) as db:
            assert db.execute("SELECT COUNT(*) FROM moves").fetchone()[0] > 10
    made.path.unlink()
    assert sorted(p.name for p in tmp_path.glob(".tinker-backup-*")) == []


def test_a_backup_holding_an_older_journal_is_upgraded_as_the_journal_would_be(tmp_path):
    """A backup's journal of an older version (version 3, as main wrote it at 14f5ae9) is
    upgraded in the checked copy: restored, every game reads as the journal itself upgrades it."""
    fixture = Path(__file__).parent / "journals" / "main-14f5ae9.sqlite3"
    with sqlite3.connect(f"{fixture.resolve().as_uri()}?mode=ro", uri=True) as db:
        games = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    with (tmp_path / "old.ttb").open("w+b") as out:
        about = {"made": "x", "schema": 3, "games": games, "bytes": fixture.stat().st_size}
        backup._write(out, fixture, about)
    shutil.copyfile(fixture, tmp_path / "upgraded.sqlite3")
    upgraded = Journal(tmp_path / "upgraded.sqlite3")
    restored = Journal(tmp_path / "fresh" / "journal.sqlite3")
    try:
        with backup.checked(tmp_path / "old.ttb", tmp_path / "fresh") as kept:
            assert kept.games == len(upgraded.games()) > games  # UNO Elite's games folded in
            backup.restore(restored, kept)
        assert restored.games() == upgraded.games()
        for game in upgraded.games():
            if game.digital:
                assert restored.export_record(game.id) == upgraded.export_record(game.id)
            if game.entries:
                assert restored.export_json(game.id) == upgraded.export_json(game.id)
    finally:
        upgraded.close()
        restored.close()


def test_scratch_files_a_power_cut_left_are_removed_as_the_tray_starts(tmp_path):
    left = tmp_path / "journal" / f"{backup.SCRATCH}abc.restore"
    left.parent.mkdir()
    left.write_bytes(b"half a journal")
    tray = Tray(tmp_path / "journal" / "journal.sqlite3").start()
    try:
        assert not left.exists()
    finally:
        tray.stop()


def test_a_page_reading_the_journal_meanwhile_does_not_stop_a_restore(old, fresh):
    """A read in another thread has the journal's connection in use for a moment (SQLite
    refuses to copy over it then): the restore waits for it, as it would for a write."""
    data = backed_up(old)
    reading = fresh.journal._db.execute("SELECT name FROM sqlite_master")
    assert reading.fetchone() is not None  # the statement stays open: more rows to read
    done = threading.Timer(0.3, reading.fetchall)
    done.start()
    try:
        res = fresh.call("POST", "/api/restore", content=data)
    finally:
        done.join()
    assert res.status_code == 200, res.text
    assert records(fresh, old.token) == records(old)


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")
def test_on_a_full_card_backup_and_restore_are_a_sentence_and_change_nothing(old):
    data = backed_up(old)
    with small_tmpfs(1024) as card:
        tray = Tray(card / "journal.sqlite3").start()
        try:
            play_a_table_game(tray)
            before = records(tray)
            fill(card / "filler")
            for res in (
                tray.call("GET", "/api/backup"),
                tray.call("POST", "/api/restore?replace=1", content=data),
            ):
                assert res.status_code == 503, res.text
                assert "full" in res.json()["error"]
            assert records(tray) == before
            assert not list(card.glob(f"{backup.SCRATCH}*"))
            (card / "filler").unlink()
            assert tray.call("GET", "/api/backup").status_code == 200
            res = tray.call("POST", "/api/restore?replace=1", content=data)
            assert res.status_code == 200, res.text
        finally:
            tray.stop()


def test_a_journal_of_ours_without_its_tables_is_refused_as_not_a_backup(fresh, tmp_path):
    bare = tmp_path / "bare.sqlite3"
    with sqlite3.connect(bare) as db:
        db.execute(f"PRAGMA application_id={J.APPLICATION_ID}")
        db.execute("PRAGMA user_version=4")
        db.execute("CREATE TABLE other (x)")
    res = fresh.call("POST", "/api/restore", content=forged(tmp_path, bare, 0))
    assert res.status_code == 422 and "not a tinker-tray backup" in res.json()["error"]


def test_a_digital_game_in_play_when_backed_up_plays_on_with_its_seat_links(fresh, tmp_path):
    old = Tray(tmp_path / "mid" / "journal.sqlite3").start()
    try:
        res = old.call("POST", "/api/digital/new", json=DIGITAL)
        key = res.json()["keys"]["0"]
        seat = {"X-Seat-Key": key}
        was = old.client.get("/api/digital/view", headers=seat).json()
        data = backed_up(old)
    finally:
        old.stop()
    assert fresh.call("POST", "/api/restore", content=data).status_code == 200
    fresh.client.cookies.clear()
    now = fresh.client.get("/api/digital/view", headers=seat)
    assert now.status_code == 200  # the seat's link from the old card
    now = now.json()
    assert now.pop("version") > 0 and was.pop("version") > 0
    assert now == was
