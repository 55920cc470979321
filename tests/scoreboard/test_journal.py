"""The journal: durable, refuses files that are not its own, keeps and exports games."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import textwrap
from pathlib import Path

import pytest

from scoreboard.journal import ConfirmError, Journal, JournalError, UnknownGameError
from tests.helpers.crash import shown_until_killed

START = {"kind": "start", "players": ["Ann", "Bea", "Cy"], "dealer": 0, "options": {}}


@pytest.fixture
def journal(tmp_path):
    j = Journal(tmp_path / "j.sqlite3", clock=iter(range(1000, 10_000)).__next__)
    yield j
    j.close()


def test_a_new_journal_uses_wal_and_full_sync(tmp_path):
    j = Journal(tmp_path / "j.sqlite3")
    assert j._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert j._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    j.close()


def test_entries_come_back_in_order_and_rebuild_the_game(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    g = j.create_game(START)
    j.append(g, {"kind": "hand", "winner": 0, "held": [None, ["R7"], 3]})
    j.append(g, {"kind": "undo"})
    j.append(None, {"kind": "pick", "seq": 1, "colour": "red"})
    j.close()
    j = Journal(path)
    assert [x.entry["kind"] for x in j.entries(g)] == ["start", "hand", "undo"]
    assert j.load(g).game.sheet.scores == (0, 0, 0)
    assert [x.entry["kind"] for x in j.entries(None)] == ["pick"]
    assert j.last_id() == 4
    j.close()


def test_several_games_are_kept_and_the_token_persists(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    token = j.token()
    a = j.create_game(START)
    b = j.create_game(START, name="Friday")
    assert [(g.id, g.name, g.entries) for g in j.games()] == [(a, f"Game {a}", 1), (b, "Friday", 1)]
    assert j.latest_game() == b
    j.close()
    j = Journal(path)
    assert j.token() == token
    j.close()


def test_a_game_is_deleted_only_with_its_confirmation(journal):
    g = journal.create_game(START)
    with pytest.raises(ConfirmError, match="'delete game 1'"):
        journal.delete_game(g, "yes")
    assert len(journal.games()) == 1
    journal.delete_game(g, "delete game 1")
    assert journal.games() == []
    with pytest.raises(UnknownGameError):
        journal.entries(g)


def test_appending_to_a_missing_game_is_refused(journal):
    with pytest.raises(UnknownGameError, match="no game 7"):
        journal.append(7, {"kind": "undo"})


def test_export_csv_and_json(journal):
    g = journal.create_game(START)
    journal.append(g, {"kind": "hand", "winner": 1, "held": [["W"], None, 12]})
    journal.append(g, {"kind": "hand", "winner": 0, "held": [None, 5, ["GD2"]]})
    rows = list(csv.reader(io.StringIO(journal.export_csv(g))))
    assert rows[0] == [
        "hand",
        "dealer",
        "went out",
        "Ann scored",
        "Bea scored",
        "Cy scored",
        "Ann total",
        "Bea total",
        "Cy total",
    ]
    assert rows[1:] == [
        ["1", "Ann", "Bea", "0", "62", "0", "0", "62", "0"],
        ["2", "Bea", "Ann", "25", "0", "0", "25", "62", "0"],
    ]
    doc = json.loads(journal.export_json(g))
    assert doc["players"] == ["Ann", "Bea", "Cy"]
    assert doc["totals"] == [25, 62, 0]
    assert doc["hands"][0]["held"] == [["W"], None, 12]
    assert [e["kind"] for e in doc["entries"]] == ["start", "hand", "hand"]
    assert doc["entries"][0]["t"] == 1000


# --- files that are not ours: refused, untouched --------------------------------------


def _refused(path: Path, message: str) -> None:
    before = path.read_bytes()
    with pytest.raises(JournalError, match=message):
        Journal(path)
    assert path.read_bytes() == before
    assert not Path(f"{path}-wal").exists()


def test_a_text_file_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("shopping list\n")
    _refused(path, "not an SQLite database")


def test_another_applications_database_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "other.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE photos (id INTEGER)")
    db.commit()
    db.close()
    _refused(path, "another application's SQLite database")


def test_a_damaged_journal_is_moved_aside_untouched_and_a_new_one_started(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    g = j.create_game(START)
    for i in range(200):
        j.append(g, {"kind": "pick", "seq": i, "colour": "red", "source": "x" * 200})
    j._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    j.close()
    data = bytearray(path.read_bytes())
    for k in range(4096 * 2, len(data), 4096):  # scribble over every page after the first two
        data[k + 8 : k + 64] = b"\xff" * 56
    path.write_bytes(bytes(data))
    again = Journal(path)  # the table plays on tonight, on a new journal
    [problem] = again.damaged
    assert "could not be read" in problem and "a new journal was started" in problem
    assert again.latest_game() is None
    again.close()
    [aside] = tmp_path.glob("j.sqlite3.damaged-*")
    assert aside.read_bytes() == bytes(data)  # kept as it was, never written


def test_a_journal_from_a_newer_version_is_refused(tmp_path):
    path = tmp_path / "j.sqlite3"
    Journal(path).close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=99")
    db.commit()
    db.close()
    _refused(path, "newer tinker-tray")


# --- kill -9 loses nothing that was acknowledged ------------------------------------------

WRITER = textwrap.dedent(
    """
    import sys
    from scoreboard.journal import Journal
    j = Journal(sys.argv[1])
    g = j.create_game({"kind": "start", "players": ["A", "B"], "dealer": 0, "options": {}})
    i = 0
    while True:
        j.append(g, {"kind": "hand", "winner": i % 2, "held": [[None, 0], [0, None]][i % 2]})
        print(i, flush=True)  # "shown": only after the commit returned
        i += 1
    """
)


@pytest.mark.parametrize("after", [1, 37, 150])
@pytest.mark.slow  # a subprocess
def test_kill_9_loses_no_acknowledged_entry(tmp_path, after):
    path = tmp_path / "j.sqlite3"
    shown = shown_until_killed(WRITER, str(path), after=after)
    j = Journal(path)
    hands = [x.entry for x in j.entries(1) if x.entry["kind"] == "hand"]
    assert len(hands) >= len(shown)
    assert j.load(1).game is not None  # and it still folds
    j.close()
