"""The journal's writes, one transaction each: every entry is committed (WAL,
`synchronous=FULL`) before the call returns, so what a page shows is on the card. Undo is a
compensating entry, never a deletion; only a whole game is deleted, with its confirmation phrase,
and never while it is being played. The table's token is kept here too."""

from __future__ import annotations

import json
import re
import secrets
import sqlite3
import time
from collections.abc import Callable, Mapping
from typing import Any

from scoreboard.journal.errors import (
    ConfirmError,
    InPlayError,
    JournalWriteError,
    UnknownGameError,
)
from scoreboard.journal.reads import Reads, _entry
from scoreboard.journal.transaction import _row_id
from scoreboard.names import game_name

_TOKEN = re.compile(rb"[A-Za-z0-9_-]{8,64}")
"""A kept token that still works (`secrets.token_urlsafe`); anything else is made anew."""


class Writes(Reads):
    """Games, entries, digital records and results written; a game checked to be there first."""

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

    def entry(self, entry_id: int) -> dict[str, Any] | None:
        """Entry `entry_id` as kept (None: there is none, or it no longer reads): what Redo
        enters again, read back by its id so the table session keeps ids, not entries."""
        try:
            row = self._db.execute("SELECT entry FROM entries WHERE id=?", (entry_id,)).fetchone()
            return None if row is None else _entry(row[0], entry_id)
        except (ValueError, TypeError, sqlite3.Error):
            return None

    def kinds(self, game: int) -> list[tuple[int, str]]:
        """(id, kind) of game `game`'s entries in order, without decoding each one in Python:
        what Redo's record of undone entries is rebuilt from at a start, for a game of any
        length. Empty for entries that no longer read (the game is set aside then anyway)."""
        try:
            rows = self._db.execute(
                "SELECT id, json_extract(entry, '$.kind') FROM entries WHERE game=? ORDER BY id",
                (game,),
            ).fetchall()
        except sqlite3.Error:
            return []
        return [(i, k) for i, k in rows if isinstance(k, str)]

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
            self._db.execute("DELETE FROM meta WHERE key=?", (f"ended:{game}",))
            self.results_version += 1

    def end_digital(self, game: int) -> None:
        """Mark game `game` ended unfinished by the host: its record stays as it stood, the list
        of kept games says so, and a restart never plays it on."""
        with self._tx():
            self._require(game)
            self._db.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
                (f"ended:{game}", json.dumps(time.time())),
            )

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


def _kept_token(db: sqlite3.Connection) -> tuple[str | None, bool]:
    """(the kept token if it still works, whether a token row is there at all)."""
    row = db.execute(
        "SELECT typeof(value), CAST(value AS BLOB) FROM meta WHERE key='token'"
    ).fetchone()
    if row is not None and row[0] == "text" and _TOKEN.fullmatch(row[1] or b""):
        return row[1].decode(), True
    return None, row is not None


def _json(obj: Mapping[str, Any]) -> str:
    return json.dumps(dict(obj), separators=(",", ":"))
