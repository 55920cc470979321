"""Reading a journal as it stands without writing beside it: what a full, read-only or failing
SD card still allows, so the table starts and shows every game even when nothing can be saved.

A journal in WAL mode is read through its `-wal` file (committed entries may still be there
after a power cut) and the `-shm` index SQLite makes beside it, which a full or read-only card
cannot take. So, in turn: the file alone (`immutable`) when there is no WAL to read; the file
through its WAL when SQLite can keep its index beside it; else a copy of the file and its WAL
in a private folder in memory, read there. `snapshot` copies the journal into memory, so
nothing stays open on the card.
"""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

RAM = Path("/dev/shm")  # a folder in memory on Linux (the Pi's too), off the SD card


@contextlib.contextmanager
def reading(path: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection to the journal at `path` as it stands, WAL included, closed (and
    any copy removed) on leaving. sqlite3.DatabaseError if the file is not a readable database;
    sqlite3.OperationalError (or OSError) if it cannot be read at all now."""
    wal = Path(f"{path}-wal")
    uri = path.resolve().as_uri()
    if not wal.exists() or wal.stat().st_size == 0:
        with _opened(f"{uri}?mode=ro&immutable=1") as db:
            yield db
        return
    try:
        db = _probed(f"{uri}?mode=ro")
    except sqlite3.OperationalError:  # no index beside it: read a copy in memory
        with _copied(path) as copy, _opened(f"{copy.as_uri()}?mode=ro") as db:
            yield db
        return
    try:
        yield db
    finally:
        db.close()


def snapshot(path: Path) -> sqlite3.Connection:
    """The journal at `path` copied into memory (an empty database if there is no file)."""
    memory = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    if path.exists() and path.stat().st_size:
        with reading(path) as db:
            db.backup(memory)
    return memory


@contextlib.contextmanager
def _opened(uri: str) -> Iterator[sqlite3.Connection]:
    db = _probed(uri)
    try:
        yield db
    finally:
        db.close()


def _probed(uri: str) -> sqlite3.Connection:
    """A connection that has read the schema: SQLite opens lazily, and fails only then."""
    db = sqlite3.connect(uri, uri=True, check_same_thread=False)
    try:
        db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except BaseException:
        db.close()
        raise
    return db


@contextlib.contextmanager
def _copied(path: Path) -> Iterator[Path]:
    """The journal and its WAL copied into a private folder (in memory where there is one)."""
    folder = Path(tempfile.mkdtemp(prefix="tinker-journal-", dir=RAM if RAM.is_dir() else None))
    try:
        copy = folder / path.name
        shutil.copyfile(path, copy)
        shutil.copyfile(f"{path}-wal", f"{copy}-wal")
        yield copy
    finally:
        shutil.rmtree(folder, ignore_errors=True)
