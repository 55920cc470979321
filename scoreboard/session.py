"""The live table session: the engine's fold kept in step with the journal and the bus.

Every change goes the same way, whoever asks (a phone, the web page, a pick from the tray):
validate with the sheet of the game's ruleset (`engine.sheets.apply`: a refused entry changes
nothing), commit to the journal,
then adopt the new state and publish `TableChanged`. So the displays, which redraw on
`TableChanged`, never show anything the journal does not already hold.

A pick is journaled at once but kept out of the view until the tray's lights have settled on it:
the pick carries that moment (`Pick.settles_at`, monotonic; see `scoreboard.reveal`), and the
tray service announces it once with `PickSettled` (here also called `PickRevealed`), on which the
displays redraw. A pick without a show (no tray, a tray that failed) shows at once. Anything
else that names picks (exports, digital play's views) asks `hidden_pick()` or `settled(seq)`.

Threads: picks arrive from the tray service's relay thread (never the tray's own: the journal
fsyncs here), entries from the web server's; one lock serialises them.
"""

from __future__ import annotations

import array
import dataclasses
import json
import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from engine import registry, sheets
from engine.score_sheet import EntryError, Keeping, Sheet, UnknownEntryError
from scoreboard import names, reveal, wins
from scoreboard.journal import ConfirmError, DamagedGame, Journal, JournalWriteError
from scoreboard.view import RECENT_HANDS, build_view
from tray.bus import Bus
from tray.config import ShowSettings
from tray.events import Event, Pick, PickSettled, event_type
from tray.log_limit import RepeatLimit

log = logging.getLogger(__name__)
log.addFilter(RepeatLimit())  # a flood of one error is a few lines a minute


@event_type
@dataclasses.dataclass(frozen=True, slots=True)
class TableChanged(Event):
    """The table session took an entry (`kind`), now journaled under id `version`."""

    type: ClassVar[str] = "table_changed"
    version: int
    game: int | None
    kind: str


PickRevealed = PickSettled
"""The displays' name for the tray's `PickSettled`: the lights have landed on pick `seq`, so the
displays may name it now (nothing new is journaled; the view changes without a new version)."""


class NothingToRedoError(EntryError):
    """Redo with nothing undone since the last new entry."""


class PlayedGameError(EntryError):
    """A scoring entry for a game the engine plays: its hands are its record's."""


class Undone:
    """What Undo took back in the game in play, latest last, so Redo can enter it again.

    The journal already says it: an undo is an entry that takes back the latest scoring entry
    still standing, so the ids of those (`done`) and of the ones undone (`undone`) are rebuilt
    from the journal's entries at a start, and a restart keeps Redo. Only ids are kept (a
    game of 100,000 hands is 800 kB of them), and the entry Redo would bring back. A new
    scoring entry ends Redo, unless it is the very entry undone (Redo sends just that, and
    typing the same hand again is the same thing), which is then redone."""

    def __init__(self, journal: Journal, undoable: Callable[[], frozenset[str]]) -> None:
        self.journal = journal
        self.undoable = undoable  # the kinds the game in play's sheet undoes
        self.done = array.array("q")
        self.undone = array.array("q")
        self.top: dict[str, Any] | None = None  # what Redo enters: `undone[-1]`, as kept

    def replay(self, game: int | None) -> None:
        """Rebuilt from game `game`'s entries in the journal (None: no game, nothing undone)."""
        self.done, self.undone, self.top = array.array("q"), array.array("q"), None
        for entry_id, kind in self.journal.kinds(game) if game is not None else []:
            self.took(entry_id, kind, None)

    def took(self, entry_id: int, kind: str, entry: Mapping[str, Any] | None) -> None:
        """The table took entry `entry_id` (its content `entry`, or None: read it if needed)."""
        if kind in self.undoable():
            if self.top is not None and self.top == (entry or self.journal.entry(entry_id)):
                self.undone.pop()
            else:
                del self.undone[:]
            self.done.append(entry_id)
        elif kind == "undo" and self.done:
            self.undone.append(self.done.pop())
        else:
            return
        self.top = self.journal.entry(self.undone[-1]) if self.undone else None


class TableSession:
    """Owns the current game: `submit` entries, start a `new_game`, read the `view`.

    Thread-safe: picks arrive on the bus from the tray service's relay thread, entries from
    the web server's. `show` is the tray's show settings (the virtual tray plays its frames);
    `clock` is the clock `Pick.settles_at` is on (monotonic; tests pass one they move by hand).
    `home`: the ruleset a game is of when none is named, and whose sheet takes the picks made
    before any game (`engine.sheets.home()`: the first shipped that keeps one).
    """

    def __init__(
        self,
        journal: Journal,
        bus: Bus | None = None,
        *,
        show: ShowSettings | None = None,
        clock: Callable[[], float] = time.monotonic,
        home: str | None = None,
    ):
        self.home = home or sheets.home()
        self.journal = journal
        self.bus = bus or Bus()
        self.show_settings = show
        self._clock = clock
        self._lock = threading.RLock()
        self.game_id, self.table = self._latest(journal)
        self.played = self._is_played(self.game_id)
        self.moved = 0  # hands the engine played put on the sheet, for the views' cache
        self.version = journal.last_id()
        self._undone = Undone(journal, lambda: self._keeper().undoable)
        self._undone.replay(self.game_id)
        self._wins: tuple[int, dict[str, Any]] | None = None  # (journal's results_version, tally)
        self._won_at: tuple[tuple[int, int], float] | None = None  # ((game, version), when won)
        self._showing: reveal.Showing | None = None  # the latest pick's show, if seen live
        self._cached: tuple[tuple[Any, ...], dict[str, Any], str] | None = None
        self._change: tuple[str, str, str] | None = None  # (old text, new text, change)
        self._unsubscribe: Callable[[], None] = self.bus.subscribe(self._on_pick, Pick)
        self.unsaved: str | None = journal.unwritable  # why nothing is saved, until it is
        self.unkept_pick: int | None = None  # a pick the tray showed and the journal lacks
        journal.when_writable(self._writable_again)

    def _keeper(self) -> Keeping:
        game = self.table.game
        return sheets.keeping(self.home if game is None else game.ruleset)

    def _is_played(self, game: int | None) -> bool:
        """Game `game` is one the engine plays: digital play scores its hands (`played_hands`)."""
        return game is not None and self.journal.played(game)

    def _latest(self, journal: Journal) -> tuple[int | None, Sheet]:
        """The latest game and its table; a damaged one is set aside (the journal says which
        and why, and the page shows it), so the table starts with no game in play."""
        game = journal.latest_game()
        try:
            return game, journal.load(game)
        except DamagedGame as exc:
            journal.report_damage(f"{exc}: start a new game")
        try:
            return None, journal.load(None)  # the picks made with no game, at least
        except DamagedGame:
            return None, sheets.empty(self.home)

    # --- writing ---

    def submit(self, entry: Mapping[str, Any]) -> int:
        """Apply, journal and announce one entry; EntryError (nothing changed) if refused.
        `{"kind": "redo"}` is `redo()`: the pages send it where they send an undo."""
        if entry.get("kind") == "redo":
            if len(entry) > 1:
                raise UnknownEntryError("a redo has no fields: it enters what Undo took back")
            return self.redo()
        return self._submit(dict(entry), None)

    def redo(self) -> int:
        """Enter again what the latest undo took back (the same entry, journaled anew: the
        journal's model has no redo, and needs none); NothingToRedoError if nothing is."""
        with self._lock:
            entry = self._undone.top
            if entry is None:
                raise NothingToRedoError(
                    "nothing to redo: Redo brings back what Undo took, until a new entry is made"
                )
            return self._submit(dict(entry), None)

    @property
    def redoable(self) -> str | None:
        """The kind of entry Redo would bring back (hand, edit, void, dealer), or None."""
        with self._lock:
            top = self._undone.top
            return None if top is None else str(top.get("kind"))

    def _submit(self, entry: dict[str, Any], showing: reveal.Showing | None) -> int:
        if entry.get("kind") == "start":
            raise UnknownEntryError("start a game with new_game, not as an entry")
        if self.played and entry.get("kind") in {"undo", *self._keeper().undoable}:
            raise PlayedGameError(
                f"game {self.game_id} is played on the digital table (/play): its hands are "
                f"scored from its play, so its score sheet takes no {entry['kind']} entry"
            )
        base, new = self._applied(entry)
        with self._lock:
            if new is None or self.table is not base:  # another came first: apply to it
                new = sheets.apply(self.table, entry, self.home)
            version = self._saved(lambda: self.journal.append(self.game_id, entry))
            self.table, self.version = new, version
            self._undone.took(version, entry["kind"], entry)
            if entry["kind"] == "pick":  # adopted with the pick, so no view shows it early
                self._showing = showing
        self.bus.publish(TableChanged(version, self.game_id, entry["kind"]))
        return version

    APPLY_TRIES: ClassVar[int] = 3

    def _applied(self, entry: dict[str, Any]) -> tuple[Sheet, Sheet | None]:
        """(a table, that table after `entry`), worked out outside the lock: an edit of an early
        hand re-settles every later one (most of a second at 50,000 hands here), and the pages,
        the tray's picks and the other writers must not wait for it. Tried again while other
        entries are adopted meanwhile (None after a few tries: `_submit` applies it under the
        lock). A refusal is raised only as the table in play refuses it."""
        base = self.table
        for _ in range(self.APPLY_TRIES):
            base = self.table
            try:
                new = sheets.apply(base, entry, self.home)
            except EntryError:
                if self.table is base:
                    raise
                continue
            if self.table is base:
                return base, new
        return base, None

    def new_game(
        self,
        players: list[str],
        dealer: int = 0,
        options: Mapping[str, Any] | None = None,
        *,
        name: str | None = None,
        confirm: bool = False,
        ruleset: str | None = None,
        played: bool = False,
    ) -> int:
        """Start a new game (the old one stays in the journal); `played`: one the engine
        plays, whose hands digital play scores (`played_hands`), not entries. While a game with
        hands entered is unfinished, `confirm=True` is needed: a stray tap must not end it. The
        names are checked and kept as `scoreboard.names` says (NameRefused, a sentence, if
        not); a game given no name is kept under its rules and players, as a digital game
        is."""
        name = names.game_name(name)
        kept = names.players(players)
        ruleset = ruleset or self.home
        start = {
            "kind": "start",
            "players": kept,
            "dealer": dealer,
            "options": {} if options is None else options,
            "ruleset": ruleset,
        }
        with self._lock:
            # every refusal before the question: nobody confirms a game that cannot start
            new = sheets.apply(self.table, start, self.home)  # keeps the latest pick alone
            if name is None:
                name = names.listed(f"{registry.get(ruleset).title}: ", kept)
            game = self.table.game
            if game is not None and game.hands and not game.over and not confirm:
                raise ConfirmError(
                    f"the current game is not finished ({len(game.hands)} hands played): "
                    "confirm to start a new one (the current game is kept in the journal)"
                )
            self.game_id = self._saved(lambda: self.journal.create_game(start, name))
            self.table, self.version = new, self.journal.last_id()
            self.played = played
            self._undone.replay(None)
        self.bus.publish(TableChanged(self.version, self.game_id, "start"))
        return self.game_id

    def played_hands(self, game: int, hands: Sequence[Mapping[str, Any]]) -> None:
        """Game `game`, which the engine plays, has finished `hands` (its
        `finished_hands()`, all in the journal already: its record is kept before any page
        sees a move): the score sheet takes those it lacks, scored by its ruleset's rules
        (`engine.sheets.played`). Nothing is entered; a game no longer in play is left as it
        is (the sheet of a game is read from its record whenever it is loaded)."""
        with self._lock:
            if game != self.game_id or not self.played:
                return
            table = sheets.played(self.table, hands)
            if table is self.table:
                return
            self.table, self.moved = table, self.moved + 1
        self.bus.publish(TableChanged(self.version, self.game_id, "played"))

    def game_won(
        self,
        game: int | None,
        players: list[str],
        winner: int,
        ruleset: str,
        *,
        mode: str | None = None,
    ) -> None:
        """Digital game `game` (None: kept without its game) is over: journal who won, then
        announce it (a game without points has no score sheet: the tally of wins counts it)."""
        with self._lock:
            self._saved(lambda: self.journal.add_result(game, players, winner, ruleset, mode=mode))
        self.bus.publish(TableChanged(self.version, self.game_id, "won"))

    @property
    def wins(self) -> dict[str, Any]:
        """The tally of wins of the games without points (`scoreboard.wins`), read again from
        the journal's results whenever they change (a game won, a game deleted)."""
        with self._lock:
            version = self.journal.results_version
            if self._wins is None or self._wins[0] != version:
                self._wins = (version, wins.tally(self.journal.results()))
            return self._wins[1]

    def _saved(self, write: Callable[[], int]) -> int:
        """`write` to the journal; a failure is kept for the pages to say (and raised: the
        caller changes nothing), a success clears it."""
        try:
            written = write()
        except JournalWriteError as exc:  # the journal's own sentence while nothing can be saved
            self.unsaved = self.journal.unwritable or str(exc)
            log.warning("%s", exc)
            self.bus.publish(TableChanged(self.version, self.game_id, "unsaved"))
            raise
        if self.unsaved is not None:
            self.unsaved = None
            log.warning("the journal saves again")
        return written

    def _writable_again(self) -> None:
        """The journal, opened when nothing could be saved, saves again: the pages stop saying
        otherwise (a pick the tray showed meanwhile stays said: it was not kept)."""
        with self._lock:
            self.unsaved = None
        self.bus.publish(TableChanged(self.version, self.game_id, "saving"))

    def _on_pick(self, event: Event) -> None:
        """Journal a pick. The tray has already lit it and the table must not stop: on a full
        disk the pick stands at the table, and every page says it was not kept."""
        assert isinstance(event, Pick)
        showing = reveal.start(event, self.show_settings, self._clock())
        entry = {
            "kind": "pick",
            "seq": event.seq,
            "colour": event.colour,
            "t": event.t,
            "source": event.source,
        }
        try:
            self._submit(entry, showing)
        except JournalWriteError:
            self.unkept_pick = event.seq
            return
        self.unkept_pick = None

    # --- when a pick may be named ---

    def hidden_pick(self) -> int | None:
        """The sequence number of the latest pick while the tray's lights are still on their way
        to it (nothing may name its colour yet), else None."""
        with self._lock:
            showing, last = self._showing, self.table.last_pick
            if (
                showing is not None
                and last is not None
                and last.seq == showing.seq
                and showing.hidden(self._clock())
            ):
                return showing.seq
            return None

    def settled(self, seq: int) -> bool:
        """True if pick `seq` may be named now: its lights have landed (or it had no show)."""
        return self.hidden_pick() != seq

    def settles_in(self, pick: Pick) -> float:
        """Seconds from now until the lights land on `pick` (0: landed, or it had no show).
        Digital play takes a pick into its game only then, so its pages cannot tell it early."""
        now = self._clock()
        showing = reveal.start(pick, self.show_settings, now)
        return 0.0 if showing is None else max(0.0, showing.reveal_at - now)

    def entry_shown(self, entry: Mapping[str, Any]) -> bool:
        """False for a pick entry whose lights are still spinning."""
        return entry.get("kind") != "pick" or self.settled(entry.get("seq", -1))

    def export_json(self, game: int) -> str:
        """The journal's JSON export of `game`, without a pick the lights have not settled on."""
        return self.journal.export_json(game, shown=self.entry_shown)

    def show(self) -> dict[str, Any]:
        """The latest pick's light show as the virtual tray plays it (`reveal.Showing.payload`)."""
        with self._lock:
            last = self.table.last_pick
            showing = self._showing
            if showing is None or last is None or last.seq != showing.seq:
                return reveal.no_show(last.seq if last else None)
            if not showing.frames:
                return reveal.no_show(last.seq)
            return showing.payload(self._clock())

    # --- reading ---

    def view(self) -> dict[str, Any]:
        """The whole view, every hand (the terminal, /api/view?hands=all)."""
        with self._lock:
            view = build_view(
                self.table,
                home=self.home,
                game_id=self.game_id,
                version=self.version,
                pick_hidden=self.hidden_pick() is not None,
                wins=self.wins,
            )
            self._retire_banner(view)
            view["journal"] = self._journal_state()
            view["redo"] = self.redoable
            view["played"] = self.played
            return view

    def _retire_banner(self, view: dict[str, Any]) -> None:
        """The winner banner belongs to its game: once a game without points (which has no
        score sheet here) has ended after the table's game was won, the banner says it is
        `superseded` (the winners' rows keep their tag while these totals are shown)."""
        later = view["wins"].get("last_t")
        if view["winner"] is None or later is None or self.game_id is None:
            return
        won = self._won_at
        if won is None or won[0] != (self.game_id, self.version):
            won = self._won_at = ((self.game_id, self.version), self._won_when(self.game_id))
        view["winner"]["superseded"] = later > won[1]

    def _won_when(self, game: int) -> float:
        """When the journal says game `game` was won: the time of the entry that ended it (the
        last one that turned it from unfinished to over), not its last entry. A pick or a
        declared card journaled after the win (the button pressed while a later game was
        played, or after it) must not make the win newer than that game's end, or the banner
        comes back on every page opened since. A game the engine played ended with its
        record: its result's time says when."""
        if self.played:
            return self.journal.won_at(game) or 0.0
        table, won = sheets.empty(self.home), 0.0
        for logged in self.journal.entries(game):
            was_over = table.game is not None and table.game.over
            table = sheets.apply(table, logged.entry, self.home)
            if table.game is not None and table.game.over and not was_over:
                won = logged.t
        return won

    def _journal_state(self) -> dict[str, Any]:
        """Whether what the page shows is saved: every page says so when it is not."""
        return {
            "unsaved": self.unsaved,
            "unkept_pick": self.unkept_pick,
            "damaged": list(self.journal.damaged),
        }

    def view_json(self) -> tuple[int, str]:
        """(version, the view as JSON), computed once per version (and reveal) for every client.
        The text can change without a new version: when the latest pick is revealed. Bounded:
        the last `RECENT_HANDS` hands and the chart, whatever the game's length."""
        with self._lock:
            key = (
                self.version,
                self.moved,
                self.hidden_pick() is not None,
                self.journal.results_version,
                self.unsaved,
                self.unkept_pick,
                len(self.journal.damaged),
            )
            cached = self._cached
            if cached is None or cached[0] != key:
                view = build_view(
                    self.table,
                    home=self.home,
                    game_id=self.game_id,
                    version=self.version,
                    pick_hidden=key[2],
                    recent=RECENT_HANDS,
                    wins=self.wins,
                )
                self._retire_banner(view)
                view["journal"] = self._journal_state()
                view["redo"] = self.redoable  # a function of the version, as the rest
                view["played"] = self.played  # the game's, as its version is
                cached = (key, view, json.dumps(view, separators=(",", ":")))
                self._cached = cached
            return key[0], cached[2]

    def view_change(self, old: str, new: str) -> str:
        """The top-level keys of view text `new` that differ from view text `old`, as JSON:
        what the event stream sends a page that has `old` (computed once for all of them)."""
        with self._lock:
            cached = self._change
            if cached is not None and cached[0] is old and cached[1] is new:
                return cached[2]
        before, after = json.loads(old), json.loads(new)
        text = json.dumps(
            {k: v for k, v in after.items() if before.get(k) != v}, separators=(",", ":")
        )
        with self._lock:
            self._change = (old, new, text)
        return text

    def replace_journal(self, swap: Callable[[], int]) -> int:
        """Run `swap`, which makes the journal another one (a restore: `scoreboard.backup`),
        with every entry and pick held back meanwhile (they would go to a game of the journal
        replaced), then take the table up from the journal as it is now, as at a start, and
        tell every page. Returns what `swap` returns; if it raises, nothing changed here."""
        with self._lock:
            done = swap()
            self.game_id, self.table = self._latest(self.journal)
            self.played = self._is_played(self.game_id)
            self.version = self.journal.last_id()
            self._undone.replay(self.game_id)
            self._wins = self._won_at = self._showing = None
            self._cached = self._change = None
            self.unsaved, self.unkept_pick = self.journal.unwritable, None
        self.bus.publish(TableChanged(self.version, self.game_id, "restored"))
        return done

    def close(self) -> None:
        self._unsubscribe()
