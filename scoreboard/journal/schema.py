"""The journal's schema and its upgrades: the tables of the current version, the check that a file
is a tinker-tray journal this version reads (touching nothing), and the upgrade of an older one,
made on open in one transaction (a crash part-way leaves it as it was), after which the space of
the tables it dropped is given back (VACUUM, when the card has room for it).

One schema for every ruleset. A game is a `games` row. A game with points has a score sheet: its
`entries`. A digital game, of any ruleset, also keeps its game record (`records`: how it was set
up; `moves`: every game-record event, in order). A finished game's winner is a `results` row,
for every ruleset. `meta` keeps the table's token.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
from pathlib import Path

from scoreboard import readonly
from scoreboard.journal.errors import JournalError, _Unreadable
from scoreboard.journal.transaction import _row_id, _Transaction

log = logging.getLogger("scoreboard.journal")  # one logger for the package, as before its split

APPLICATION_ID = 0x54696E6B  # "Tink": marks a SQLite file as a tinker-tray journal
SCHEMA_VERSION = 4
"""2: records and moves of digital games; 3: UNO Elite's own tables (`elite_games`,
`elite_moves`, `elite_results`); 4: one schema, those folded into `games`, `records`, `moves` and
`results`."""
_SQLITE_MAGIC = b"SQLite format 3\x00"

_TABLE_SQL = {
    "games": """CREATE TABLE IF NOT EXISTS games (
    id      INTEGER PRIMARY KEY,
    created REAL NOT NULL,
    name    TEXT NOT NULL
)""",
    "entries": """CREATE TABLE IF NOT EXISTS entries (
    id    INTEGER PRIMARY KEY AUTOINCREMENT,
    game  INTEGER REFERENCES games(id) ON DELETE CASCADE,  -- NULL: a pick with no game yet
    t     REAL NOT NULL,
    entry TEXT NOT NULL
)""",
    "meta": "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "records": """CREATE TABLE IF NOT EXISTS records (
    game  INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    setup TEXT NOT NULL  -- the record's header, and who plays each seat (people's keys, bots)
)""",
    "moves": """CREATE TABLE IF NOT EXISTS moves (
    id    INTEGER PRIMARY KEY AUTOINCREMENT,
    game  INTEGER NOT NULL REFERENCES records(game) ON DELETE CASCADE,
    event TEXT NOT NULL  -- one game-record event
)""",
    "results": """CREATE TABLE IF NOT EXISTS results (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    game    INTEGER UNIQUE REFERENCES games(id) ON DELETE CASCADE,  -- NULL: kept without it
    t       REAL NOT NULL,
    players TEXT NOT NULL,     -- the names, in seat order (JSON)
    winner  INTEGER NOT NULL,  -- the winning seat
    ruleset TEXT NOT NULL,
    mode    TEXT               -- the ruleset's mode, if it has several (UNO Elite: quick, draft...)
)""",
}
_INDEXES = (
    "CREATE INDEX IF NOT EXISTS entries_game ON entries(game, id)",
    "CREATE INDEX IF NOT EXISTS moves_game ON moves(game, id)",
)
_SINCE = {"games": 1, "entries": 1, "meta": 1, "records": 2, "moves": 2, "results": 4}
"""The version that added each table: one found missing is made again, empty, and said."""
_ELITE_TABLES = {"elite_games": 3, "elite_moves": 3, "elite_results": 3}
"""Version 3's UNO Elite tables, which the upgrade to 4 folds into the common ones."""
ELITE_GAME_NAME = "UNO Elite game"


def prepare(db: sqlite3.Connection, lock: threading.Lock, path: Path) -> list[str]:
    """Make a new journal's tables, or upgrade an older one, on `db`; returns the tables
    found lost, which are made again, empty. The upgrade's two steps are looked up in the
    package (`scoreboard.journal`) as it runs, where a test or a bench replaces one (a crash or
    a full disk mid-upgrade; the upgrade as it was before the space was given back)."""
    from scoreboard import journal as steps  # the package: imported by now (it imports us)

    db.execute("PRAGMA foreign_keys=ON")
    new = db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID
    version = SCHEMA_VERSION if new else db.execute("PRAGMA user_version").fetchone()[0]
    names = {n for (n,) in db.execute("SELECT name FROM sqlite_master")}
    since = {**_SINCE, **_ELITE_TABLES} if version == 3 else _SINCE
    lost = [t for t, v in since.items() if v <= version and t not in names and not new]
    if new or lost or version < SCHEMA_VERSION:
        with _Transaction(lambda: db, lock):
            _make_tables(db)
            if version < SCHEMA_VERSION:
                steps._fold_elite_tables(db, names)
            if new:
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    if not new and version < SCHEMA_VERSION:
        steps._give_back_freed_pages(db, path)
    return lost


_LOST = {True: "it was made again, empty", False: "what it held could not be kept"}


def _make_tables(db: sqlite3.Connection) -> None:
    """Every table and index of the current schema that is missing (inside a transaction)."""
    for sql in (*_TABLE_SQL.values(), *_INDEXES):
        db.execute(sql)


def _fold_elite_tables(db: sqlite3.Connection, names: set[str]) -> None:
    """Version 3 to 4: each UNO Elite game becomes a `games` row with its setup in `records`
    and its events in `moves`, each Elite result a `results` row, in the same order (inside the
    upgrade's transaction). Rows are copied as they are, damaged or not: a damaged one is found
    and said when it is read, as before."""
    ids: dict[int, int] = {}
    if "elite_games" in names:
        for (old,) in db.execute("SELECT id FROM elite_games ORDER BY id").fetchall():
            cur = db.execute(
                "INSERT INTO games(created, name) SELECT created, ? FROM elite_games WHERE id=?",
                (ELITE_GAME_NAME, old),
            )
            ids[old] = new = _row_id(cur)
            db.execute(
                "INSERT INTO records(game, setup) SELECT ?, setup FROM elite_games WHERE id=?",
                (new, old),
            )
            if "elite_moves" in names:
                db.execute(
                    "INSERT INTO moves(game, event) "
                    "SELECT ?, event FROM elite_moves WHERE game=? ORDER BY id",
                    (new, old),
                )
    if "elite_results" in names:
        rows = db.execute(
            "SELECT id, CASE WHEN typeof(game) = 'integer' THEN game END "
            "FROM elite_results ORDER BY id"
        ).fetchall()
        for old, game in rows:
            db.execute(
                "INSERT INTO results(game, t, players, winner, ruleset, mode) "
                "SELECT ?, t, players, winner, 'elite', mode FROM elite_results WHERE id=?",
                (ids.get(game), old),
            )
    for table in ("elite_results", "elite_moves", "elite_games"):
        db.execute(f"DROP TABLE IF EXISTS {table}")


def _give_back_freed_pages(db: sqlite3.Connection, path: Path) -> None:
    """After the upgrade has committed: the old tables it dropped leave their pages free inside
    the file (a 55 MB journal would stay 110 MB), so VACUUM gives them back to the card. VACUUM
    needs free space up to the file's size; on a card without it, SQLite rolls the VACUUM back
    and the journal stays whole as the upgrade left it, only bigger: said in the log, never a
    reason not to start (the next upgrade, or none, is all the same to the data). An upgrade
    made in memory (a card that cannot be written) has nothing to give back."""
    if not db.execute("PRAGMA database_list").fetchone()[2]:
        return
    with contextlib.suppress(sqlite3.Error):  # the upgrade's WAL first: room for the VACUUM
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    try:
        db.execute("VACUUM")
    except sqlite3.Error as exc:
        log.warning("the upgraded journal %s keeps its freed space for now: %s", path, exc)
    with contextlib.suppress(sqlite3.Error):
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _check_file(path: Path) -> None:
    """Refuse a file that is not a tinker-tray journal, touching nothing (opened read-only)."""
    if path.is_dir():
        raise JournalError(f"{path} is a directory, not a journal file")
    if not path.exists() or path.stat().st_size == 0:
        return  # a new journal
    with path.open("rb") as f:
        head = f.read(len(_SQLITE_MAGIC))
    if head != _SQLITE_MAGIC:
        raise JournalError(
            f"{path} is not a tinker-tray journal (not an SQLite database). It was left "
            "untouched: choose another journal path, or move the file away."
        )
    # Read as it stands, its WAL included, writing nothing beside it (`scoreboard.readonly`).
    # A file SQLite cannot get at now (a full or read-only card: OperationalError) is not an
    # unreadable one: it is left where it is.
    try:
        with readonly.reading(path) as db:
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            tables = db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]
            version = db.execute("PRAGMA user_version").fetchone()[0]
            check = db.execute("PRAGMA quick_check").fetchone()[0]
    except sqlite3.OperationalError:
        raise
    except sqlite3.DatabaseError as exc:
        raise _Unreadable(str(exc)) from None
    if app_id != APPLICATION_ID and (app_id != 0 or tables):
        raise JournalError(
            f"{path} is another application's SQLite database, not a tinker-tray journal. "
            "It was left untouched: choose another journal path."
        )
    if check != "ok":
        raise _Unreadable(f"SQLite's integrity check: {check}")
    if version > SCHEMA_VERSION:
        raise JournalError(
            f"{path} was written by a newer tinker-tray (journal version {version}); "
            "upgrade tinker-tray to open it. It was left untouched."
        )
