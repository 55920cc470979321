"""What a table publishes, and where: one place for the topic names and payloads.

Everything is under `tinker-tray/<table>/` (docs/mqtt.md is the reader's copy of this module;
tests/club/test_docs.py keeps the two in step). Payloads are small JSON objects built from the
scoreboard's view model, so MQTT, the web page and the terminal cannot disagree about a total.
Never a hand: only totals, picks and winners leave the table.
"""

from __future__ import annotations

import json
import re
from typing import Any

ROOT = "tinker-tray"

AVAILABILITY = "availability"  # "online" / "offline", retained; the last will says "offline"
PRESS = "press"  # {"event_type": "press", "t", "source"} for each accepted press
PICK = "pick"  # the settled pick, retained: {"seq", "colour", "says", "declared", "game", "t"}
SCORES = "scores"  # after each hand, retained: {"game", "players", "totals", "leader", ...}
LEADER = "leader"  # who leads, as text, retained ("nobody yet" before the first hand)
WINNER = "winner"  # the game's winner, retained: {"game", "names", "text", "totals"}; names
# is empty while the game is being played, so a new game clears the last one's winner
PRESS_COMMAND = "press/set"  # "PRESS" presses the button: refused unless allow_press = true

LEAVES = (AVAILABILITY, PRESS, PICK, SCORES, LEADER, WINNER, PRESS_COMMAND)
ONLINE, OFFLINE = "online", "offline"
NOBODY = "nobody yet"  # a state, never empty: an empty retained message would delete it
PRESS_PAYLOAD = "PRESS"

_TOPIC = re.compile(rf"^{ROOT}/([^/+#]+)/(.+)$")


def topic(table: str, leaf: str) -> str:
    return f"{ROOT}/{table}/{leaf}"


def every_table(leaf: str = "#") -> str:
    """The subscription for `leaf` of every table (the club's)."""
    return f"{ROOT}/+/{leaf}"


def split(name: str) -> tuple[str, str] | None:
    """(table, leaf) of a table's topic, or None."""
    match = _TOPIC.match(name)
    return (match.group(1), match.group(2)) if match else None


def dumps(payload: dict[str, Any]) -> str:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


# --- payloads from the scoreboard's view model (scoreboard.view.build_view) ---


def pick_payload(view: dict[str, Any], t: float) -> dict[str, Any] | None:
    """The latest pick once its lights have settled (None while pending or before any)."""
    pick = view.get("pick")
    if pick is None or pick.get("pending"):
        return None
    return {
        "seq": pick["seq"],
        "colour": pick["colour"],
        "says": pick["says"],
        "declared": pick["declared"],
        "game": view.get("game"),
        "t": t,
    }


def leader_text(view: dict[str, Any]) -> str:
    names = [p["name"] for p in view.get("players", []) if p.get("leads")]
    return " and ".join(names)


def leader_state(view: dict[str, Any]) -> str:
    """The leader as Home Assistant's state: defined from the game's start (an empty retained
    payload would delete the state at the broker, so Home Assistant would read `unknown`)."""
    return leader_text(view) or NOBODY


def scores_payload(view: dict[str, Any]) -> dict[str, Any]:
    players = [
        {"name": p["name"], "total": p["total"], "out": p["out"], "leads": p["leads"]}
        for p in view.get("players", [])
    ]
    rules = view.get("rules") or {}
    return {
        "game": view.get("game"),
        "players": players,
        "totals": {p["name"]: p["total"] for p in players},
        "leader": leader_text(view),
        "hands": len(view.get("hands", [])),
        "target": rules.get("target"),
        "scoring": rules.get("scoring"),
        "over": view.get("winner") is not None,
    }


def winner_payload(view: dict[str, Any]) -> dict[str, Any]:
    """The game's winner; while it is played, a winner with no names (which clears the last
    game's in Home Assistant)."""
    winner = view.get("winner")
    if winner is None:
        return {"game": view.get("game"), "names": [], "text": "", "totals": {}}
    return {
        "game": view.get("game"),
        "names": winner["names"],
        "text": winner["text"],
        "totals": {p["name"]: p["total"] for p in view.get("players", [])},
    }
