"""A digital game in the journal: its record kept move by move, before any page can see a move,
and the game carried on from it after a restart.

The record is the engine's own: its header and every event, chance included, so replaying it
rebuilds the game exactly. Who plays each seat (people's seat keys, the bots, the pace) is kept
beside the header as the game's setup.

A game with points is the record of the table game the scoreboard follows (its finished hands go
on that score sheet too); any other is a game of its own in the journal.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from digital import games
from engine.protocol import GameState


def seating(
    humans: frozenset[int], keys: Mapping[int, str], bots: list[str], pace: float
) -> dict[str, Any]:
    """Who plays each seat, as the journal keeps it (people's seats keep their keys)."""
    return {
        "humans": sorted(humans),
        "keys": {str(s): k for s, k in keys.items()},
        "bots": bots,
        "pace": pace,
    }


class Saved:
    """The journal's copy of one game's record: the setup once the game's header is final
    (`header_ready`: a Disney game's holds its first deal), then each new event. The latest
    event may still grow after it is kept (a discard of several cards is one event), so its
    text is remembered and the journal's copy revised when it changes.

    `game_id`: the table game whose record this is (a game with points), or None until the game
    is first kept (a game of its own, then)."""

    def __init__(
        self,
        journal: Any,
        game_id: int | None,
        setup: Mapping[str, Any],
        events: list[dict[str, Any]] | None = None,
    ):
        self.journal, self.game_id, self.setup = journal, game_id, setup
        self.kept = -1 if events is None else len(events)  # -1: not even the setup yet
        self.last = json.dumps(events[-1]) if events else None
        self.header: dict[str, Any] | None = setup.get("header") if events is not None else None

    def keep(self, game: GameState) -> bool:
        """Commit the events that followed the last kept one; True if anything was written.
        JournalWriteError (or sqlite3.Error, OSError, LookupError) if the journal cannot take
        them: nothing is then counted as kept."""
        wrote = False
        if self.kept < 0:
            if not game.header_ready():
                return False
            header = game.header()
            self._start({**self.setup, "header": header})
            self.kept, self.header, wrote = 0, header, True
        events = game.events
        revised = None
        if self.kept and json.dumps(events[self.kept - 1]) != self.last:
            revised = events[self.kept - 1]
        new = list(events[self.kept :])
        if new or revised is not None:
            self._append(new, revised)
            self.kept = len(events)
            self.last = json.dumps(events[-1])
            wrote = True
        return wrote

    def restore(self, game: GameState) -> GameState | None:
        """The game as the journal holds it (`game` rebuilt from its kept events), or None when
        nothing of it is kept yet."""
        if self.header is None or self.kept < 0:
            return None
        kept = list(game.events[: self.kept])
        if kept and self.last is not None:
            kept[-1] = json.loads(self.last)  # as it was kept, if it grew since
        return games.replay(self.header, kept)

    def _start(self, setup: Mapping[str, Any]) -> None:
        header = setup["header"]
        name = games.kept_name(str(header.get("ruleset", "")), list(header.get("players", [])))
        self.game_id = self.journal.start_digital(setup, game=self.game_id, name=name)

    def _append(self, new: list[dict[str, Any]], revised: dict[str, Any] | None) -> None:
        assert self.game_id is not None
        self.journal.append_moves(self.game_id, new, revised)
