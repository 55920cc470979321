"""A table on MQTT: its bus and its scoreboard session, published through a `Link`.

The pick goes out only once the lights have settled on it: on the scoreboard's `PickRevealed`
(or at once when there is no tray whose show to wait for), read from the session's view, which
keeps a pending pick's colour back. So nobody learns the colour from Home Assistant, the club's
page or a broker log before the people watching the tray see it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from club import discovery, topics
from club.link import Link
from scoreboard.session import PickRevealed, TableChanged
from tray.bus import Bus
from tray.events import ButtonPressed, Event

log = logging.getLogger(__name__)

HA_ANNOUNCE_INTERVAL_S = 60.0  # Home Assistant's `online` re-announces at most this often


class TablePublisher:
    """Publishes `table`: availability, presses, settled picks, scores, leader, winner, and its
    Home Assistant discovery configs; takes presses from the command topic if allowed.

    `session` is the scoreboard's TableSession (anything with `view()`); `press` the service's
    virtual press (None: no tray here, so no press command and no HA button).
    """

    def __init__(
        self,
        link: Link,
        table: str,
        session: Any,
        bus: Bus,
        *,
        press: Callable[[], None] | None = None,
        allow_press: bool = False,
        discovery_prefix: str = "homeassistant",
        announced: Path | None = None,
        clock: Callable[[], float] = time.time,
        url: str | None = None,
    ):
        self.link, self.table, self.session, self.bus = link, table, session, bus
        self.press, self.allow_press = press, allow_press
        self.prefix = discovery_prefix
        self.clock = clock
        self.url = url
        self.refused_presses = 0
        self._announced = discovery.Announced(announced)
        self._lock = threading.Lock()
        self._last: dict[str, str] = {}  # leaf -> the last payload published (retained states)
        self._pick_seq: int | None = None
        self._ha_announced_at: float | None = None
        self.skipped_announcements = 0  # Home Assistant `online`s inside the interval
        self._players: list[str] | None = None
        self._unsubscribe: list[Callable[[], None]] = []

    def topic(self, leaf: str) -> str:
        return topics.topic(self.table, leaf)

    def start(self) -> TablePublisher:
        view = self.session.view()
        pick = view.get("pick")
        self._pick_seq = pick["seq"] if pick else None  # already published before a restart
        self._unsubscribe = [
            self.bus.subscribe(self._on_press, ButtonPressed),
            self.bus.subscribe(self._on_change, TableChanged, PickRevealed),
        ]
        self.link.on_connect(self._on_connect)
        self.link.subscribe(f"{self.prefix}/status", self._on_ha_status)
        if self.press is not None:
            self.link.subscribe(self.topic(topics.PRESS_COMMAND), self._on_press_command)
        if self.link.connected:  # connected before this publisher listened: say so now
            self._on_connect()
        else:  # queued: delivered (and announced again) on connection
            self._announce()
        self._publish_state(view)
        return self

    def close(self) -> None:
        for unsubscribe in self._unsubscribe:
            unsubscribe()

    # --- announcing (every connection, and whenever Home Assistant comes online) ---

    def _on_connect(self) -> None:
        self.link.publish(self.topic(topics.AVAILABILITY), topics.ONLINE, retain=True)
        self._announce()

    def _on_ha_status(self, _topic: str, payload: bytes, _retained: bool) -> None:
        """Home Assistant's birth message: announce again, at most once per interval (the
        configs are retained anyway; a flood of `online` must not become a flood of configs)."""
        if payload.decode(errors="replace").strip() != topics.ONLINE:
            return
        now = time.monotonic()
        with self._lock:
            last = self._ha_announced_at
            due = last is None or now - last >= HA_ANNOUNCE_INTERVAL_S
            if due:
                self._ha_announced_at = now
            else:
                self.skipped_announcements += 1
        if due:
            log.info("Home Assistant is online: announcing table %s again", self.table)
            self._announce()

    def _announce(self) -> None:
        with self._lock:
            players = self._players if self._players is not None else self._current_players()
            self._players = players
            wanted = discovery.configs(
                self.table,
                self.prefix,
                players,
                can_press=self.press is not None and self.allow_press,
                url=self.url,
            )
            stale = self._announced.replace(set(wanted))
        for name in sorted(stale):
            self.link.publish(name, b"", retain=True)  # Home Assistant removes the entity
        for name, config in wanted.items():
            self.link.publish(name, topics.dumps(config), retain=True)

    def _current_players(self) -> list[str]:
        return [p["name"] for p in self.session.view().get("players", [])]

    # --- the table's news ---

    def _on_press(self, event: Event) -> None:
        assert isinstance(event, ButtonPressed)
        self.link.publish(
            self.topic(topics.PRESS),
            topics.dumps({"event_type": "press", "t": event.t, "source": event.source}),
        )

    def _on_change(self, event: Event) -> None:
        view = self.session.view()
        players = [p["name"] for p in view.get("players", [])]
        with self._lock:
            changed, self._players = players != self._players, players
        if changed:  # new players: their score sensors come, those who left go
            self._announce()
        self._publish_state(view)

    def _publish_state(self, view: dict[str, Any]) -> None:
        pick = topics.pick_payload(view, self.clock())
        with self._lock:
            new_pick = pick is not None and pick["seq"] != self._pick_seq
            if new_pick:
                self._pick_seq = pick["seq"]  # type: ignore[index]
        if new_pick:
            self.link.publish(self.topic(topics.PICK), topics.dumps(pick), retain=True)  # type: ignore[arg-type]
        if view.get("game") is None:
            return
        self._retain(topics.SCORES, topics.dumps(topics.scores_payload(view)))
        self._retain(topics.LEADER, topics.leader_state(view))
        self._retain(topics.WINNER, topics.dumps(topics.winner_payload(view)))

    def _retain(self, leaf: str, payload: str) -> None:
        """Publish a retained state when it differs from the last one published."""
        with self._lock:
            if self._last.get(leaf) == payload:
                return
            self._last[leaf] = payload
        self.link.publish(self.topic(leaf), payload, retain=True)

    # --- commands ---

    def _on_press_command(self, _topic: str, payload: bytes, retained: bool) -> None:
        if retained:
            return  # a press left retained on the broker is not a press now
        if not self.allow_press:
            self.refused_presses += 1
            log.warning(
                "MQTT press command on %s refused: allow_press is off in [mqtt]",
                self.topic(topics.PRESS_COMMAND),
            )
            return
        if payload.decode(errors="replace").strip() != topics.PRESS_PAYLOAD:
            log.warning("MQTT press command ignored: the payload must be %r", topics.PRESS_PAYLOAD)
            return
        assert self.press is not None
        self.press()
