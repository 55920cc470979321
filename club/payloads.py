"""What the club accepts from a table, and how much of it: every message is read through one of
these checks before it reaches the board or the journal.

The club subscribes to every publisher on the broker, so anything may arrive: a 1 MB payload, a
list nested ten thousand deep, a thousand fake tables. A message that breaks a limit is refused
whole and counted by its reason (`Refused.reason`); what is accepted keeps only the fields the
page shows, each of a known type and size, so the board's size has a bound however long the
evening (docs/mqtt.md, "The club's limits", is the reader's copy of these numbers).
"""

from __future__ import annotations

import json
import re
from typing import Any

from tray.backend import COLOURS  # (the colours a tray picks)

MAX_PAYLOAD = 4096  # bytes of one message; a table's largest (scores of 10 players) is ~1 KB
MAX_TABLES = 32
MAX_PLAYERS = 10
MAX_NAME = 40  # characters of a player's or a table's name
MAX_TEXT = 400  # characters of a pick's meaning or a winner's sentence
RECENT_PICKS = 12  # per table: the latest whole, the others as seq, colour and time
FINISHED_PER_TABLE = 10  # finished games kept per table
FINISHED_SHOWN = 20  # finished games on the club's page, newest first
TABLE_NAME = re.compile(rf"^[A-Za-z0-9_-]{{1,{MAX_NAME}}}$")


class Refused(ValueError):
    """A message the club will not take; `reason` is the counter it goes to."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


def check_size(payload: bytes) -> None:
    if len(payload) > MAX_PAYLOAD:
        raise Refused("too large", f"{len(payload)} bytes (at most {MAX_PAYLOAD})")


def json_object(payload: bytes) -> dict[str, Any]:
    try:
        data = json.loads(payload)
    except RecursionError:  # nested deeper than the parser goes: no traceback, just refused
        raise Refused("not JSON", "nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise Refused("not JSON", str(exc)) from None
    if not isinstance(data, dict):
        raise Refused("bad shape", "not a JSON object")
    return data


def _int(data: dict[str, Any], key: str, *, optional: bool = False) -> int | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not -(10**9) < value < 10**9:
        raise Refused("bad shape", f"{key} must be a whole number")
    return value


def _number(data: dict[str, Any], key: str) -> float:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Refused("bad shape", f"{key} must be a number")
    return float(value)


def _text(value: Any, what: str, limit: int, *, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str) or len(value) > limit:
        raise Refused("bad shape", f"{what} must be text of at most {limit} characters")
    return value


def _bool(data: dict[str, Any], key: str) -> bool:
    return bool(data.get(key))


def pick(payload: bytes) -> dict[str, Any]:
    data = json_object(payload)
    colour = data.get("colour")
    if colour not in COLOURS:
        raise Refused("bad shape", "colour must be red, blue, green or yellow")
    return {
        "seq": _int(data, "seq"),
        "colour": colour,
        "says": _text(data.get("says"), "says", MAX_TEXT, optional=True),
        "declared": _text(data.get("declared"), "declared", MAX_TEXT, optional=True),
        "game": _int(data, "game", optional=True),
        "t": _number(data, "t"),
    }


def _players(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list) or len(value) > MAX_PLAYERS:
        raise Refused("bad shape", f"players must be a list of at most {MAX_PLAYERS}")
    players = []
    for player in value:
        if not isinstance(player, dict):
            raise Refused("bad shape", "a player must be an object")
        players.append(
            {
                "name": _text(player.get("name"), "a player's name", MAX_NAME),
                "total": _int(player, "total"),
                "out": _bool(player, "out"),
                "leads": _bool(player, "leads"),
            }
        )
    return players


def _totals(value: Any) -> dict[str, int]:
    if not isinstance(value, dict) or len(value) > MAX_PLAYERS:
        raise Refused("bad shape", f"totals must map at most {MAX_PLAYERS} names to numbers")
    return {
        str(_text(name, "a player's name", MAX_NAME)): int(_int(value, name) or 0) for name in value
    }


def scores(payload: bytes) -> dict[str, Any]:
    data = json_object(payload)
    return {
        "game": _int(data, "game", optional=True),
        "players": _players(data.get("players")),
        "totals": _totals(data.get("totals", {})),
        "leader": _text(data.get("leader", ""), "leader", MAX_TEXT),
        "hands": _int(data, "hands", optional=True),
        "target": _int(data, "target", optional=True),
        "scoring": _text(data.get("scoring"), "scoring", MAX_NAME, optional=True),
        "over": _bool(data, "over"),
    }


def winner(payload: bytes) -> dict[str, Any] | None:
    """The winner, or None for a game still being played (no names yet)."""
    data = json_object(payload)
    names = data.get("names")
    if names == []:
        return None
    if not isinstance(names, list) or len(names) > MAX_PLAYERS:
        raise Refused("bad shape", f"names must list 1 to {MAX_PLAYERS} winners")
    return {
        "game": _int(data, "game", optional=True),
        "names": [_text(name, "a winner's name", MAX_NAME) for name in names],
        "text": _text(data.get("text"), "text", MAX_TEXT),
        "totals": _totals(data.get("totals", {})),
    }


def table_name(name: str) -> str:
    if not TABLE_NAME.match(name):
        raise Refused("bad table name", f"{name[:MAX_NAME]!r}")
    return name
