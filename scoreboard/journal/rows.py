"""What the journal's reads hand out: a kept game, a finished game's result, a digital game's
record, one entry of a score sheet. Frozen: a page holds them while the journal goes on saving."""

from __future__ import annotations

import dataclasses
from typing import Any


@dataclasses.dataclass(frozen=True, slots=True)
class GameInfo:
    id: int
    name: str
    created: float
    entries: int
    digital: bool = False  # played in digital play: its game record is kept too
    finished: bool = False  # its result is kept (`add_result`): the game is over
    ended: bool = False  # the host ended it unfinished (`end_digital`): never played on


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
    ended: bool = False  # the host ended it unfinished (`end_digital`)


@dataclasses.dataclass(frozen=True, slots=True)
class Logged:
    id: int
    t: float
    entry: dict[str, Any]
