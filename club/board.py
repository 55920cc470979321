"""The club's leaderboard: every table's latest news, folded from what the tables publish.

Pure and thread-safe: `apply(table, leaf, payload)` takes one MQTT message (from the broker, or
replayed from the club's journal) and says whether anything changed. The same message twice (a
retained state delivered again after a reconnection, a QoS 1 duplicate) changes nothing, so the
journal keeps each fact once and a replay rebuilds the same board. Every message is read through
`club.payloads` first: what breaks a limit is refused and counted (`refused`), never raised, so
the board's size has a bound whoever publishes.

The board holds at most `MAX_TABLES` tables, and room is kept for the tables that really play.
Any publisher can leave retained messages for names of its own, and a retained message (even a
pick) says only what the broker kept, not that anyone plays: so *playing* is earned by picks the
club saw arrive live (`apply(..., live=True)`: not a retained copy, not the same pick again), at
least `PLAYING_PICKS` of them within the last `PLAYING_WINDOW_S`, from a table that has not said
it went offline. When the board is full, a new table takes the place of the table not playing
with the least evidence of play (fewest recent live picks, then the oldest news). So 40 names
that each left one retained pick churn among themselves and never keep a real table off the
board, while a table that plays is never pushed off by names that only publish. Only when every
table on the board is playing is a new one refused (`too many tables`).
"""

from __future__ import annotations

import collections
import dataclasses
import json
import threading
import time
from collections.abc import Callable
from typing import Any

from club import payloads, topics
from club.payloads import Refused


@dataclasses.dataclass
class TableState:
    name: str
    online: bool | None = None
    scores: dict[str, Any] | None = None
    leader: str = ""
    picks: list[dict[str, Any]] = dataclasses.field(default_factory=list)  # newest first
    finished: list[dict[str, Any]] = dataclasses.field(default_factory=list)  # newest first
    presses: int = 0
    changed: int = 0  # the board's version when this table last changed
    live_picks: list[float] = dataclasses.field(default_factory=list)  # arrival times, newest
    # first, of its new picks that came live (not a retained copy)

    def evidence(self, now: float) -> int:
        """How much it plays: its live picks in the last `PLAYING_WINDOW_S` (0 once it said it
        went offline, by its last will or a clean stop)."""
        if self.online is False:
            return 0
        return sum(1 for t in self.live_picks if now - t < PLAYING_WINDOW_S)

    def playing(self, now: float) -> bool:
        """Kept however full the board."""
        return self.evidence(now) >= PLAYING_PICKS

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
            "changed": self.changed,
        }


class Board:
    """The tables and a version that rises with every change (the page's SSE id)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock  # wall time: the journal keeps it, so a restart judges the same
        self._lock = threading.Lock()
        self.tables: dict[str, TableState] = {}
        self.version = 0
        self.refused: collections.Counter[str] = collections.Counter()
        self.evicted = 0  # stale tables that made room for a new one
        self._removed: dict[str, int] = {}  # table -> the version it was evicted at
        self._forgotten = 0  # the newest eviction no longer in `_removed`
        self._text: tuple[int, str] | None = None

    def apply(
        self, table: str, leaf: str, payload: bytes, *, live: bool = True, at: float | None = None
    ) -> bool:
        """Fold one message in; True if the board changed (then the journal keeps it, with
        `live` and `at`). `live`: it was published while the club listened, not a retained
        copy the broker delivered on subscribing; `at`: when it arrived (now, or the journal's
        time on a replay)."""
        handler = _HANDLERS.get(leaf)
        if handler is None:
            return False
        now = self._clock() if at is None else at
        with self._lock:
            try:
                payloads.check_size(payload)
                state = self.tables.get(table) or self._new_table(table, now)
                changed = handler(state, payload)
            except Refused as exc:
                self.refused[exc.reason] += 1
                return False
            if changed:
                if state.name not in self.tables:
                    self._make_room(state.name, now)
                self.tables[state.name] = state
                self.version += 1
                state.changed = self.version
                if leaf == topics.PICK and live:
                    state.live_picks = [now, *state.live_picks][:PLAYING_KEPT]
                if leaf == topics.WINNER:  # the order games finished in, across tables
                    state.finished[0]["at"] = self.version
        return changed

    def _new_table(self, name: str, now: float) -> TableState:
        """A table not on the board yet (it joins only if its message changes something)."""
        state = TableState(payloads.table_name(name))
        if len(self.tables) >= payloads.MAX_TABLES and self._stalest(now) is None:
            raise Refused("too many tables", name)
        return state

    def _stalest(self, now: float) -> TableState | None:
        """The table a new one may replace: of those not playing, the one with the least
        evidence of play, then the oldest news."""
        idle = [t for t in self.tables.values() if not t.playing(now)]
        return min(idle, key=lambda t: (t.evidence(now), t.changed), default=None)

    def _make_room(self, name: str, now: float) -> None:
        """Before table `name` joins a full board: evict the stalest (`_new_table` checked
        there is one), and remember it went, for the pages that still show it."""
        self._removed.pop(name, None)
        if len(self.tables) < payloads.MAX_TABLES:
            return
        stale = self._stalest(now)
        assert stale is not None, "_new_table refuses a table when none can make room"
        del self.tables[stale.name]
        self.evicted += 1
        self._removed[stale.name] = self.version + 1
        while len(self._removed) > _REMOVED_KEPT:  # the oldest first (dicts keep order)
            self._forgotten = self._removed.pop(next(iter(self._removed)))

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            tables = [self.tables[name].as_dict() for name in sorted(self.tables)]
            version, refused = self.version, dict(self.refused)
        finished = sorted(
            ({**game, "table": t["name"]} for t in tables for game in t["finished"]),
            key=lambda g: g.get("at", 0),
            reverse=True,
        )[: payloads.FINISHED_SHOWN]
        return {
            "version": version,
            "tables": tables,
            "finished": finished,
            "refused": refused,
            "evicted": self.evicted,
        }

    def snapshot_text(self) -> tuple[int, str]:
        """(version, the snapshot as JSON), made once per version for every page."""
        cached = self._text
        if cached is None or cached[0] != self.version:
            view = self.snapshot()
            cached = self._text = (view["version"], json.dumps(view, separators=(",", ":")))
        return cached

    def changes_since(self, version: int) -> dict[str, Any]:
        """What a page that shows `version` lacks: the tables changed since, and the finished
        games when one of those is a new winner (a few hundred bytes for a pick, not the whole
        board)."""
        view = self.snapshot()
        with self._lock:
            gone = sorted(n for n, v in self._removed.items() if v > version)
            forgotten = self._forgotten > version
        if forgotten:  # it missed more evictions than are kept: every table, to replace its own
            return {**view, "whole": True}
        changed = [t for t in view["tables"] if t["changed"] > version]
        change: dict[str, Any] = {"version": view["version"], "tables": changed}
        if any(g.get("at", 0) > version for g in view["finished"]):
            change["finished"] = view["finished"]
        if gone:  # evicted since it last heard: the page drops them
            change["removed"] = gone
        return change

    def table(self, name: str) -> dict[str, Any] | None:
        with self._lock:
            state = self.tables.get(name)
            return None if state is None else state.as_dict()

    # --- the journal's compaction: the whole board as one record ---

    def state(self) -> dict[str, Any]:
        with self._lock:
            tables = [dataclasses.asdict(t) for t in self.tables.values()]
            return {"version": self.version, "tables": tables}

    def restore(self, state: dict[str, Any]) -> None:
        known = {f.name for f in dataclasses.fields(TableState)}  # an older record's extra
        with self._lock:  # fields (such as `picked`) are dropped
            self.tables = {
                t["name"]: TableState(**{k: v for k, v in t.items() if k in known})
                for t in state["tables"]
            }
            self.version = int(state["version"])


def _availability(state: TableState, payload: bytes) -> bool:
    online = payload.decode(errors="replace").strip() == topics.ONLINE
    if state.online is online:
        return False
    state.online = online
    return True


def _pick(state: TableState, payload: bytes) -> bool:
    pick = payloads.pick(payload)
    key = (pick["seq"], pick["t"])
    if any((p["seq"], p["t"]) == key for p in state.picks):
        return False
    earlier = [{k: p[k] for k in ("seq", "colour", "t")} for p in state.picks]  # what is shown
    state.picks = [pick, *earlier][: payloads.RECENT_PICKS]
    return True


def _scores(state: TableState, payload: bytes) -> bool:
    scores = payloads.scores(payload)
    if scores == state.scores:
        return False
    state.scores = scores
    state.leader = str(scores["leader"])
    return True


def _winner(state: TableState, payload: bytes) -> bool:
    winner = payloads.winner(payload)
    if winner is None or any(g.get("game") == winner["game"] for g in state.finished):
        return False
    state.finished = [winner, *state.finished][: payloads.FINISHED_PER_TABLE]
    return True


def _press(state: TableState, payload: bytes) -> bool:
    state.presses += 1
    return True


PLAYING_PICKS = 2
"""Live picks a table needs within `PLAYING_WINDOW_S` to be playing: one pick, live or
retained, is what any publisher leaves once; a second, later and different, is a game going on."""
PLAYING_WINDOW_S = 3600.0
"""How recent those picks must be: a table that has not picked for an hour makes room."""
PLAYING_KEPT = 12
"""Live pick times kept per table (the evidence counted, at most)."""

_REMOVED_KEPT = 256
"""Evicted tables remembered for the pages' changes; a page that missed more evictions than
this is sent the whole board (`whole`), which replaces what it shows."""

_HANDLERS: dict[str, Callable[[TableState, bytes], bool]] = {
    topics.AVAILABILITY: _availability,
    topics.PICK: _pick,
    topics.SCORES: _scores,
    topics.WINNER: _winner,
    topics.PRESS: _press,
}
