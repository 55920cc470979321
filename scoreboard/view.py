"""The view model: everything a display shows, as JSON-ready data, computed in one place.

The web page and the terminal both draw this dict and nothing else, so they cannot disagree
about a total, whose deal it is or what a pick means.
"""

from __future__ import annotations

from typing import Any

from engine import sheets
from engine.score_sheet import Keeping, KeptGame, Pick, Sheet
from engine.sheets import keeping as keeping_of
from scoreboard import wins as tally_of_wins

TEAMS = ("A", "B")


def build_view(
    table: Sheet,
    *,
    home: str | None = None,
    game_id: int | None,
    version: int,
    pick_hidden: bool = False,
    recent: int | None = None,
    wins: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """`pick_hidden`: the tray's lights are still spinning, so the latest pick is announced
    without its colour or meaning (see scoreboard.reveal). `recent`: only the last `recent`
    hands, plus the chart (what the pages get: a few KiB whatever the game's length); None:
    every hand. `wins`: the tally of wins of the games without points (`scoreboard.wins`), which
    have no score sheet. The sheet is read through its ruleset's `Keeping` (`home`'s before a
    game starts; None: `engine.sheets.home()`), so any ruleset's sheet is shown alike."""
    g = table.game
    keeper = keeping_of(g.ruleset if g is not None else home or sheets.home())
    view: dict[str, Any] = {
        "version": version,
        "game": game_id,
        "players": [],
        "hands": [],
        "dealer": None,
        "winner": None,
        "rules": None,
        "declared": _declared(table, keeper),
        "pick": _pick(table.last_pick, pick_hidden, keeper),
        "can_undo": table.can_undo,
        "hand_count": 0,
        "wins": wins if wins is not None else tally_of_wins.tally(()),
    }
    if recent is not None:
        view["chart"] = {"numbers": [], "totals": []}
    if g is None:
        return view
    rules = keeper.rules(g)
    view["players"] = _players(g, rules)
    view["dealer"] = None if g.over else g.dealer
    first = 0 if recent is None else max(0, len(g.hands) - recent)
    view["hands"] = [h.as_dict(n) for n, h in enumerate(g.hands[first:], start=first + 1)]
    view["hand_count"] = len(g.hands)
    if recent is not None:
        view["chart"] = chart([(n, h.totals) for n, h in enumerate(g.hands, start=1)])
    view["rules"] = {key: rules[key] for key in ("scoring", "target", "partners", "title", "says")}
    if g.over:
        names = g.winner_names()
        winners = g.winner if isinstance(g.winner, tuple) else (g.winner,)
        view["winner"] = {
            "seats": list(winners),
            "names": names,
            "text": f"{' and '.join(names)} {'win' if len(names) > 1 else 'wins'}!",
        }
    return view


def _players(g: KeptGame, rules: dict[str, Any]) -> list[dict[str, Any]]:
    """Each player's line: total, out, whose deal, team, who leads, who won."""
    scores, out, partners = g.scores, g.out, rules["partners"]
    winners = g.winner if isinstance(g.winner, tuple) else (g.winner,)
    alive = [scores[s] for s in range(len(scores)) if s not in out]
    best = (min if rules["lowest_wins"] else max)(alive) if alive and g.hands else None
    return [
        {
            "seat": s,
            "name": name,
            "total": scores[s],
            "out": s in out,
            "deals": s == g.dealer and not g.over,
            "team": TEAMS[s % 2] if partners else None,
            "leads": best is not None and scores[s] == best and s not in out,
            "won": s in winners,
        }
        for s, name in enumerate(g.players)
    ]


RECENT_HANDS = 20
CHART_POINTS = 120


def chart(totals: list[tuple[int, tuple[int, ...]]]) -> dict[str, Any]:
    """Running totals for the chart from (hand number, totals) pairs: every hand up to
    `CHART_POINTS`, then evenly spaced ones (always with the last)."""
    n = len(totals)
    step = max(1, -(-n // CHART_POINTS))
    picked = list(range(step - 1, n, step))
    if n and picked[-1] != n - 1:
        picked.append(n - 1)
    return {
        "numbers": [totals[i][0] for i in picked],
        "totals": [list(totals[i][1]) for i in picked],
    }


def _declared(table: Sheet, keeper: Keeping) -> dict[str, Any] | None:
    if table.declared is None:
        return None
    who = None
    if table.declared_by is not None and table.game is not None:
        who = table.game.players[table.declared_by]
    return {
        "card": table.declared,
        "name": keeper.card_name(table.declared),
        "seat": table.declared_by,
        "who": who,
    }


def _pick(pick: Pick | None, hidden: bool, keeper: Keeping) -> dict[str, Any] | None:
    if pick is None:
        return None
    declared = keeper.card_name(pick.declared) if pick.declared else None
    if hidden:
        return {
            "seq": pick.seq,
            "pending": True,
            "colour": None,
            "declared": declared,
            "says": "Tinker Bell is choosing…",
            "meanings": [],
        }
    return {
        "seq": pick.seq,
        "pending": False,
        "colour": pick.colour,
        "says": pick.says,
        "declared": declared,
        "meanings": [] if pick.declared else [list(m) for m in keeper.meanings(pick.colour)],
    }


def keyboard(table: Sheet, home: str) -> list[dict[str, Any]]:
    """The card keyboard of the game in play (`home`'s before a game): its ruleset's keys."""
    ruleset = home if table.game is None else table.game.ruleset
    return keeping_of(ruleset).keyboard(ruleset)
