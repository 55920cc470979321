"""The view model: everything a display shows, as JSON-ready data, computed in one place.

The web page and the terminal both draw this dict and nothing else, so they cannot disagree
about a total, whose deal it is or what a pick means.
"""

from __future__ import annotations

from typing import Any

from engine.disney import cards as C
from engine.disney import rulesets
from engine.disney import table as T
from scoreboard import wins as tally_of_wins

TEAMS = ("A", "B")


def build_view(
    table: T.Table,
    *,
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
    have no score sheet."""
    view: dict[str, Any] = {
        "version": version,
        "game": game_id,
        "players": [],
        "hands": [],
        "dealer": None,
        "winner": None,
        "rules": None,
        "declared": _declared(table),
        "pick": _pick(table.last_pick, pick_hidden),
        "can_undo": bool(table.undo_stack),
        "hand_count": 0,
        "wins": wins if wins is not None else tally_of_wins.tally(()),
    }
    if recent is not None:
        view["chart"] = {"numbers": [], "totals": []}
    g = table.game
    if g is None:
        return view
    opts = g.opts
    view["players"] = _players(g)
    view["dealer"] = None if g.over else g.dealer
    first = 0 if recent is None else max(0, len(g.hands) - recent)
    view["hands"] = [h.as_dict(n) for n, h in enumerate(g.hands[first:], start=first + 1)]
    view["hand_count"] = len(g.hands)
    if recent is not None:
        view["chart"] = chart([(n, h.totals) for n, h in enumerate(g.hands, start=1)])
    target = opts.get("target", 500)
    mode = opts.get("scoring", "standard")
    view["rules"] = {
        "scoring": mode,
        "target": target,
        "partners": bool(opts.get("partners")),
        "title": rulesets.get(g.ruleset).title,
        "says": _rules_text(mode, target, bool(opts.get("partners"))),
    }
    if g.over:
        names = g.winner_names()
        winners = g.winner if isinstance(g.winner, tuple) else (g.winner,)
        view["winner"] = {
            "seats": list(winners),
            "names": names,
            "text": f"{' and '.join(names)} {'win' if len(names) > 1 else 'wins'}!",
        }
    return view


def _players(g: T.TableGame) -> list[dict[str, Any]]:
    """Each player's line: total, out, whose deal, team, who leads, who won."""
    opts, sheet = g.opts, g.sheet
    scores = sheet.scores if sheet else (0,) * len(g.players)
    out = sheet.eliminated if sheet else frozenset()
    winners = g.winner if isinstance(g.winner, tuple) else (g.winner,)
    alive = [scores[s] for s in range(len(scores)) if s not in out]
    lowest_wins = opts.get("scoring", "standard") != "standard"
    best = (min if lowest_wins else max)(alive) if alive and g.hands else None
    return [
        {
            "seat": s,
            "name": name,
            "total": scores[s],
            "out": s in out,
            "deals": s == g.dealer and not g.over,
            "team": TEAMS[s % 2] if opts.get("partners") else None,
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


def _rules_text(mode: str, target: int, partners: bool) -> str:
    if mode == "lowest":
        return (
            f"Points are what you are caught holding. When someone reaches {target}, "
            "the lowest total wins."
        )
    if mode == "challenge":
        return f"Challenge UNO: reach {target} and you are out. The last player left wins."
    who = "the first team" if partners else "the first player"
    return f"Going out scores the cards left in the others' hands: {who} to {target} wins."


def _declared(table: T.Table) -> dict[str, Any] | None:
    if table.declared is None:
        return None
    who = None
    if table.declared_by is not None and table.game is not None:
        who = table.game.players[table.declared_by]
    return {
        "card": table.declared,
        "name": C.name(C.card(table.declared)),
        "seat": table.declared_by,
        "who": who,
    }


def _pick(pick: T.TinkerPick | None, hidden: bool) -> dict[str, Any] | None:
    if pick is None:
        return None
    declared = C.name(C.card(pick.declared)) if pick.declared else None
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
        "meanings": [] if pick.declared else [list(m) for m in T.meanings(pick.colour)],
    }


def keyboard(ruleset: rulesets.Ruleset = rulesets.DISNEY) -> list[dict[str, Any]]:
    """The card keyboard's keys: every distinct card of the deck with its code, name and points."""
    keys = []
    for cid in sorted(set(ruleset.deck)):
        colour = C.COLOURS[C.COLOUR_OF[cid]] if cid < 64 else "wild"
        rank = C.RANK_OF[cid]
        label = (
            str(rank)
            if cid < 64 and rank < 10
            else {
                C.SKIP: "Skip",
                C.REVERSE: "Rev",
                C.DRAW2: "+2",
                C.WILD: "Wild",
                C.WILD_DISCARD_ALL: "Discard All",
                C.VILLAIN_DRAW4: "Villain +4",
            }.get(rank, C.code(cid))
        )
        keys.append(
            {
                "code": C.code(cid),
                "name": C.name(cid),
                "label": label,
                "colour": colour,
                "points": ruleset.card_points(cid),
                "copies": ruleset.deck.count(cid),
            }
        )
    return keys
