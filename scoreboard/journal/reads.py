"""The journal's reads: its games, a game's entries and the table folded from them, a digital
game's record, the results. Every row is checked as it is read: a damaged one is set aside and
said (`DamagedGame`, `report_damage`), never a traceback, and the file is left as it is."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from typing import Any

from engine import sheets
from engine.protocol import GameState, score_sheet
from engine.record import RecordError, replay_objects
from engine.score_sheet import EntryError, Sheet
from scoreboard.journal.connection import Connection
from scoreboard.journal.errors import DamagedGame, UnknownGameError
from scoreboard.journal.rows import DigitalKept, GameInfo, Logged, Result

ENDED_KEY = "'ended:' || g.id"
"""The `meta` key that marks game g ended unfinished by the host (`Writes.end_digital`): a mark
beside the game, so the journal's tables keep their shapes (and a backup of it, its rows)."""


class Reads(Connection):
    """What the journal holds, read on its one connection (in memory while nothing can be
    saved)."""

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
            "EXISTS(SELECT 1 FROM results r WHERE r.game = g.id), "
            f"EXISTS(SELECT 1 FROM meta m WHERE m.key = {ENDED_KEY}) FROM games g {where} "
            f"ORDER BY g.id {order}{page}",
            args,
        ).fetchall()
        return [
            GameInfo(
                i, self._name(i, kind, name), self._created(i, created), n, bool(d), bool(o),
                bool(e),
            )
            for i, kind, name, created, n, d, o, e in rows
        ]  # fmt: skip

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
        order = "over OR ended, g.id DESC" if in_play else "g.id DESC"
        row = self._db.execute(
            "SELECT g.id, g.created, EXISTS(SELECT 1 FROM results x WHERE x.game = g.id) AS over, "
            f"EXISTS(SELECT 1 FROM meta m WHERE m.key = {ENDED_KEY}) AS ended "
            f"FROM records r JOIN games g ON g.id = r.game ORDER BY {order} LIMIT 1"
        ).fetchone()
        if row is None:
            return None
        game, created, finished, ended = row
        kept = self.record(game)
        assert kept is not None, "its records row was just read"
        return DigitalKept(game, created, kept[0], kept[1], bool(finished), bool(ended))

    def finished(self, game: int) -> bool:
        """Game `game` is over: its result is kept (`add_result`)."""
        return bool(self._db.execute("SELECT 1 FROM results WHERE game=?", (game,)).fetchone())

    def won_at(self, game: int) -> float | None:
        """When game `game`'s result was kept (None: it has none, or its time is damaged)."""
        row = self._db.execute(
            "SELECT t FROM results WHERE game=? ORDER BY id LIMIT 1", (game,)
        ).fetchone()
        ok = row is not None and isinstance(row[0], int | float) and not isinstance(row[0], bool)
        return float(row[0]) if ok else None

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

    def load(self, game: int | None) -> Sheet:
        """The game folded from its entries, through its ruleset's score sheet
        (`engine.sheets`), with the hands its record holds if the engine played it (digital
        play: `played_hands`); DamagedGame if they no longer read or replay."""
        return self.folded(game, self.entries(game))

    def folded(self, game: int | None, logged: list[Logged]) -> Sheet:
        """`load` of game `game` from `logged`: its entries, or those of them a page may see
        (the record's hands are every page's: digital play shows a move only once kept)."""
        try:
            sheet = sheets.fold((x.entry for x in logged), sheets.home())
        except (EntryError, KeyError, TypeError, ValueError) as exc:
            raise DamagedGame(game, f"its entries do not replay ({exc})") from None
        if game is None or sheet.game is None or not self.played(game):
            return sheet
        try:
            return sheets.played(sheet, self.played_hands(game))
        except (EntryError, KeyError, TypeError, ValueError) as exc:
            raise DamagedGame(game, f"its record's hands do not score ({exc})") from None

    def played(self, game: int) -> bool:
        """Game `game` is one the engine plays (digital play keeps its record): its hands are
        its record's, not entries."""
        row = self._db.execute("SELECT 1 FROM records WHERE game=?", (game,)).fetchone()
        return row is not None

    def played_hands(self, game: int) -> list[dict[str, Any]]:
        """The hands digital game `game` has finished, as its record replays them
        (`engine.protocol.ScoreSheet.finished_hands`; none for a game without points). A
        record damaged from some move on gives the hands before that move, and says so."""
        try:
            row = self._db.execute("SELECT setup FROM records WHERE game=?", (game,)).fetchone()
            header = None if row is None else _setup(row[0])["header"]
        except (ValueError, sqlite3.OperationalError) as exc:
            self.report_damage(f"game {game}'s record cannot be read ({exc}): no hand of it shows")
            return []
        if header is None:
            return []
        events, problem = self._readable_events(game)
        state: GameState | None
        try:
            state, _ = replay_objects(enumerate((header, *events), start=1))
        except RecordError as exc:
            state, problem = getattr(exc, "game", None), problem or str(exc)
        if problem is not None:
            self.report_damage(
                f"game {game}'s record is damaged ({problem}): its score sheet shows the hands "
                "before the damage, and the record was left as it is"
            )
        points = None if state is None else score_sheet(state)
        return [] if points is None else points.finished_hands()

    def _readable_events(self, game: int) -> tuple[list[dict[str, Any]], str | None]:
        """The record's events up to the first that does not read, and why that one does not."""
        events: list[dict[str, Any]] = []
        rows = self._db.execute("SELECT id, event FROM moves WHERE game=? ORDER BY id", (game,))
        try:
            for i, text in rows:
                events.append(_event(text, i))
        except (ValueError, sqlite3.OperationalError) as exc:
            return events, f"move {len(events) + 1} cannot be read: {exc}"
        return events, None

    def _require(self, game: int) -> None:
        if not self._db.execute("SELECT 1 FROM games WHERE id=?", (game,)).fetchone():
            raise UnknownGameError(f"no game {game} in this journal")

    def _info(self, game: int) -> GameInfo:
        for g in self.games(before=game + 1, limit=1):
            if g.id == game:
                return g
        raise UnknownGameError(f"no game {game} in this journal")


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
