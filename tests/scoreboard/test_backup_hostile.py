"""A backup is data, never a database to trust (issue 48, items 1-3): anyone can make a file
whose SHA-256 is right. Its journal may hold a view that never ends, triggers that bring the
maker's token back or refuse every new game, tables missing or computed: the restore reads its
rows into a journal of this version's own schema, within 30 s, and either takes the whole
backup or changes nothing, and says which truly. After every refusal the service is restarted
and the table's games and token are found as they were."""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import sqlite3
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoreboard import backup
from scoreboard.journal import Journal
from scoreboard.journal import rebuild as rows
from tests.helpers.backup import Tray, play_a_digital_game, play_a_table_game, records

NEVER_ENDS = (
    "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) "
    "SELECT x AS id, 0.0 AS created, 'x' AS name FROM n"
)


@pytest.fixture(scope="module")
def genuine(tmp_path_factory) -> tuple[Path, str]:
    """A tray's own journal, as a backup carries it (a table game, a digital game), and the
    token of the tray that made it."""
    folder = tmp_path_factory.mktemp("maker")
    tray = Tray(folder / "journal.sqlite3").start()
    try:
        play_a_table_game(tray)
        play_a_digital_game(tray)
        copy = folder / "copy.sqlite3"
        tray.journal.copy_to(copy)
        with contextlib.closing(sqlite3.connect(copy, isolation_level=None)) as db:
            db.execute("PRAGMA journal_mode=DELETE")
        return copy, tray.token
    finally:
        tray.stop()


def hostile(genuine: Path, folder: Path, *sql: str, games: int | None = None) -> bytes:
    """A backup file, its sum and description right, around the genuine journal changed by
    `sql` (run with the schema writable, as a forger may)."""
    database = folder / f"hostile-{next(_made)}.sqlite3"
    database.write_bytes(genuine.read_bytes())
    with contextlib.closing(sqlite3.connect(database, isolation_level=None)) as db:
        for statement in sql:
            db.execute(statement)
        if games is None:
            with contextlib.suppress(sqlite3.Error):
                games = db.execute("SELECT COUNT(*) FROM games LIMIT 1").fetchone()[0]
    out = folder / f"{database.name}.ttb"
    about = {"made": "x", "schema": 4, "games": games or 2, "bytes": database.stat().st_size}
    with out.open("w+b") as file:
        backup._write(file, database, about)
    return out.read_bytes()


_made = itertools.count()


@pytest.fixture
def table(tmp_path):
    """A tray whose journal holds a game of its own: what must survive every refusal."""
    tray = Tray(tmp_path / "table" / "journal.sqlite3").start()
    play_a_table_game(tray)
    yield tray
    tray.stop()


def restarted(tray: Tray) -> Tray:
    tray.stop()
    return tray.start()


def refused_and_unchanged(tray: Tray, data: bytes, says: str) -> None:
    """A restore of `data` is refused with a sentence holding `says`, and after a restart the
    table's games and token are as they were."""
    before, token = records(tray), tray.token
    res = tray.call("POST", "/api/restore?replace=1", content=data)
    assert res.status_code == 422, res.text
    error = res.json()["error"]
    assert says in error and error.endswith("Nothing was changed."), error
    assert "Traceback" not in error
    restarted(tray)
    assert tray.token == token
    assert records(tray) == before


def test_a_games_view_that_never_ends_is_refused_at_once(genuine, tmp_path, table):
    endless = ["ALTER TABLE games RENAME TO kept", f"CREATE VIEW games AS {NEVER_ENDS}"]
    data = hostile(genuine[0], tmp_path, *endless, games=2)
    refused_and_unchanged(table, data, "its journal's games is a view, not a table")


def test_a_view_that_never_ends_beside_the_tables_is_not_carried_in(genuine, tmp_path, table):
    data = hostile(genuine[0], tmp_path, f"CREATE VIEW forever AS {NEVER_ENDS}")
    res = table.call("POST", "/api/restore?replace=1", content=data)
    assert res.status_code == 200, res.text
    assert "forever" not in _schema(table.journal)


def test_the_triggers_of_a_backup_do_not_survive_its_restore(genuine, tmp_path, table):
    """One trigger brings the maker's token back after "New table key"; another refuses every
    new game. Neither is in the journal after the restore, nor after a restart."""
    maker = genuine[1]
    data = hostile(
        genuine[0], tmp_path,
        "CREATE TRIGGER keep_token AFTER UPDATE ON meta BEGIN "
        f"UPDATE meta SET value = '{maker}' WHERE key = 'token'; END",
        "CREATE TRIGGER keep_token_too AFTER INSERT ON meta BEGIN "
        f"UPDATE meta SET value = '{maker}' WHERE key = 'token'; END",
        "CREATE TRIGGER no_games BEFORE INSERT ON games BEGIN SELECT RAISE(ABORT, 'no'); END",
    )  # fmt: skip
    assert table.call("POST", "/api/restore?replace=1", content=data).status_code == 200
    res = table.call("POST", "/api/new-key", maker)
    assert res.status_code == 200, res.text
    new = res.json()["token"]
    assert new != maker
    tray = restarted(table)
    assert tray.token == new
    assert tray.call("GET", "/api/whoami", maker).json()["host"] is False  # the maker's is gone
    start = {"players": ["Di", "Ed"]}
    assert tray.call("POST", "/api/new-game", new, json=start).status_code == 200
    restarted(tray)
    assert tray.call("POST", "/api/new-game", new, json=start).status_code == 200
    assert "TRIGGER" not in str(_schema(tray.journal)).upper()


@pytest.mark.parametrize("table_name", ["meta", "results", "entries", "moves"])
def test_a_backup_missing_a_table_is_refused_before_anything_changes(
    genuine, tmp_path, table, table_name
):
    data = hostile(genuine[0], tmp_path, f"DROP TABLE {table_name}")
    refused_and_unchanged(table, data, f"its journal has no {table_name} table")


@pytest.mark.parametrize(
    ("sql", "says"),
    [
        (
            [
                "ALTER TABLE games RENAME TO kept",
                "CREATE TABLE games (id INTEGER PRIMARY KEY, created REAL, "
                "name TEXT GENERATED ALWAYS AS (zeroblob(900000000)) VIRTUAL)",
            ],
            "games.name is computed",
        ),
        (["ALTER TABLE meta RENAME TO kept", "CREATE TABLE meta (key TEXT)"], "no value column"),
        (["PRAGMA application_id=1"], "not a tinker-tray journal"),
        (["PRAGMA user_version=0"], "no version this tray reads"),
    ],
)
def test_a_journal_of_another_shape_is_refused_with_what_is_wrong(
    genuine, tmp_path, table, sql, says
):
    refused_and_unchanged(table, hostile(genuine[0], tmp_path, *sql, games=2), says)


def test_the_restored_journal_has_this_versions_schema_and_nothing_else(genuine, tmp_path, table):
    data = hostile(
        genuine[0], tmp_path,
        "CREATE INDEX mine ON games(name)", "CREATE TABLE extra (x)", "PRAGMA user_version=4",
    )  # fmt: skip
    assert table.call("POST", "/api/restore?replace=1", content=data).status_code == 200
    fresh = Journal(tmp_path / "fresh" / "journal.sqlite3")
    try:
        assert _schema(table.journal) == _schema(fresh)
    finally:
        fresh.close()


def test_a_backup_read_past_its_time_limit_is_refused(genuine, tmp_path):
    """The limit holds inside SQLite too: a read that goes on past it is stopped (the progress
    handler), not waited for."""
    many = tmp_path / "many.sqlite3"
    many.write_bytes(genuine[0].read_bytes())
    with contextlib.closing(sqlite3.connect(many)) as db, db:
        db.executemany(
            "INSERT INTO meta(key, value) VALUES (?, 'x')", ((str(n),) for n in range(5000))
        )
    target = tmp_path / "rebuilt.sqlite3"
    target.touch()
    looks = itertools.count()
    clock = lambda: 0.0 if next(looks) < 3 else 31.0  # noqa: E731 (30 s pass after the 3rd look)
    with pytest.raises(rows.Unfit, match="could not be read in 30 s"):
        rows.rebuild(many, target, deadline=rows.TIME_LIMIT_S, clock=clock)
    assert next(looks) > 4  # SQLite looked at the clock as it went


def test_the_whole_check_is_bounded_in_time(genuine, tmp_path):
    data = hostile(genuine[0], tmp_path)
    (tmp_path / "b.ttb").write_bytes(data)
    later = itertools.count(step=20)
    with (
        pytest.raises(backup.BackupRefused, match="could not be read in 30 s"),
        backup.checked(tmp_path / "b.ttb", tmp_path / "scratch", clock=lambda: next(later)),
    ):
        pass
    assert not list((tmp_path / "scratch").glob(f"{backup.SCRATCH}*"))


def _schema(journal: Journal) -> list[tuple[str, str, str]]:
    return sorted(
        (kind, name, sql or "")
        for kind, name, sql in journal._db.execute("SELECT type, name, sql FROM sqlite_master")
    )


# A fuzz of the restore route with hostile files (bounded): any mix of changes a forger can
# make to a genuine journal, each answered 200 (then the backup's games are there) or a sentence
# (then nothing changed, after a restart too), never a 500.
CHANGES: dict[str, Callable[[], list[str]]] = {
    "view for games": lambda: [
        "ALTER TABLE games RENAME TO g2",
        f"CREATE VIEW games AS {NEVER_ENDS}",
    ],
    "endless view": lambda: [f"CREATE VIEW v AS {NEVER_ENDS}"],
    "token trigger": lambda: [
        "CREATE TRIGGER t1 AFTER UPDATE ON meta BEGIN UPDATE meta SET value='x'; END"
    ],
    "abort trigger": lambda: [
        "CREATE TRIGGER t2 BEFORE INSERT ON entries BEGIN SELECT RAISE(ABORT, 'no'); END"
    ],
    "drop meta": lambda: ["DROP TABLE meta"],
    "drop records": lambda: ["DROP TABLE records"],
    "text in ids": lambda: ["UPDATE entries SET game = 'x' WHERE id % 2 = 0"],
    "blob names": lambda: ["UPDATE games SET name = x'ff00ff'"],
    "null times": lambda: ["UPDATE moves SET event = NULL"],
    "big value": lambda: ["UPDATE meta SET value = hex(zeroblob(9000000)) WHERE key = 'token'"],
    "old version": lambda: ["PRAGMA user_version=2"],
    "other app": lambda: ["PRAGMA application_id=7"],
    "extra index": lambda: ["CREATE INDEX i ON moves(event)"],
    "virtual games": lambda: [
        "ALTER TABLE games RENAME TO g3",
        "CREATE VIRTUAL TABLE games USING fts4(id, created, name)",
    ],
}


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    changes=st.lists(st.sampled_from(sorted(CHANGES)), min_size=1, max_size=4, unique=True),
    cut=st.one_of(st.none(), st.integers(min_value=0, max_value=10_000)),
)
def test_fuzz_the_restore_route_with_hostile_journals(genuine, tmp_path, table, changes, cut):
    sql = [statement for name in changes for statement in CHANGES[name]()]
    try:
        data = hostile(genuine[0], tmp_path, *sql, games=2)
    except sqlite3.Error:
        return  # a mix SQLite itself will not make (a view over a dropped table ...)
    if cut is not None:  # a byte of the journal changed, the sum made right again
        data = _changed_inside(data, cut)
    before, token = records(table), table.token
    res = table.call("POST", "/api/restore?replace=1", content=data)
    assert res.status_code in (200, 422), (changes, res.status_code, res.text)
    if res.status_code == 422:
        assert res.json()["error"].endswith("Nothing was changed."), res.text
        tray = restarted(table)
        assert (tray.token, records(tray)) == (token, before), changes
        return
    tray = restarted(table)
    assert "TRIGGER" not in str(_schema(tray.journal)).upper()
    assert tray.call("GET", "/api/games", tray.token).status_code == 200
    body = {"players": ["Di", "Ed"]}
    assert tray.call("POST", "/api/new-game", tray.token, json=body).status_code == 200


def _changed_inside(data: bytes, at: int) -> bytes:
    """`data`'s journal with one byte changed at `at` (modulo its size), packed and summed
    again: a forger's file, not a damaged one."""
    _, about, packed = data.split(b"\n", 2)
    journal = bytearray(zlib.decompress(packed))
    journal[at % len(journal)] ^= 0x5A
    body = about + b"\n" + zlib.compress(bytes(journal))
    first = f"{backup.FORMAT} {backup.VERSION} sha256={hashlib.sha256(body).hexdigest()}\n"
    return first.encode() + body
