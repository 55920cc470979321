"""One write: BEGIN IMMEDIATE ... COMMIT under the journal's lock, so a write is saved whole or
not at all, and a write SQLite could not make is told to the connection (which may stop writing
until the card can be written again)."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Callable

from scoreboard.journal.errors import JournalWriteError


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT under the journal's lock (ROLLBACK if the body raises);
    `failed` is told what SQLite could not write, once the lock is let go."""

    def __init__(
        self,
        db: Callable[[], sqlite3.Connection],
        lock: threading.Lock,
        failed: Callable[[sqlite3.Error], None] = lambda _cause: None,
    ):
        self._connection, self._lock, self._failed = db, lock, failed

    def __enter__(self) -> None:
        self._lock.acquire()
        try:
            self._db = self._connection()  # read under the lock: it may have been replaced
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            self._lock.release()
            self._failed(exc)
            raise JournalWriteError(exc) from exc
        except BaseException:
            self._lock.release()
            raise

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        """COMMIT (ROLLBACK if the body raised). A write or a commit that SQLite could not
        make (a full disk, an I/O error) is rolled back and raised as `JournalWriteError`:
        the caller changes nothing, so nothing unsaved is ever acknowledged."""
        cause: sqlite3.OperationalError | None = None
        try:
            if exc_type is None:
                self._db.execute("COMMIT")
            else:
                self._rollback()
                if isinstance(exc, sqlite3.OperationalError):
                    cause = exc
                    raise JournalWriteError(exc) from exc
        except sqlite3.OperationalError as failed:
            self._rollback()
            cause = failed
            raise JournalWriteError(failed) from failed
        finally:
            self._lock.release()
            if cause is not None:
                self._failed(cause)

    def _rollback(self) -> None:
        with contextlib.suppress(sqlite3.Error):  # SQLite may have rolled back by itself
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")


def _row_id(cursor: sqlite3.Cursor) -> int:
    """The id SQLite gave the row just inserted (always set after an INSERT)."""
    row_id = cursor.lastrowid
    assert row_id is not None, "an INSERT always sets lastrowid"
    return row_id
