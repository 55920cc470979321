"""UNO Elite's scoreboard: no points, so a tally of the games each player won.

A player is their name (the same name at two games is the same player), as on the score sheets
of the other rulesets. Pure: the journal's results in, the view's `elite` part out.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol


class Result(Protocol):
    """One finished Elite game (`scoreboard.journal.EliteResult`)."""

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def winner(self) -> int: ...


def tally(results: Iterable[Result]) -> dict[str, Any]:
    """{"games": n, "players": [{"name", "wins", "played"}, most wins first], "last": name}."""
    wins: dict[str, int] = {}
    played: dict[str, int] = {}
    games, last = 0, None
    for result in results:
        games += 1
        for name in result.players:
            played[name] = played.get(name, 0) + 1
            wins.setdefault(name, 0)
        last = result.players[result.winner]
        wins[last] += 1
    names = sorted(played, key=lambda n: (-wins[n], n.casefold()))
    rows = [{"name": n, "wins": wins[n], "played": played[n]} for n in names]
    return {"games": games, "players": rows, "last": last}


def says(elite: dict[str, Any]) -> str:
    """The tally in one line: "UNO Elite wins: Ann 2, Ben 1 (3 games)"."""
    if not elite["games"]:
        return "UNO Elite wins: no game finished yet."
    n = elite["games"]
    names = ", ".join(f"{p['name']} {p['wins']}" for p in elite["players"])
    return f"UNO Elite wins: {names} ({n} game{'' if n == 1 else 's'})."
