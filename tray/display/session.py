"""The live table session: the engine's fold kept in step with the journal and the bus.

Every change goes the same way, whoever asks (a phone, the web page, a pick from the tray):
validate with `engine.table.apply` (a refused entry changes nothing), commit to the journal,
then adopt the new state and publish `TableChanged`. So the displays, which redraw on
`TableChanged`, never show anything the journal does not already hold.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from engine import table as T
from tray.bus import Bus
from tray.display.view import build_view
from tray.events import Event, Pick, event_type
from tray.journal import ConfirmError, Journal


@event_type
@dataclasses.dataclass(frozen=True, slots=True)
class TableChanged(Event):
    """The table session took an entry (`kind`), now journaled under id `version`."""

    type: ClassVar[str] = "table_changed"
    version: int
    game: int | None
    kind: str


class TableSession:
    """Owns the current game: `submit` entries, start a `new_game`, read the `view`.

    Thread-safe: picks arrive on the bus in the tray's thread, entries from the web server's.
    """

    def __init__(self, journal: Journal, bus: Bus | None = None):
        self.journal = journal
        self.bus = bus or Bus()
        self._lock = threading.RLock()
        self.game_id = journal.latest_game()
        self.table = journal.load(self.game_id)
        self.version = journal.last_id()
        self._cached: tuple[int, dict[str, Any], str] | None = None
        self._unsubscribe: Callable[[], None] = self.bus.subscribe(self._on_pick, Pick)

    # --- writing ---

    def submit(self, entry: Mapping[str, Any]) -> int:
        """Apply, journal and announce one entry; EntryError (nothing changed) if refused."""
        entry = dict(entry)
        with self._lock:
            if entry.get("kind") == "start":
                raise T.UnknownEntryError("start a game with new_game, not as an entry")
            new = T.apply(self.table, entry)
            version = self.journal.append(self.game_id, entry)
            self.table, self.version = new, version
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
    ) -> int:
        """Start a new game (the old one stays in the journal). While a game with hands entered
        is unfinished, `confirm=True` is needed: a stray tap must not end it."""
        start = {"kind": "start", "players": players, "dealer": dealer,
                 "options": {} if options is None else options}
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
        self.submit({"kind": "pick", "seq": event.seq, "colour": event.colour,
                     "t": event.t, "source": event.source})

    # --- reading ---

    def view(self) -> dict[str, Any]:
        return self._snapshot()[1]

    def view_json(self) -> tuple[int, str]:
        """(version, the view as JSON), computed once per version for every client."""
        version, _, text = self._snapshot()
        return version, text

    def _snapshot(self) -> tuple[int, dict[str, Any], str]:
        with self._lock:
            cached = self._cached
            if cached is None or cached[0] != self.version:
                view = build_view(self.table, game_id=self.game_id, version=self.version)
                cached = (self.version, view, json.dumps(view, separators=(",", ":")))
                self._cached = cached
            return cached

    def close(self) -> None:
        self._unsubscribe()
