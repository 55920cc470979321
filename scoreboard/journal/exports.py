"""What leaves the journal for people: a digital game's record (JSON Lines, replayable), a score
sheet as JSON or as CSV for a spreadsheet (no cell of which can run as a formula)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Mapping
from typing import Any

from engine import record
from engine.score_sheet import KeptGame, Sheet
from scoreboard.journal.errors import NoScoreSheetError, UnknownGameError
from scoreboard.journal.reads import Reads


class Exports(Reads):
    """A kept game as a file to download."""

    def export_record(self, game: int) -> str:
        """The game record of digital game `game` (`tinker-tray-record/1`, JSON Lines)."""
        self._require(game)
        saved = self.record(game)
        if saved is None:
            raise UnknownGameError(f"game {game} was played at the table: it has no game record")
        setup, events = saved
        return record.as_text(setup["header"], events)

    def export_json(
        self, game: int, shown: Callable[[Mapping[str, Any]], bool] | None = None
    ) -> str:
        """The game as JSON: its hands, totals and every entry (`shown`: only the entries it
        accepts; the table session leaves out a pick whose lights are still spinning)."""
        info = self._info(game)
        logged = [x for x in self.entries(game) if shown is None or shown(x.entry)]
        g = _sheet(game, self.folded(game, logged))
        doc = {
            "format": "tinker-tray game",
            "version": 1,
            "game": {"id": info.id, "name": info.name, "created": info.created},
            "players": list(g.players),
            "options": g.opts,
            "hands": [h.as_dict(n) for n, h in enumerate(g.hands, start=1)],
            "totals": list(g.scores),
            "winner": g.winner_names(),
            "entries": [{"id": x.id, "t": x.t, **x.entry} for x in logged],
        }
        return json.dumps(doc, indent=1)

    def export_csv(self, game: int) -> str:
        """The score sheet: one row per hand with what each player scored and their total.
        No text cell can run as a formula in a spreadsheet (`_cell`)."""
        g = _sheet(game, self.load(game))
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(
            _cell(c)
            for c in ["hand", "dealer", "went out"]
            + [f"{p} scored" for p in g.players]
            + [f"{p} total" for p in g.players]
        )
        for n, h in enumerate(g.hands, start=1):
            hand = h.as_dict(n)
            people = (g.players[hand["dealer"]], g.players[hand["winner"]])
            w.writerow([n, *map(_cell, people), *hand["scored"], *hand["totals"]])
        return out.getvalue()


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(text: str) -> str:
    """A text cell a spreadsheet shows as text: one that would start a formula (a name such as
    "=HYPERLINK(...)") gets a leading apostrophe, as OWASP's CSV injection advice says. Numbers
    are written as numbers (a negative score stays a number)."""
    return f"'{text}" if text.startswith(_FORMULA_START) else text


def _sheet(game: int, table: Sheet) -> KeptGame:
    if table.game is None:
        raise NoScoreSheetError(
            f"game {game} has no score sheet (a game without points): "
            "its game record (.jsonl) holds it all"
        )
    return table.game
