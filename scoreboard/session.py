"""The live table session: the engine's fold kept in step with the journal and the bus.

Every change goes the same way, whoever asks (a phone, the web page, a pick from the tray):
validate with `engine.table.apply` (a refused entry changes nothing), commit to the journal,
then adopt the new state and publish `TableChanged`. So the displays, which redraw on
`TableChanged`, never show anything the journal does not already hold.

A pick is journaled at once but kept out of the view until the tray's lights have settled on it
(`scoreboard.reveal`): then `PickRevealed` tells the displays to redraw. Given no show settings
(a display without a tray), picks show at once.
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from engine import table as T
from scoreboard import reveal
from scoreboard.journal import ConfirmError, Journal
from scoreboard.view import build_view
from tray.backend import COLOURS
from tray.bus import Bus
from tray.config import ShowSettings
from tray.events import Event, Pick, event_type


@event_type
@dataclasses.dataclass(frozen=True, slots=True)
class TableChanged(Event):
    """The table session took an entry (`kind`), now journaled under id `version`."""

    type: ClassVar[str] = "table_changed"
    version: int
    game: int | None
    kind: str


@event_type
@dataclasses.dataclass(frozen=True, slots=True)
class PickRevealed(Event):
    """The lights have settled on pick `seq`: the displays may show it now (nothing new is
    journaled; the view changes without a new version)."""

    type: ClassVar[str] = "pick_revealed"
    seq: int


Schedule = Callable[[float, Callable[[], None]], Callable[[], None]]
"""schedule(delay_s, fn) -> cancel: run fn once, about delay_s from now, on some thread."""


def timer(delay: float, fn: Callable[[], None]) -> Callable[[], None]:
    """The default Schedule: a daemon threading.Timer (a pick every few seconds at most)."""
    t = threading.Timer(delay, fn)
    t.daemon = True
    t.start()
    return t.cancel


class TableSession:
    """Owns the current game: `submit` entries, start a `new_game`, read the `view`.

    Thread-safe: picks arrive on the bus in the tray's thread, entries from the web server's.
    `show` is the tray's show settings (picks stay hidden while its lights spin); `clock` is the
    clock `Pick.t` is on (wall time); `schedule` wakes the session when a pick may be shown.
    """

    def __init__(
        self,
        journal: Journal,
        bus: Bus | None = None,
        *,
        show: ShowSettings | None = None,
        clock: Callable[[], float] = time.time,
        schedule: Schedule = timer,
    ):
        self.journal = journal
        self.bus = bus or Bus()
        self.show_settings = show
        self._clock, self._schedule = clock, schedule
        self._lock = threading.RLock()
        self.game_id = journal.latest_game()
        self.table = journal.load(self.game_id)
        self.version = journal.last_id()
        self._showing: reveal.Showing | None = None  # the latest pick's show, if seen live
        self._cancel_reveal: Callable[[], None] = lambda: None
        self._cached: tuple[tuple[int, bool], dict[str, Any], str] | None = None
        self._unsubscribe: Callable[[], None] = self.bus.subscribe(self._on_pick, Pick)

    # --- writing ---

    def submit(self, entry: Mapping[str, Any]) -> int:
        """Apply, journal and announce one entry; EntryError (nothing changed) if refused."""
        return self._submit(dict(entry), None)

    def _submit(self, entry: dict[str, Any], showing: reveal.Showing | None) -> int:
        with self._lock:
            if entry.get("kind") == "start":
                raise T.UnknownEntryError("start a game with new_game, not as an entry")
            new = T.apply(self.table, entry)
            version = self.journal.append(self.game_id, entry)
            self.table, self.version = new, version
            if entry["kind"] == "pick":  # adopted with the pick, so no view shows it early
                self._showing = showing
        self.bus.publish(TableChanged(version, self.game_id, entry["kind"]))
        return version

    def new_game(
        self,
        players: list[str],
        dealer: int = 0,
        options: Mapping[str, Any] | None = None,
        *,
        name: str | None = None,
        confirm: bool = False,
        ruleset: str = "disney",
    ) -> int:
        """Start a new game (the old one stays in the journal). While a game with hands entered
        is unfinished, `confirm=True` is needed: a stray tap must not end it."""
        start = {"kind": "start", "players": players, "dealer": dealer,
                 "options": {} if options is None else options, "ruleset": ruleset}
        with self._lock:
            game = self.table.game
            if game is not None and game.hands and not game.over and not confirm:
                raise ConfirmError(
                    f"the current game is not finished ({len(game.hands)} hands played): "
                    "confirm to start a new one (the current game is kept in the journal)"
                )
            new = T.apply(dataclasses.replace(T.EMPTY, last_pick=self.table.last_pick), start)
            self.game_id = self.journal.create_game(start, name)
            self.table, self.version = new, self.journal.last_id()
        self.bus.publish(TableChanged(self.version, self.game_id, "start"))
        return self.game_id

    def _on_pick(self, event: Event) -> None:
        assert isinstance(event, Pick)
        showing = None
        if self.show_settings is not None and event.colour in COLOURS:
            showing = reveal.start(event, self.show_settings, self._clock())
        self._submit({"kind": "pick", "seq": event.seq, "colour": event.colour,
                      "t": event.t, "source": event.source}, showing)
        if showing is not None:
            self._reveal_when_due(showing)

    def _reveal_when_due(self, showing: reveal.Showing) -> None:
        """Announce `PickRevealed` once the session's clock has passed the reveal time (a timer
        that fires a little early, or on another clock, just waits again)."""
        with self._lock:
            if self._showing is not showing:
                return  # a later pick took over
            wait = showing.reveal_at - self._clock()
            if wait > 0:
                self._cancel_reveal()
                self._cancel_reveal = self._schedule(
                    wait, lambda: self._reveal_when_due(showing))
                return
        self.bus.publish(PickRevealed(showing.seq))

    def _pick_hidden(self, now: float) -> bool:
        showing, last = self._showing, self.table.last_pick
        return (showing is not None and last is not None and last.seq == showing.seq
                and showing.hidden(now))

    def show(self) -> dict[str, Any]:
        """The latest pick's light show as the virtual tray plays it (`reveal.Showing.payload`)."""
        with self._lock:
            last = self.table.last_pick
            showing = self._showing
            if showing is None or last is None or last.seq != showing.seq:
                return reveal.no_show(last.seq if last else None)
            return showing.payload(self._clock())

    # --- reading ---

    def view(self) -> dict[str, Any]:
        return self._snapshot()[1]

    def view_json(self) -> tuple[int, str]:
        """(version, the view as JSON), computed once per version (and reveal) for every client.
        The text can change without a new version: when the latest pick is revealed."""
        (version, _), _, text = self._snapshot()
        return version, text

    def _snapshot(self) -> tuple[tuple[int, bool], dict[str, Any], str]:
        with self._lock:
            key = (self.version, self._pick_hidden(self._clock()))
            cached = self._cached
            if cached is None or cached[0] != key:
                view = build_view(self.table, game_id=self.game_id, version=self.version,
                                  pick_hidden=key[1])
                cached = (key, view, json.dumps(view, separators=(",", ":")))
                self._cached = cached
            return cached

    def close(self) -> None:
        self._unsubscribe()
        with self._lock:
            self._cancel_reveal()
