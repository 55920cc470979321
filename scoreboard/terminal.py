"""The terminal display: the same view model drawn with rich, for a Pi's HDMI console.

`render(view)` is a pure function from the view dict to a rich renderable, so tests read its
text; `run_live` redraws it whenever the session announces a change on the bus.
"""

from __future__ import annotations

import threading
from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from scoreboard import wins
from scoreboard.session import PickRevealed, TableChanged, TableSession
from tray.bus import Bus

STYLE = {
    "red": "bold white on red3",
    "blue": "bold white on blue3",
    "green": "bold black on green3",
    "yellow": "bold black on yellow1",
}
SYMBOL = {"red": "▲", "blue": "■", "green": "●", "yellow": "★"}
SPARKS = "▁▂▃▄▅▆▇█"


def sparkline(values: list[int], top: int) -> str:
    """One character per hand: how far along to `top` the running total was."""
    if not values:
        return ""
    top = max(top, *values, 1)
    return "".join(SPARKS[min(len(SPARKS) - 1, v * len(SPARKS) // (top + 1))] for v in values)


def bar(value: int, top: int, width: int = 20) -> str:
    filled = max(0, min(width, round(width * value / max(top, 1))))
    return "█" * filled + "·" * (width - filled)


def render(view: dict[str, Any]) -> Group:
    parts: list[Any] = []
    if not view["players"]:
        parts.append(Text("No game yet: start one on the entry page.", style="bold"))
    else:
        parts.append(_scores(view))
    tally = view.get("wins")
    if tally and tally["games"]:
        parts.append(Text(wins.says(tally), style="bold"))
    pick = _pick(view.get("pick"))
    if pick is not None:
        parts.append(pick)
    if view.get("declared"):
        d = view["declared"]
        who = f" ({d['who']})" if d["who"] else ""
        parts.append(
            Text(f"Declared: {d['name']}{who}. Press the Tinker Bell button!", style="bold yellow")
        )
    if view.get("winner") and not view["winner"].get("superseded"):  # a later game ended
        parts.append(
            Panel(
                Text(view["winner"]["text"], justify="center", style="bold black"),
                style="on yellow1",
            )
        )
    return Group(*parts)


def _tags(p: dict[str, Any]) -> str:
    tags = []
    if p["deals"]:
        tags.append("DEALS")
    if p["won"]:
        tags.append("WINNER")
    elif p["leads"]:
        tags.append("LEADS")
    if p["out"]:
        tags.append("OUT")
    if p["team"]:
        tags.append(f"Team {p['team']}")
    return " ".join(tags)


def _scores(view: dict[str, Any]) -> Table:
    """Each player's total, a bar to the target and a sparkline of the totals per hand."""
    rules: dict[str, Any] = view.get("rules") or {}
    target = rules["target"]
    hands = view["hands"]
    title = f"Hand {len(hands) + 1}" if not view["winner"] else f"After {len(hands)} hands"
    table = Table(title=f"{title} · {rules['says']}", expand=True, title_justify="left")
    table.add_column("Player", style="bold", ratio=2)
    table.add_column("Total", justify="right", style="bold")
    table.add_column(f"To {target}", ratio=2)
    table.add_column("Per hand", ratio=2)
    table.add_column("", ratio=1)
    for p in view["players"]:
        series = [h["totals"][p["seat"]] for h in hands]
        table.add_row(
            Text(p["name"], style="strike dim" if p["out"] else ""),
            str(p["total"]),
            bar(p["total"], target),
            sparkline(series, target),
            _tags(p),
        )
    return table


def _pick(pick: dict[str, Any] | None) -> Panel | None:
    """The last pick: its colour and what it means, or only its number while the lights spin."""
    if not pick:
        return None
    title = f"Tinker Bell's pick #{pick['seq']}"
    if pick.get("pending"):
        return Panel(Text(pick["says"], style="bold"), title=title, title_align="left")
    colour = pick["colour"]
    head = Text(f" {SYMBOL[colour]} {colour.upper()} ", style=STYLE[colour])
    lines: list[Any] = [Text.assemble(head, "  ", pick["says"])]
    for card, means in pick["meanings"]:
        lines.append(Text.assemble(("  • " + card + ": ", "bold"), means))
    return Panel(Group(*lines), title=title, title_align="left")


def run_live(session: TableSession, bus: Bus, stop: threading.Event | None = None) -> None:
    """Redraw on every TableChanged (and PickRevealed) until `stop` is set (or Ctrl-C)."""
    from rich.live import Live

    changed = threading.Event()
    stop = stop or threading.Event()
    unsubscribe = bus.subscribe(lambda _e: changed.set(), TableChanged, PickRevealed)
    try:
        with Live(render(session.view()), auto_refresh=False, screen=False) as live:
            while not stop.is_set():
                if changed.wait(0.5):
                    changed.clear()
                    live.update(render(session.view()), refresh=True)
            live.update(render(session.view()), refresh=True)  # the last word is the latest
    finally:
        unsubscribe()
