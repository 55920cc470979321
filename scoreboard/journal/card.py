"""The SD card under the journal, as SQLite and the kernel tell of it: whether a connection can
write at all, whether an error means the journal is read-only, and whether a failure to open
for writing is the card's (full, read-only, failing) or a path that can never hold a journal."""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
from pathlib import Path

from scoreboard.journal.errors import JournalWriteError


def _probe_write(db: sqlite3.Connection) -> None:
    """Raise what SQLite says (SQLITE_READONLY) if `db` cannot write: on a read-only card whose
    journal has its `-wal` and `-shm` beside it (a power cut), SQLite opens it read-only
    without an error, and says so only at the first write. A write of the version it holds,
    rolled back: nothing reaches the card."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute(f"PRAGMA user_version={int(version)}")
    finally:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")


def _read_only(cause: sqlite3.Error) -> bool:
    """SQLite's error says the journal cannot be written (SQLITE_READONLY and its variants)."""
    name = getattr(cause, "sqlite_errorname", "") or ""
    return name.startswith("SQLITE_READONLY") or "readonly" in str(cause)


def _card_failure(failure: BaseException, path: Path) -> sqlite3.Error | None:
    """Why the journal could not be opened for writing, as the SQLite error `_advice` words, if
    the card is to blame (full, read-only, or failing under a journal that is there): a card
    is said full or read-only as such, even when SQLite only says "disk I/O error". None for
    a path that cannot hold a journal at all (a file where its folder should be): refused."""
    reason = failure.reason if isinstance(failure, JournalWriteError) else str(failure)
    code = failure.errno if isinstance(failure, OSError) else None
    card = _card(path)
    if code in (errno.EROFS, errno.EACCES, errno.EPERM) or card == "read-only":
        return sqlite3.OperationalError(f"readonly: {reason}")
    if code in (errno.ENOSPC, errno.EDQUOT) or card == "full":
        return sqlite3.OperationalError(f"database or disk is full: {reason}")
    if "full" in reason or "readonly" in reason or path.exists():
        return sqlite3.OperationalError(reason)
    return None


def _card(path: Path) -> str | None:
    """The card that holds (or would hold) the journal at `path`, as the kernel says:
    "read-only", "full" (less than `FULL_BELOW` free), or None."""
    folder = next((p for p in path.absolute().parents if p.exists()), Path("/"))
    try:
        card = os.statvfs(folder)
    except OSError:
        return None
    if card.f_flag & os.ST_RDONLY:
        return "read-only"
    if card.f_blocks and card.f_bavail * card.f_frsize < FULL_BELOW:
        return "full"
    return None


FULL_BELOW = 256 * 1024
"""Free bytes below which a card that fails to open the journal for writing is called full
(SQLite says "disk I/O error" when it cannot make the 32 KiB index beside the journal)."""
