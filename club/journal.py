"""The club's own journal: every message that changed the board, in SQLite (WAL).

A restart replays it into a fresh `Board`, so the page shows the evening so far even before
(or without) the broker answering. One message per transaction, appended before the page is
told: the page never shows what the journal does not hold.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from club.board import Board

SCHEMA = """
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY,
    received REAL NOT NULL,
    tbl TEXT NOT NULL,
    leaf TEXT NOT NULL,
    payload BLOB NOT NULL
);
"""


class ClubJournal:
    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def replay(self, board: Board) -> int:
        """Fold every journaled message into `board`; returns how many there were."""
        with self._lock:
            rows = self._db.execute(
                "SELECT tbl, leaf, payload FROM messages ORDER BY id"
            ).fetchall()
        for table, leaf, payload in rows:
            board.apply(table, leaf, bytes(payload))
        return len(rows)

    def append(self, table: str, leaf: str, payload: bytes) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO messages (received, tbl, leaf, payload) VALUES (?, ?, ?, ?)",
                (time.time(), table, leaf, payload),
            )

    def count(self, leaf: str | None = None) -> int:
        with self._lock:
            if leaf is None:
                return self._db.execute("SELECT count(*) FROM messages").fetchone()[0]
            return self._db.execute(
                "SELECT count(*) FROM messages WHERE leaf = ?", (leaf,)
            ).fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()
