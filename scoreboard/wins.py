"""The tally of wins: the games without points (UNO Elite's) have no score sheet, so the
scoreboard counts the games each player won.

A player is their name (the same name at two games is the same player), as on the score sheets
of the other rulesets. Pure: the journal's results (`Journal.results()`) in, the view's `wins`
part out. A result whose game has a score sheet is on that sheet already, so it is not counted
here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol


class Result(Protocol):
    """One finished game (`scoreboard.journal.Result`)."""

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def winner(self) -> int: ...

    @property
    def scored(self) -> bool: ...

    @property
    def t(self) -> float: ...


def tally(results: Iterable[Result]) -> dict[str, Any]:
    """{"games": n, "players": [{"name", "wins", "played"}, most wins first], "last": name,
    "last_t": when the last one ended}, of the games without a score sheet."""
    wins: dict[str, int] = {}
    played: dict[str, int] = {}
    games, last, last_t = 0, None, None
    for result in results:
        if result.scored:
            continue
        games += 1
        for name in result.players:
            played[name] = played.get(name, 0) + 1
            wins.setdefault(name, 0)
        last, last_t = result.players[result.winner], result.t
        wins[last] += 1
    names = sorted(played, key=lambda n: (-wins[n], n.casefold()))
    rows = [{"name": n, "wins": wins[n], "played": played[n]} for n in names]
    return {"games": games, "players": rows, "last": last, "last_t": last_t}


TITLE = "Wins (games without points)"


def says(tally: dict[str, Any], title: str = TITLE) -> str:
    """The tally in one line: "Wins (games without points): Ann 2, Ben 1 (3 games)."."""
    if not tally["games"]:
        return f"{title}: no game finished yet."
    n = tally["games"]
    names = ", ".join(f"{p['name']} {p['wins']}" for p in tally["players"])
    return f"{title}: {names} ({n} game{'' if n == 1 else 's'})."
