"""The journal: the table's entries in SQLite, the source of truth across restarts.

Every entry is committed in its own transaction (WAL, `synchronous=FULL`) before `append`
returns, and the display shows an entry only after that, so a power cut or `kill -9` at any
moment loses nothing that was shown. A game is the fold of its entries (`engine.disney.table.fold`);
undo is a compensating entry, never a deletion. Only a whole game can be deleted, and only with
its confirmation phrase.

One schema for every ruleset. A game is a `games` row. A game with points has a score sheet: its
entries. A digital game, of any ruleset, also keeps its game record (`records`: how it was set
up; `moves`: every game-record event, in order), written before a page shows the move, so the
game in play is replayed exactly after a restart and the record can be exported long after. A
finished game's winner is a `results` row, for every ruleset; the scoreboard tallies the wins of
the games that have no score sheet (UNO Elite has no points) from them.

A file that is not ours (another application's database, a corrupt file, a text file) is refused
with a message and opened read-only for the check, so it is never modified. An older journal is
upgraded on open in one transaction (a crash part-way leaves it as it was), then the space
of the tables it dropped is given back (VACUUM, when the card has room for it).
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import errno
import io
import json
import logging
import os
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from engine import record
from engine.disney import table as T
from scoreboard import readonly
from scoreboard.journal_lock import JournalInUse, JournalLock
from scoreboard.names import game_name

log = logging.getLogger(__name__)

APPLICATION_ID = 0x54696E6B  # "Tink": marks a SQLite file as a tinker-tray journal
SCHEMA_VERSION = 4
"""2: records and moves of digital games; 3: UNO Elite's own tables (`elite_games`,
`elite_moves`, `elite_results`); 4: one schema, those folded into `games`, `records`, `moves` and
`results`."""
_SQLITE_MAGIC = b"SQLite format 3\x00"
_TOKEN = re.compile(rb"[A-Za-z0-9_-]{8,64}")
"""A kept token that still works (`secrets.token_urlsafe`); anything else is made anew."""

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
RETRY_S = 3.0
"""While nothing can be saved, the journal tries this often to open for writing again."""


class JournalError(Exception):
    """The journal file cannot be used; the message says why and what to do."""


class JournalWriteError(Exception):
    """The journal could not save a write (a full or failing SD card, a read-only file): nothing
    was changed, and the message says so in a sentence for the page (HTTP 503)."""

    def __init__(self, cause: sqlite3.Error):
        super().__init__(
            f"not saved: {_advice(cause)}. Nothing was changed; try again once it is fixed."
        )
        self.reason = str(cause)


def _advice(cause: sqlite3.Error) -> str:
    """What stopped a write, in words for the page."""
    reason = str(cause)
    if "full" in reason:
        return "the disk is full; free some space"
    if "readonly" in reason or "read-only" in reason:
        return "the journal cannot be written (read-only)"
    return f"the disk or the journal failed ({reason})"


class DamagedGame(JournalError):
    """A game whose journal rows no longer read (not JSON, not UTF-8, or entries that do not
    replay): it is set aside as it is, and the page and the log say which and why."""

    def __init__(self, game: int | None, why: str):
        which = f"game {game}" if game is not None else "the picks made with no game"
        super().__init__(f"{which} is damaged: {why}. It was left as it is")
        self.game = game


class _Unreadable(Exception):
    """The file is an SQLite database SQLite cannot read: it is moved aside, never written."""


class ConfirmError(ValueError):
    """A destructive request without its confirmation phrase."""


class InPlayError(ValueError):
    """A game that is being played cannot be deleted (HTTP 409, with the sentence)."""


class UnknownGameError(LookupError):
    """A game id that the journal does not hold."""


@dataclasses.dataclass(frozen=True, slots=True)
class GameInfo:
    id: int
    name: str
    created: float
    entries: int
    digital: bool = False  # played in digital play: its game record is kept too
    finished: bool = False  # its result is kept (`add_result`): the game is over


@dataclasses.dataclass(frozen=True, slots=True)
class Result:
    """One finished game, of any ruleset: who played, in seat order, and who won."""

    id: int
    game: int | None  # the kept game it ends (None: kept without its game)
    t: float
    players: tuple[str, ...]
    winner: int
    ruleset: str
    mode: str | None = None  # the ruleset's mode, if it has several
    scored: bool = False  # its game has a score sheet (points): the sheet says who won


@dataclasses.dataclass(frozen=True, slots=True)
class DigitalKept:
    """A digital game's record as the journal keeps it (any ruleset)."""

    game: int
    created: float
    setup: dict[str, Any]  # the record's header (`setup["header"]`) and who plays each seat
    events: list[dict[str, Any]]
    finished: bool  # its result is kept (`add_result`)


class NoScoreSheetError(UnknownGameError):
    """A game without points (UNO Elite) has no score sheet to export: its record has it all."""


@dataclasses.dataclass(frozen=True, slots=True)
class Logged:
    id: int
    t: float
    entry: dict[str, Any]


class Journal:
    """The journal at `path`. With `exclusive` (a service), it holds the journal's lock
    (`scoreboard.journal_lock`) while it is open: a second service is refused with a sentence
    naming the first (JournalError).

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
        """Make a new journal's tables, or upgrade an older one, on `db`; returns the tables
        found lost, which are made again, empty."""
        db.execute("PRAGMA foreign_keys=ON")
        new = db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID
        version = SCHEMA_VERSION if new else db.execute("PRAGMA user_version").fetchone()[0]
        names = {n for (n,) in db.execute("SELECT name FROM sqlite_master")}
        since = {**_SINCE, **_ELITE_TABLES} if version == 3 else _SINCE
        lost = [t for t, v in since.items() if v <= version and t not in names and not new]
        if new or lost or version < SCHEMA_VERSION:
            with _Transaction(lambda: db, self._lock):
                _make_tables(db)
                if version < SCHEMA_VERSION:
                    _fold_elite_tables(db, names)
                if new:
                    db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        if not new and version < SCHEMA_VERSION:
            _give_back_freed_pages(db, self.path)
        return lost

    # --- writing: one transaction per call ---

    def create_game(self, start: Mapping[str, Any], name: str | None = None) -> int:
        """A new game whose first entry is `start`; returns its id."""
        with self._tx():
            now = self._clock()
            game = self._new_game(name, now)
            self._insert(game, start, now)
        return game

    def append(self, game: int | None, entry: Mapping[str, Any]) -> int:
        """Commit `entry` to `game` (None: a pick with no game) and return its id."""
        with self._tx():
            if game is not None:
                self._require(game)
            return self._insert(game, entry)

    def hold(
        self, game: int | None, why: str = "", playing: Callable[[], bool] = lambda: True
    ) -> None:
        """Mark `game` as in play while `playing()` says so (None: no game is); until then it
        cannot be deleted, and `why` says where it is played (one at a time: digital play has
        one game)."""
        with self._lock:
            self._in_play = None if game is None else (game, why, playing)

    def delete_game(self, game: int, confirm: str) -> None:
        """Delete a game and its entries; `confirm` must be exactly `delete game <id>`, and the
        game must not be in play (`hold`): its next move would have nowhere to go."""
        phrase = f"delete game {game}"
        with self._tx():
            self._require(game)
            held = self._in_play
            if held is not None and held[0] == game and held[2]():
                raise InPlayError(
                    f"game {game} is being played in {held[1]}: finish it, or start "
                    "another game there, before deleting it"
                )
            if confirm != phrase:
                raise ConfirmError(f"to delete game {game}, confirm with the words {phrase!r}")
            self._db.execute("DELETE FROM results WHERE game=?", (game,))
            self._db.execute("DELETE FROM moves WHERE game=?", (game,))
            self._db.execute("DELETE FROM records WHERE game=?", (game,))
            self._db.execute("DELETE FROM entries WHERE game=?", (game,))
            self._db.execute("DELETE FROM games WHERE id=?", (game,))
            self.results_version += 1

    def start_digital(
        self, setup: Mapping[str, Any], *, game: int | None = None, name: str | None = None
    ) -> int:
        """Keep a new digital game of any ruleset: `setup` is its record's header
        (`setup["header"]`) and who plays each seat. It is a new game (`name`, or "digital
        game"), or with `game`, the record of that game (a table game whose score sheet follows
        the digital one). Returns the game's id."""
        if not isinstance(setup.get("header"), Mapping):
            raise ValueError("a digital game's setup holds its record's header")
        text = _json(setup)
        with self._tx():
            if game is None:
                game = self._new_game(name or "digital game", self._clock())
            else:
                self._require(game)
                if self._db.execute("SELECT 1 FROM records WHERE game=?", (game,)).fetchone():
                    raise ValueError(f"game {game} already has its game record")
            self._db.execute("INSERT INTO records(game, setup) VALUES (?, ?)", (game, text))
        return game

    def append_moves(
        self, game: int, events: list[Mapping[str, Any]], revised: Mapping[str, Any] | None = None
    ) -> None:
        """Commit the game-record events that followed, all in one transaction. `revised` is
        the game's latest move as it stands now, if it grew since it was kept (a player's
        discard is one event whose cards are added as they are laid)."""
        with self._tx():
            if not self._db.execute("SELECT 1 FROM records WHERE game=?", (game,)).fetchone():
                raise UnknownGameError(f"game {game} has no record in this journal")
            if revised is not None:
                self._db.execute(
                    "UPDATE moves SET event=? WHERE id=(SELECT MAX(id) FROM moves WHERE game=?)",
                    (_json(revised), game),
                )
            self._db.executemany(
                "INSERT INTO moves(game, event) VALUES (?, ?)", [(game, _json(e)) for e in events]
            )

    def add_result(
        self,
        game: int | None,
        players: list[str],
        winner: int,
        ruleset: str,
        *,
        mode: str | None = None,
    ) -> int:
        """Keep who won finished game `game` (None: a result kept without its game): its
        players in seat order, the winning seat, its ruleset (and mode). A game ends once."""
        if not players or not all(isinstance(p, str) for p in players):
            raise ValueError("the players are a list of names, in seat order")
        if (
            isinstance(winner, bool)
            or not isinstance(winner, int)
            or not 0 <= winner < len(players)
        ):
            raise ValueError(f"the winner is a seat from 0 to {len(players) - 1}, not {winner}")
        with self._tx():
            if game is not None:
                self._require(game)
                if self._db.execute("SELECT 1 FROM results WHERE game=?", (game,)).fetchone():
                    raise ValueError(f"game {game} is over already: its result is kept")
            cur = self._db.execute(
                "INSERT INTO results(game, t, players, winner, ruleset, mode) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game, self._clock(), json.dumps(players), winner, ruleset, mode),
            )
            self.results_version += 1
            return _row_id(cur)

    # --- backup and restore (`scoreboard.backup`) ---

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

    def token(self) -> str:
        """The table's write token, made once and kept, so phones stay paired across restarts
        (while nothing can be saved, a new one is kept once it can). A kept token that is
        damaged (empty, not text, not a token) is made anew, kept and said, as on a first
        start: otherwise nobody could ever become host."""
        kept, _found = _kept_token(self._db)
        if kept is not None:
            return kept
        if self._cannot_write is None:
            try:
                with self._tx():
                    kept, found = _kept_token(self._db)
                    if kept is not None:
                        return kept
                    value = secrets.token_urlsafe(12)
                    self._db.execute(
                        "INSERT OR REPLACE INTO meta(key, value) VALUES ('token', ?)", (value,)
                    )
            except JournalWriteError as exc:  # kept once it can be: saving stops until then
                self._stop_writing(sqlite3.OperationalError(exc.reason))
            else:
                if found:
                    self.report_damage(
                        "the table's token was damaged: a new one was made (pair again)"
                    )
                return value
        with self._lock:
            self._run_token = self._run_token or secrets.token_urlsafe(12)
            return self._run_token

    def new_token(self) -> str:
        """A new table token, kept in place of the old one, which works no more ("New table
        key": a leaked token locks nobody in). JournalWriteError while nothing can be saved:
        a key a restart would forget must not replace the one it would bring back."""
        value = secrets.token_urlsafe(12)
        with self._tx():
            self._db.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES ('token', ?)", (value,)
            )
        with self._lock:
            self._run_token = None
        return value

    # --- reading ---

    def games(self, *, before: int | None = None, limit: int | None = None) -> list[GameInfo]:
        """Every kept game, oldest first; with `limit`: a page of them, newest first (those
        older than game `before`, if given)."""
        where, order, args = "", "ASC", []
        if limit is not None:
            order = "DESC"
            if before is not None:
                where, args = "WHERE g.id < ?", [before]
        page = f" LIMIT {int(limit)}" if limit is not None else ""
        rows = self._db.execute(
            "SELECT g.id, typeof(g.name), CAST(g.name AS BLOB), g.created, "
            "(SELECT COUNT(*) FROM entries e WHERE e.game = g.id), "
            "EXISTS(SELECT 1 FROM records r WHERE r.game = g.id), "
            f"EXISTS(SELECT 1 FROM results r WHERE r.game = g.id) FROM games g {where} "
            f"ORDER BY g.id {order}{page}",
            args,
        ).fetchall()
        return [
            GameInfo(i, self._name(i, kind, name), self._created(i, created), n, bool(d), bool(o))
            for i, kind, name, created, n, d, o in rows
        ]

    def _name(self, game: int, kind: str, raw: bytes | None) -> str:
        """A game's name as kept; one that is not text (a BLOB, bytes that are not UTF-8) is
        shown as "Game N (name damaged)", said once, and left as it is in the file."""
        if kind == "text" and raw is not None:
            with contextlib.suppress(UnicodeDecodeError):
                return raw.decode()
            why = "it is not UTF-8 text"
        else:
            why = f"it is stored as {kind}, not text"
        self.report_damage(f"game {game}'s name is damaged ({why}): it was left as it is")
        return f"Game {game} (name damaged)"

    def _created(self, game: int, created: object) -> float:
        """When a game was started; one that is not a time is shown as 0 (and said)."""
        if isinstance(created, int | float) and not isinstance(created, bool):
            return float(created)
        self.report_damage(f"game {game}'s start time is damaged: it was left as it is")
        return 0.0

    def latest_game(self) -> int | None:
        """The newest game with a score sheet (the table's game; a game without points, such as
        UNO Elite's, has none)."""
        row = self._db.execute(
            "SELECT g.id FROM games g WHERE EXISTS(SELECT 1 FROM entries e WHERE e.game = g.id) "
            "ORDER BY g.id DESC LIMIT 1"
        ).fetchone()
        return None if row is None else row[0]

    def entries(self, game: int | None) -> list[Logged]:
        """A game's entries in order (None: the picks made while no game existed)."""
        if game is not None:
            self._require(game)
            rows = self._db.execute(
                "SELECT id, t, entry FROM entries WHERE game=? ORDER BY id", (game,)
            )
        else:
            rows = self._db.execute(
                "SELECT id, t, entry FROM entries WHERE game IS NULL ORDER BY id"
            )
        try:
            return [Logged(i, t, _entry(e, i)) for i, t, e in rows]
        except sqlite3.OperationalError as exc:  # bytes that are not UTF-8 text
            raise DamagedGame(game, f"an entry cannot be read ({exc})") from None
        except ValueError as exc:
            raise DamagedGame(game, str(exc)) from None

    def record(self, game: int) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """(setup, events) of digital game `game`; None for a game played at the table.
        DamagedGame if they no longer read."""
        try:
            row = self._db.execute("SELECT setup FROM records WHERE game=?", (game,)).fetchone()
            if row is None:
                return None
            return _setup(row[0]), self._events(game)
        except (ValueError, sqlite3.OperationalError) as exc:
            raise DamagedGame(game, f"its game record cannot be read ({exc})") from None

    def _events(self, game: int) -> list[dict[str, Any]]:
        rows = self._db.execute("SELECT id, event FROM moves WHERE game=? ORDER BY id", (game,))
        return [_event(e, i) for i, e in rows]

    def latest_digital(self, *, in_play: bool = False) -> DigitalKept | None:
        """The newest digital game, of any ruleset, with its record (`in_play`: the newest one
        not yet finished, else the newest, shown as it ended); None if there is none.
        DamagedGame if its record no longer reads (it is left as it is).

        Newest in the journal's own order (a new `games` row always takes an id above every
        kept one), never by its `created` time: a Pi without a real-time clock may start with
        its clock hours or days back, and the game started last must still be the one that
        comes back. The game in play is never a finished one while an unfinished one is kept
        (a game the upgrade from version 3 folded in took an id after the others, whenever it
        was played)."""
        order = "over, g.id DESC" if in_play else "g.id DESC"
        row = self._db.execute(
            "SELECT g.id, g.created, EXISTS(SELECT 1 FROM results x WHERE x.game = g.id) AS over "
            f"FROM records r JOIN games g ON g.id = r.game ORDER BY {order} LIMIT 1"
        ).fetchone()
        if row is None:
            return None
        game, created, finished = row
        kept = self.record(game)
        assert kept is not None, "its records row was just read"
        return DigitalKept(game, created, kept[0], kept[1], bool(finished))

    def export_record(self, game: int) -> str:
        """The game record of digital game `game` (`tinker-tray-record/1`, JSON Lines)."""
        self._require(game)
        saved = self.record(game)
        if saved is None:
            raise UnknownGameError(f"game {game} was played at the table: it has no game record")
        setup, events = saved
        return record.as_text(setup["header"], events)

    def finished(self, game: int) -> bool:
        """Game `game` is over: its result is kept (`add_result`)."""
        return bool(self._db.execute("SELECT 1 FROM results WHERE game=?", (game,)).fetchone())

    def results(self) -> list[Result]:
        """Every finished game's result, oldest first (a damaged one is said, and not counted)."""
        rows = self._db.execute(
            "SELECT r.id, r.game, r.t, CAST(r.players AS BLOB), r.winner, "
            "CAST(r.ruleset AS BLOB), CAST(r.mode AS BLOB), "
            "EXISTS(SELECT 1 FROM entries e WHERE e.game = r.game) FROM results r ORDER BY r.id"
        ).fetchall()
        results = []
        for i, game, t, players, winner, ruleset, mode, scored in rows:
            try:
                results.append(_result(i, game, t, players, winner, ruleset, mode, bool(scored)))
            except ValueError as exc:  # set aside; the others still count
                self.report_damage(f"result {i} is damaged ({exc}): it is not counted")
        return results

    def last_id(self) -> int:
        return self._db.execute("SELECT COALESCE(MAX(id), 0) FROM entries").fetchone()[0]

    def load(self, game: int | None) -> T.Table:
        """The game folded from its entries; DamagedGame if they no longer read or replay."""
        entries = self.entries(game)
        try:
            return T.fold(x.entry for x in entries)
        except (T.EntryError, KeyError, TypeError, ValueError) as exc:
            raise DamagedGame(game, f"its entries do not replay ({exc})") from None

    def export_json(
        self, game: int, shown: Callable[[Mapping[str, Any]], bool] | None = None
    ) -> str:
        """The game as JSON: its hands, totals and every entry (`shown`: only the entries it
        accepts; the table session leaves out a pick whose lights are still spinning)."""
        info = self._info(game)
        logged = [x for x in self.entries(game) if shown is None or shown(x.entry)]
        g = _sheet(game, T.fold(x.entry for x in logged))
        doc = {
            "format": "tinker-tray game",
            "version": 1,
            "game": {"id": info.id, "name": info.name, "created": info.created},
            "players": list(g.players),
            "options": g.opts,
            "hands": [h.as_dict(n) for n, h in enumerate(g.hands, start=1)],
            "totals": list(g.sheet.scores) if g.sheet else [],
            "winner": g.winner_names(),
            "entries": [{"id": x.id, "t": x.t, **x.entry} for x in logged],
        }
        return json.dumps(doc, indent=1)

    def export_csv(self, game: int) -> str:
        """The score sheet: one row per hand with what each player scored and their total.
        No text cell can run as a formula in a spreadsheet (`_cell`)."""
        g = _sheet(game, T.fold(x.entry for x in self.entries(game)))
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(
            _cell(c)
            for c in ["hand", "dealer", "went out"]
            + [f"{p} scored" for p in g.players]
            + [f"{p} total" for p in g.players]
        )
        for n, h in enumerate(g.hands, start=1):
            people = (g.players[h.dealer], g.players[h.winner])
            w.writerow([n, *map(_cell, people), *h.delta, *h.totals])
        return out.getvalue()

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

    # --- internals ---

    def _new_game(self, name: str | None, now: float) -> int:
        """A new `games` row; its name is checked first (`scoreboard.names`: NameRefused, and
        nothing written, for one no page could show), "Game N" if it has none."""
        kept = game_name(name)
        cur = self._db.execute("INSERT INTO games(created, name) VALUES (?, '')", (now,))
        game = _row_id(cur)
        self._db.execute("UPDATE games SET name=? WHERE id=?", (kept or f"Game {game}", game))
        return game

    def _insert(self, game: int | None, entry: Mapping[str, Any], t: float | None = None) -> int:
        text = json.dumps(dict(entry), separators=(",", ":"), sort_keys=True)
        cur = self._db.execute(
            "INSERT INTO entries(game, t, entry) VALUES (?, ?, ?)",
            (game, self._clock() if t is None else t, text),
        )
        return _row_id(cur)

    def _require(self, game: int) -> None:
        if not self._db.execute("SELECT 1 FROM games WHERE id=?", (game,)).fetchone():
            raise UnknownGameError(f"no game {game} in this journal")

    def _info(self, game: int) -> GameInfo:
        for g in self.games(before=game + 1, limit=1):
            if g.id == game:
                return g
        raise UnknownGameError(f"no game {game} in this journal")

    def _tx(self) -> _Transaction:
        return _Transaction(self._writable, self._lock, self._write_failed)

    def _writable(self) -> sqlite3.Connection:
        """The connection to write on (under the lock); JournalWriteError while nothing can
        be saved."""
        if self._cannot_write is not None:
            raise JournalWriteError(self._cannot_write)
        return self._db


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


def _entry(text: str, row: int) -> dict[str, Any]:
    """One row of `entries`, checked as it is read (ValueError naming the row)."""
    try:
        entry = json.loads(text)
    except ValueError:
        raise ValueError(f"entry {row} is not JSON") from None
    if not isinstance(entry, dict) or not isinstance(entry.get("kind"), str):
        raise ValueError(f"entry {row} is not an entry")
    return entry


def _setup(text: str) -> dict[str, Any]:
    """A digital game's setup, checked as it is read (ValueError saying why)."""
    setup = json.loads(text)
    if not isinstance(setup, dict) or not isinstance(setup.get("header"), dict):
        raise ValueError("its setup has no record header")
    return setup


def _event(text: str, row: int) -> dict[str, Any]:
    event = json.loads(text)
    if not isinstance(event, dict):
        raise ValueError(f"move {row} is not a game-record event")
    return event


def _result(
    i: int,
    game: int | None,
    t: float,
    players: bytes,
    winner: int,
    ruleset: bytes,
    mode: bytes | None,
    scored: bool,
) -> Result:
    """One row of `results`, checked as it is read (ValueError saying why)."""
    names = json.loads(players.decode())  # UnicodeDecodeError is a ValueError
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise ValueError("its players are not a list of names")
    if isinstance(winner, bool) or not isinstance(winner, int) or not 0 <= winner < len(names):
        raise ValueError(f"its winner {winner!r} is not one of its {len(names)} seats")
    if not isinstance(t, int | float):
        raise ValueError("its time is not a time")
    kind = ruleset.decode()
    variant = None if mode is None else mode.decode()
    return Result(i, game, float(t), tuple(names), winner, kind, variant, scored)


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


def _kept_token(db: sqlite3.Connection) -> tuple[str | None, bool]:
    """(the kept token if it still works, whether a token row is there at all)."""
    row = db.execute(
        "SELECT typeof(value), CAST(value AS BLOB) FROM meta WHERE key='token'"
    ).fetchone()
    if row is not None and row[0] == "text" and _TOKEN.fullmatch(row[1] or b""):
        return row[1].decode(), True
    return None, row is not None


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


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(text: str) -> str:
    """A text cell a spreadsheet shows as text: one that would start a formula (a name such as
    "=HYPERLINK(...)") gets a leading apostrophe, as OWASP's CSV injection advice says. Numbers
    are written as numbers (a negative score stays a number)."""
    return f"'{text}" if text.startswith(_FORMULA_START) else text


def _sheet(game: int, table: T.Table) -> T.TableGame:
    if table.game is None:
        raise NoScoreSheetError(
            f"game {game} has no score sheet (a game without points): "
            "its game record (.jsonl) holds it all"
        )
    return table.game


def _json(obj: Mapping[str, Any]) -> str:
    return json.dumps(dict(obj), separators=(",", ":"))


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


def _row_id(cursor: sqlite3.Cursor) -> int:
    """The id SQLite gave the row just inserted (always set after an INSERT)."""
    row_id = cursor.lastrowid
    assert row_id is not None, "an INSERT always sets lastrowid"
    return row_id
