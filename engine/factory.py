"""The engine's one factory: a game of any ruleset read back from its record, and what a replay
prints of it. The one place where a ruleset's name chooses code (UNO Elite has its own game and
record reader, `engine.elite`): the layers above ask here, or ask the game, never the name.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

from engine import record
from engine.elite import EliteGame
from engine.elite import record as elite_record
from engine.game import Game
from engine.protocol import GameState

ELITE = "elite"
"""UNO Elite's ruleset name, as a record's header writes it."""


def game_from_header(header: dict[str, Any], line: int = 1) -> GameState:
    """A new game from a record's header, by the ruleset it names (RecordError if it is bad)."""
    if header.get("ruleset") == ELITE:
        return elite_record.game_from_header(header, line)
    return record.game_from_header(header, line)


def replay_objects(objects: Iterable[tuple[int, dict[str, Any]]]) -> tuple[GameState, int]:
    """Replay a parsed record of any ruleset ((line number, object) pairs, the header first): the
    game and the number of events applied. RecordError as `engine.record.replay_objects`."""
    pairs = iter(objects)
    first = next(pairs, None)
    if first is None:
        return record.replay_objects(())  # (its error: an empty record)
    rest = itertools.chain((first,), pairs)
    if first[1].get("ruleset") == ELITE:
        return elite_record.replay_objects(rest)
    return record.replay_objects(rest)


def replay(text: str) -> tuple[GameState, int]:
    """Replay a whole record (JSON Lines) of any ruleset."""
    return replay_objects(record.lines(text))


def summary(game: GameState) -> dict[str, Any]:
    """The state as `replay` prints it (docs/record-format.md), in its ruleset's terms."""
    if isinstance(game, Game):
        return game.summary()
    assert isinstance(game, EliteGame), game
    return elite_record.summary(game)
