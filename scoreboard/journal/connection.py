"""The journal's connection to its file, and its life on a failing SD card.

Opening never depends on writing. A file that is not ours (another application's database, a
text file, a newer journal) is refused with a sentence, touching nothing; one SQLite cannot read
at all is moved aside and a new journal started. A journal that cannot be opened for writing (a
full, read-only or failing card) is read as it stands into memory, every write is refused with
`JournalWriteError`, and a thread tries every `RETRY_S` seconds to open it for writing again.
A write that finds the journal turned read-only stops writing the same way.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

from scoreboard import readonly
from scoreboard.journal import schema
from scoreboard.journal.card import _card, _card_failure, _probe_write, _read_only
from scoreboard.journal.errors import JournalError, JournalWriteError, _advice, _Unreadable
from scoreboard.journal.schema import _LOST, _SINCE, _check_file
from scoreboard.journal.transaction import _Transaction
from scoreboard.journal_lock import JournalInUse, JournalLock

log = logging.getLogger("scoreboard.journal")  # one logger for the package, as before its split

RETRY_S = 3.0
"""While nothing can be saved, the journal tries this often to open for writing again."""


class Connection:
    """The journal's connection to its file at `path`, and its life on a failing card. With
    `exclusive` (a service), it holds the journal's lock (`scoreboard.journal_lock`) while it is
    open: a second service is refused with a sentence naming the first (JournalError).

    Opening never depends on writing: a journal that cannot be opened for writing (a full,
    read-only or failing card) is read as it stands into memory (`scoreboard.readonly`), every
    write is refused with `JournalWriteError`, `unwritable` says why in a sentence for the
    pages, and every `retry_s` seconds the journal tries again to open for writing; once it
    can, it saves again and calls what `when_writable` was given."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        clock: Callable[[], float] = time.time,
        *,
        exclusive: bool = False,
        retry_s: float = RETRY_S,
    ):
        self.path = Path(path)
        self._clock = clock
        self._lock = threading.Lock()
        self._in_play: tuple[int, str, Callable[[], bool]] | None = None  # (game, where, playing)
        self.damaged: list[str] = []  # what was found damaged, for the page (and said in the log)
        self.results_version = 0  # counts changes to the results (the tally reads them again)
        self.unwritable: str | None = None  # why nothing can be saved now (None: it can)
        self._cannot_write: sqlite3.Error | None = None  # what stopped it, for JournalWriteError
        self._owner = JournalLock(self.path) if exclusive else None
        self._writable_again: list[Callable[[], None]] = []
        self._closed = threading.Event()
        self._retry_s = retry_s
        self._retrying = False  # a thread tries to open for writing again
        self._retry_lock = threading.Lock()
        self._run_token: str | None = None  # a token made while it could not be kept
        try:
            self._db, lost = self._open_for_writing()
        except JournalInUse as exc:
            raise JournalError(str(exc)) from None
        except (sqlite3.Error, JournalWriteError, OSError) as exc:
            cause = _card_failure(exc, self.path)
            if cause is None:  # not the card: a path that cannot hold a journal
                if isinstance(exc, OSError):
                    raise
                raise JournalError(
                    f"cannot open the journal {self.path}: {exc}. It was left as it was."
                ) from None
            self._db, lost = self._open_read_only(cause)  # read as it stands
        for table in lost:
            self.report_damage(f"the journal had lost its {table} table: {_LOST[table in _SINCE]}")

    def report_damage(self, problem: str) -> None:
        """Keep `problem` for the page and say it in the log, once."""
        if problem not in self.damaged:
            self.damaged.append(problem)
            log.warning("%s", problem)

    def when_writable(self, callback: Callable[[], None]) -> None:
        """Call `callback` (from the journal's own thread) once a journal opened when nothing
        could be saved can be written again."""
        self._writable_again.append(callback)

    def _move_aside(self, reason: str) -> None:
        """The file cannot be read at all: keep it (and its WAL) under another name, untouched,
        and start a new journal, so the table plays on tonight and nothing is overwritten."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        for suffix in ("", "-wal", "-shm"):
            part = Path(f"{self.path}{suffix}")
            if part.exists():
                part.rename(f"{aside}{suffix}")
        self.report_damage(
            f"the journal {self.path} could not be read ({reason}): moved aside to {aside}; "
            "a new journal was started"
        )

    def _open_for_writing(self) -> tuple[sqlite3.Connection, list[str]]:
        """Check the file (a file that is not ours is refused: JournalError), take the lock,
        move an unreadable file aside and open read-write, making a new journal or upgrading
        an older one: (the connection, the tables found lost, made again empty). Anything
        that cannot be written raises (sqlite3.Error, OSError, JournalWriteError)."""
        try:
            _check_file(self.path)
            unreadable = None
        except _Unreadable as exc:
            unreadable = str(exc)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self._owner is not None:
            self._owner.acquire()
        if unreadable is not None:
            self._move_aside(unreadable)
            if self._owner is not None:
                self._owner.renewed()
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            lost = self._prepare(db)
            _probe_write(db)
            if self._run_token is not None:  # the token the pages were given meanwhile
                with _Transaction(lambda: db, self._lock):
                    db.execute(
                        "INSERT OR IGNORE INTO meta(key, value) VALUES ('token', ?)",
                        (self._run_token,),
                    )
        except BaseException:
            db.close()
            raise
        return db, lost

    def _open_read_only(self, cause: sqlite3.Error) -> tuple[sqlite3.Connection, list[str]]:
        """The journal could not be opened for writing (`cause`): read it as it stands into
        memory (an upgrade of an older one is made there), refuse every write, say why, and
        keep trying to open it for writing."""
        self._stop_writing(cause)
        try:
            db = readonly.snapshot(self.path)
            lost = self._prepare(db)  # an older journal is upgraded in memory
        except (sqlite3.Error, JournalWriteError, OSError) as exc:
            db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            lost = self._prepare(db)
            self.report_damage(
                f"the journal {self.path} cannot be read now ({exc}): no game is shown, and it "
                "is left as it is"
            )
        return db, lost

    def _write_failed(self, cause: sqlite3.Error) -> None:
        """A write failed (`cause`, rolled back). If the journal is read-only now (a card that
        turned read-only, or a journal SQLite opened read-only without a word), this connection
        can never write again, even once the card can: stop writing and keep trying to open it
        anew, as a start on a read-only card does. A full disk is left to the next write: the
        same connection saves again once there is space."""
        if self._cannot_write is None and not self._closed.is_set() and _read_only(cause):
            self._stop_writing(sqlite3.OperationalError(f"readonly: {cause}"))

    def _stop_writing(self, cause: sqlite3.Error) -> None:
        """Nothing can be saved (`cause`): refuse every write, say why, and keep trying to open
        the journal for writing."""
        self._cannot_write = cause
        self.unwritable = (
            f"Nothing can be saved now: {_advice(cause)}. The games are shown as they stand; "
            "saving starts again by itself once it is fixed."
        )
        log.warning("the journal %s: %s", self.path, self.unwritable)
        with self._retry_lock:  # one thread tries again, however many writes failed
            if self._retrying:
                return
            self._retrying = True
        threading.Thread(target=self._keep_trying, name="journal-retry", daemon=True).start()

    def _keep_trying(self) -> None:
        """Open for writing every `retry_s` seconds until it works (or the journal closes);
        then save from now on, and say so."""
        while not self._closed.wait(self._retry_s):
            if _card(self.path) in ("full", "read-only"):
                continue  # not worth a try (nor the file's check): nothing has changed
            try:
                db, lost = self._open_for_writing()
            except (JournalError, JournalInUse, sqlite3.Error, JournalWriteError, OSError):
                continue
            with self._lock:
                if self._closed.is_set():
                    db.close()
                    return
                # the memory copy is left to readers still holding it, and to the collector
                with self._retry_lock:  # before saving starts: a failure from now on retries
                    self._retrying = False
                self._db, self.unwritable, self._cannot_write = db, None, None
                self.results_version += 1
            for table in lost:
                self.report_damage(f"the journal had lost its {table} table: {_LOST[True]}")
            log.warning("the journal %s can be written again: saving again", self.path)
            for callback in list(self._writable_again):
                callback()
            return

    def _prepare(self, db: sqlite3.Connection) -> list[str]:
        """Make a new journal's tables, or upgrade an older one, on `db` (`schema.prepare`);
        returns the tables found lost, which are made again, empty."""
        return schema.prepare(db, self._lock, self.path)

    def close(self) -> None:
        self._closed.set()
        with self._lock:
            self._db.close()
        if self._owner is not None:
            self._owner.release()

    def describe_owner(self, where: str) -> None:
        """Say in the journal's lock file where this service serves (`exclusive` only), so a
        second one is refused with it."""
        if self._owner is not None:
            self._owner.describe(where)

    def _tx(self) -> _Transaction:
        return _Transaction(self._writable, self._lock, self._write_failed)

    def _writable(self) -> sqlite3.Connection:
        """The connection to write on (under the lock); JournalWriteError while nothing can
        be saved."""
        if self._cannot_write is not None:
            raise JournalWriteError(self._cannot_write)
        return self._db
