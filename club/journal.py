"""The club's own journal: every message that changed the board, in SQLite (WAL).

A restart replays it into a fresh `Board`, so the page shows the evening so far even before
(or without) the broker answering. One message per transaction, appended before the page is
told: the page never shows what the journal does not hold.

Its size has a bound: once it holds `COMPACT_AFTER` messages, the whole board is written as one
record and the messages it covers are deleted, in one transaction, so a flood of presses or
winners grows the file by at most that many messages (each at most `payloads.MAX_PAYLOAD`)
and a start replays at most that many.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from pathlib import Path

from club.board import Board

log = logging.getLogger(__name__)

COMPACT_AFTER = 2000

SCHEMA = """
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY,
    received REAL NOT NULL,
    tbl TEXT NOT NULL,
    leaf TEXT NOT NULL,
    payload BLOB NOT NULL,
    live INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS board (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    saved REAL NOT NULL,
    state TEXT NOT NULL
);
"""


class ClubJournal:
    def __init__(self, path: Path, *, compact_after: int = COMPACT_AFTER):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.compact_after = compact_after
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(messages)")}
        if "live" not in columns:  # a journal from before `live`: its messages count as live
            self._db.execute("ALTER TABLE messages ADD COLUMN live INTEGER NOT NULL DEFAULT 1")
        self._messages = self.count()

    def replay(self, board: Board) -> int:
        """Restore the last compacted board, then fold every later message into `board`;
        returns how many messages there were."""
        with self._lock:
            saved = self._db.execute("SELECT state FROM board WHERE id = 1").fetchone()
            rows = self._db.execute(
                "SELECT tbl, leaf, payload, live, received FROM messages ORDER BY id"
            ).fetchall()
        if saved is not None:
            try:
                board.restore(json.loads(saved[0]))
            except (ValueError, KeyError, TypeError) as exc:  # damaged: the messages still count
                log.warning("club journal %s: its board record is damaged (%s)", self.path, exc)
        for table, leaf, payload, live, received in rows:
            board.apply(table, leaf, bytes(payload), live=bool(live), at=received)
        return len(rows)

    def append(
        self,
        table: str,
        leaf: str,
        payload: bytes,
        board: Board | None = None,
        *,
        live: bool = True,
        received: float | None = None,
    ) -> None:
        """Keep one message (`live` and `received` as `Board.apply` was given them, so a
        replay judges the same); with `board` (the board it changed), compact when it is time."""
        with self._lock:
            self._db.execute(
                "INSERT INTO messages (received, tbl, leaf, payload, live) VALUES (?, ?, ?, ?, ?)",
                (time.time() if received is None else received, table, leaf, payload, int(live)),
            )
            self._messages += 1
            if board is not None and self._messages >= self.compact_after:
                self._compact(board)

    def _compact(self, board: Board) -> None:
        state = json.dumps(board.state(), separators=(",", ":"))
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.execute(
                "INSERT OR REPLACE INTO board (id, saved, state) VALUES (1, ?, ?)",
                (time.time(), state),
            )
            self._db.execute("DELETE FROM messages")
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._messages = 0

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
