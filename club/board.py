"""The club's leaderboard: every table's latest news, folded from what the tables publish.

Pure and thread-safe: `apply(table, leaf, payload)` takes one MQTT message (from the broker, or
replayed from the club's journal) and says whether anything changed. The same message twice (a
retained state delivered again after a reconnection, a QoS 1 duplicate) changes nothing, so the
journal keeps each fact once and a replay rebuilds the same board.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Callable
from typing import Any

from club import topics

RECENT_PICKS = 12


@dataclasses.dataclass
class TableState:
    name: str
    online: bool | None = None
    scores: dict[str, Any] | None = None
    leader: str = ""
    picks: list[dict[str, Any]] = dataclasses.field(default_factory=list)  # newest first
    finished: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    presses: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "online": self.online,
            "scores": self.scores,
            "leader": self.leader,
            "pick": self.picks[0] if self.picks else None,
            "picks": self.picks,
            "finished": self.finished,
            "presses": self.presses,
        }


def _json(payload: bytes) -> dict[str, Any] | None:
    try:
        data = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) else None


class Board:
    """The tables and a version that rises with every change (the page's SSE id)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.tables: dict[str, TableState] = {}
        self.version = 0

    def apply(self, table: str, leaf: str, payload: bytes) -> bool:
        """Fold one message in; True if the board changed (then the journal keeps it)."""
        handler = _HANDLERS.get(leaf)
        if handler is None:
            return False
        with self._lock:
            state = self.tables.get(table) or TableState(table)
            changed = handler(state, payload)
            if changed:
                self.tables[table] = state
                self.version += 1
                if leaf == topics.WINNER:  # the order games finished in, across tables
                    state.finished[0]["at"] = self.version
        return changed

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            tables = [self.tables[name].as_dict() for name in sorted(self.tables)]
            version = self.version
        finished = sorted(
            ({**game, "table": t["name"]} for t in tables for game in t["finished"]),
            key=lambda g: g.get("at", 0),
            reverse=True,
        )
        return {"version": version, "tables": tables, "finished": finished}

    def table(self, name: str) -> dict[str, Any] | None:
        with self._lock:
            state = self.tables.get(name)
            return None if state is None else state.as_dict()


def _availability(state: TableState, payload: bytes) -> bool:
    online = payload.decode(errors="replace").strip() == topics.ONLINE
    if state.online is online:
        return False
    state.online = online
    return True


def _pick(state: TableState, payload: bytes) -> bool:
    pick = _json(payload)
    if pick is None or "seq" not in pick or "colour" not in pick:
        return False
    key = (pick.get("seq"), pick.get("t"))
    if any((p.get("seq"), p.get("t")) == key for p in state.picks):
        return False
    state.picks = [pick, *state.picks][:RECENT_PICKS]
    return True


def _scores(state: TableState, payload: bytes) -> bool:
    scores = _json(payload)
    if scores is None or scores == state.scores:
        return False
    state.scores = scores
    state.leader = str(scores.get("leader") or "")
    return True


def _winner(state: TableState, payload: bytes) -> bool:
    winner = _json(payload)
    if winner is None or any(g.get("game") == winner.get("game") for g in state.finished):
        return False
    state.finished = [dict(winner), *state.finished]
    return True


def _press(state: TableState, payload: bytes) -> bool:
    state.presses += 1
    return True


_HANDLERS: dict[str, Callable[[TableState, bytes], bool]] = {
    topics.AVAILABILITY: _availability,
    topics.PICK: _pick,
    topics.SCORES: _scores,
    topics.WINNER: _winner,
    topics.PRESS: _press,
}
