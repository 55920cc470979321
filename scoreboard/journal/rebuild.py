"""A journal made anew from the rows of another file (a backup's), never from the file itself.

A backup's SHA-256 proves only that the file was not changed since it was made, and anyone can
make one. So its database is read as data: the rows of the tables this version knows, column by
column, into a new journal made by this version's own schema. Nothing else of the file comes
along: no trigger (one could bring the backup maker's token back after "New table key", or
refuse every new game at every start), no view (one that never ends would hang the restore), no
index and no setting of its own. The read is bounded in time (`TIME_LIMIT_S`, through SQLite's
progress handler), in the size of any one value (SQLite's length limit) and in what it may run:
the file is attached read-only with `trusted_schema` off, and only real tables are read (a view,
a virtual table or a generated column in their place is refused, never evaluated).

`Unfit` says, in one clause, why a file's rows cannot make a journal; the file it was given is
left as it was and the new journal is not to be used.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from scoreboard.journal.schema import (
    _ELITE_TABLES,
    _SINCE,
    _TABLE_SQL,
    APPLICATION_ID,
    SCHEMA_VERSION,
    _make_tables,
)

TIME_LIMIT_S = 30.0
"""The longest a backup's journal may take to be checked and read (a tray's own backup of a
year of evenings reads in a few seconds on a Zero 2 W)."""
MAX_VALUE = 16 * 1024 * 1024
"""The largest single value read (a game record's longest line is a few KB)."""
_STEPS = 10_000
"""SQLite instructions between two looks at the clock."""

_OLD_TABLES = {
    "elite_games": "CREATE TABLE elite_games (id INTEGER PRIMARY KEY, created, setup)",
    "elite_moves": "CREATE TABLE elite_moves (id INTEGER PRIMARY KEY, game, event)",
    "elite_results": (
        "CREATE TABLE elite_results (id INTEGER PRIMARY KEY, t, players, winner, mode, game)"
    ),
}
"""Version 3's UNO Elite tables, made only to hold their rows until the upgrade folds them into
the common ones (`schema._fold_elite_tables`), which reads every column by name."""


class Unfit(ValueError):
    """The file's rows cannot make a tinker-tray journal (one clause: why)."""


def rebuild(
    source: Path, target: Path, *, deadline: float, clock: Callable[[], float] = time.monotonic
) -> int:
    """Make the empty file `target` a journal holding the rows of the journal file `source`, of
    its version (an older one is upgraded afterwards, as the journal upgrades on open). Returns
    that version. Unfit if `source` is not a whole tinker-tray journal this version reads or
    cannot be read before `deadline` (on `clock`); sqlite3.OperationalError if the card cannot
    take the new journal (full, failing)."""
    with _bounded(target, deadline, clock) as db:
        try:
            db.execute("ATTACH DATABASE ? AS backup", (f"{source.resolve().as_uri()}?mode=ro",))
            version = _identity(db)
            tables = _tables_of(db, version)
            db.execute("BEGIN")
            _make_tables(db)
            for table in tables:
                if table in _OLD_TABLES:
                    db.execute(_OLD_TABLES[table])
                _copy_rows(db, table)
            _copy_sequences(db)
            db.execute(f"PRAGMA main.application_id={APPLICATION_ID}")
            db.execute(f"PRAGMA main.user_version={version}")
            db.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            if clock() > deadline:
                raise Unfit(f"its journal could not be read in {TIME_LIMIT_S:.0f} s") from None
            if _card_trouble(exc):
                raise
            raise Unfit(f"its journal cannot be read ({exc})") from None
        except sqlite3.DatabaseError as exc:  # malformed, not a database, a row that does not fit
            raise Unfit(f"its journal cannot be read ({exc})") from None
    return version


@contextlib.contextmanager
def _bounded(
    target: Path, deadline: float, clock: Callable[[], float]
) -> Iterator[sqlite3.Connection]:
    """A connection to `target` whose every statement stops at `deadline`, with no value over
    `MAX_VALUE` and no function of a file's schema that could do more than compute."""
    db = sqlite3.connect(target.resolve().as_uri(), uri=True, isolation_level=None)
    try:
        db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE)
        db.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 1)
        db.set_progress_handler(lambda: clock() > deadline, _STEPS)
        db.execute("PRAGMA trusted_schema=OFF")
        db.execute("PRAGMA foreign_keys=OFF")  # rows are copied as they were kept
        yield db
    finally:
        db.close()


def _identity(db: sqlite3.Connection) -> int:
    """The attached file's version, once it is known to be a whole tinker-tray journal."""
    app = db.execute("PRAGMA backup.application_id").fetchone()[0]
    if app != APPLICATION_ID:
        raise Unfit("its database is not a tinker-tray journal")
    version = db.execute("PRAGMA backup.user_version").fetchone()[0]
    if not 0 < version <= SCHEMA_VERSION:
        raise Unfit("its journal has no version this tray reads")
    problems = [row[0] for row in db.execute("PRAGMA backup.integrity_check(5)")]
    if problems != ["ok"]:
        raise Unfit(f"its journal fails SQLite's integrity check ({'; '.join(problems)[:200]})")
    return int(version)


def _tables_of(db: sqlite3.Connection, version: int) -> list[str]:
    """The tables a journal of `version` holds, each a real table in the file; Unfit naming the
    first that is missing or is something else in its place."""
    since = {**_SINCE, **_ELITE_TABLES} if version == 3 else _SINCE
    wanted = [table for table, added in since.items() if added <= version]
    kinds = dict(
        db.execute(
            "SELECT name, CASE WHEN type != 'table' THEN type WHEN sql LIKE 'CREATE TABLE%' "
            "THEN 'table' ELSE 'virtual table' END FROM backup.sqlite_master WHERE name IN "
            f"({', '.join('?' * len(wanted))})",
            wanted,
        ).fetchall()
    )
    for table in wanted:
        kind = kinds.get(table)
        if kind is None:
            raise Unfit(f"its journal has no {table} table")
        if kind != "table":
            raise Unfit(f"its journal's {table} is a {kind}, not a table")
    return wanted


def _copy_rows(db: sqlite3.Connection, table: str) -> None:
    """Every row of `table`, by the columns this version's table has (in the new journal)."""
    columns = [row[1] for row in db.execute(f"PRAGMA main.table_info({table})")]
    kept = {row[1]: row[6] for row in db.execute(f"PRAGMA backup.table_xinfo({table})")}
    for column in columns:
        if column not in kept:
            raise Unfit(f"its journal's {table} table has no {column} column")
        if kept[column]:
            raise Unfit(f"its journal's {table}.{column} is computed, not kept")
    names = ", ".join(f'"{column}"' for column in columns)
    db.execute(f"INSERT INTO main.{table} ({names}) SELECT {names} FROM backup.{table}")


_COUNTED = frozenset(table for table, sql in _TABLE_SQL.items() if "AUTOINCREMENT" in sql)
"""This version's tables that never give a row number twice (SQLite's sqlite_sequence)."""


def _copy_sequences(db: sqlite3.Connection) -> None:
    """The next row numbers the file would have given (so a number an undo freed is not given
    again, as in the journal the backup was made from), where the file keeps them plainly."""
    kept = db.execute(
        "SELECT type FROM backup.sqlite_master WHERE name = 'sqlite_sequence'"
    ).fetchone()
    if kept is None or kept[0] != "table":
        return
    made = {name for (name,) in db.execute("SELECT name FROM main.sqlite_sequence")}
    for name, seq in db.execute("SELECT name, seq FROM backup.sqlite_sequence").fetchall():
        if name not in _COUNTED or not isinstance(seq, int) or not 0 <= seq < 2**63:
            continue
        if name in made:
            db.execute(
                "UPDATE main.sqlite_sequence SET seq = max(seq, ?) WHERE name = ?", (seq, name)
            )
        else:
            db.execute("INSERT INTO main.sqlite_sequence(name, seq) VALUES (?, ?)", (name, seq))
            made.add(name)


_CARD_TROUBLE = ("full", "disk i/o", "readonly", "unable to open")


def _card_trouble(exc: sqlite3.OperationalError) -> bool:
    """SQLite's error is the card's (full, failing, read-only), not the file's."""
    return any(words in str(exc).lower() for words in _CARD_TROUBLE)
