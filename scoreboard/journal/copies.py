"""The whole journal copied out (a backup, `scoreboard.backup`) and copied in (a restore), each
in one SQLite step, so a copy is the journal at one moment and a power cut mid-restore leaves
the journal as it was or as restored."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from scoreboard.journal.connection import Connection
from scoreboard.journal.errors import ConfirmError, InPlayError, JournalWriteError


class Copies(Connection):
    """A backup and a restore of the journal on its own connection."""

    def copy_to(self, target: Path) -> None:
        """A consistent copy of the whole journal (every game, the token, every setting kept in
        it) as a new SQLite file at `target`: SQLite's backup API in one step, which reads
        everything in one read transaction, so the copy is the journal at one moment. Read
        through a connection of its own, so the table goes on saving meanwhile (WAL); while
        nothing can be saved, the journal as it is read now (in memory) is copied instead."""
        copy = sqlite3.connect(target, isolation_level=None)
        try:
            with self._lock:
                if self._cannot_write is not None:
                    self._db.backup(copy)
                    return
            source = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
            try:
                source.backup(copy)
            finally:
                source.close()
        finally:
            copy.close()

    def replace_with(self, source: Path, *, replace: bool = False) -> int:
        """Make this journal a copy of the checked journal file at `source` (a restore): in one
        SQLite transaction on the journal's own connection (SQLite's backup API into it), so a
        power cut leaves the journal as it was or as restored, and the connection every reader
        holds stays open. Returns how many games it held before.

        Refused, with nothing changed: while a game is being played (`hold`: InPlayError), while
        it holds games unless `replace` (ConfirmError), while nothing can be saved
        (JournalWriteError)."""
        with self._lock:
            db = self._writable()
            held = self._in_play
            if held is not None and held[2]():
                raise InPlayError(
                    f"game {held[0]} is being played in {held[1]}: finish it before restoring "
                    "a backup over this journal"
                )
            games = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            if games and not replace:
                held_games = f"{games} game" + ("s" if games != 1 else "")
                raise ConfirmError(
                    f"this tray's journal holds {held_games}: a restore replaces them with the "
                    "backup's games; confirm to replace them"
                )
            kept = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
            try:
                _copy_over(kept, db)
            finally:
                kept.close()
            self._in_play, self._run_token = None, None
            self.damaged.clear()  # what was said of the journal replaced
            self.results_version += 1
        return games


def _copy_over(source: sqlite3.Connection, db: sqlite3.Connection) -> None:
    """`source` copied over `db` in one transaction (SQLite's backup API, in one step; the
    caller holds the journal's lock, so no write is under way). A page reading from `db` in
    another thread has it "in use" for a moment: tried again, a few times, meanwhile. Anything
    else SQLite refuses (a full card) is rolled back whole: JournalWriteError."""
    for attempt in range(RESTORE_TRIES):
        try:
            source.backup(db)
            return
        except sqlite3.OperationalError as exc:
            if "in use" not in str(exc) or attempt == RESTORE_TRIES - 1:
                raise JournalWriteError(exc) from exc
            time.sleep(0.05)


RESTORE_TRIES = 40
"""How often a restore tries while readers have the journal in use (2 s in all)."""
