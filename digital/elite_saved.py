"""A digital UNO Elite game in the journal: its record kept move by move (before any page can
see the move, as for the other rulesets), and the game carried on from it after a restart.

The journal keeps Elite games apart from the table's games (`elite_games`, `elite_moves`): an
Elite game has no score sheet for the table's fold to read. The record is the engine's own
(`engine.elite.record`): its header (players, options, the deck and the Elite cards) and every
event, chance included, so replaying it rebuilds the game exactly.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from digital import elite_game
from digital.elite_link import EliteLink
from engine.elite import EliteGame
from engine.elite import record as elite_record
from engine.record import RecordError
from tray.bus import Bus


class EliteSaved:
    """The journal's copy of one Elite game's record: `kept` events of it so far."""

    def __init__(self, journal: Any, game_id: int, kept: int = 0) -> None:
        self.journal, self.game_id, self.kept = journal, game_id, kept

    @classmethod
    def start(cls, journal: Any, game: EliteGame, seating: Mapping[str, Any]) -> EliteSaved:
        """Keep a new game: who plays each seat, and its header."""
        return cls(journal, journal.start_elite_game({**seating, "header": game.header()}))

    def keep(self, game: EliteGame) -> None:
        """Commit the events that followed the last kept one."""
        new = game.events[self.kept :]
        if new:
            self.journal.append_elite_moves(self.game_id, list(new))
            self.kept = len(game.events)


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


def resume(bus: Bus, kept: Any) -> tuple[EliteLink, dict[int, str]]:
    """The link (not started) and the seat keys of a kept game, replayed from its record.
    RecordError, KeyError, TypeError or ValueError if the record no longer replays."""
    setup = kept.setup
    header = setup["header"]
    game, _ = elite_record.replay_objects(enumerate((header, *kept.events), start=1))
    humans = frozenset(int(s) for s in setup["humans"])
    keys = {int(s): str(k) for s, k in setup["keys"].items()}
    link = elite_game.link(
        bus, game, humans, list(setup["bots"]), random.SystemRandom(), float(setup["pace"])
    )
    return link, keys


RESUME_ERRORS = (RecordError, KeyError, TypeError, ValueError)
