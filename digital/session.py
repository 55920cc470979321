"""Digital play on the display: the engine holds every hand, people play seats in the browser
against bots on the others, and the tray's Tinker Bell button (real or virtual) picks.

`DigitalSession` owns one game at a time through an `EngineLink` with human seats. Each human
seat gets a secret seat key when the game starts: its page shows that seat's hand and acts for
it. `view(seat, key)` is all a page ever receives: the public state (top card, colour in play,
how many cards each seat holds, whose move, what the engine awaits, the last events in words,
scores) plus, with the right key, that one seat's hand and moves. No other hand ever leaves the
engine while the game runs; the game record (which holds the decks) is exported when it is over.

Finished hands are also entered on the table session (when given one), so the scoreboard, its
chart and the journal's CSV/JSON export follow a digital game exactly as a table game.

With a table session, every move is also committed to its journal (`Journal.append_moves`)
before any page can see it: the link publishes its progress under its lock, which `view` takes
too. A restart (or kill -9) then resumes the game where it stood: the record is replayed, each
person's seat keeps its key (their page reconnects as it was), and the bots carry on.

UNO Elite (`ruleset="elite"`) runs on its own engine (`engine.elite`) through `EliteLink`, with
the same seat keys, views and moves: its view is the engine's seat view (`digital.elite_view`),
it has no Tinker Bell and no points, so no table game is started for it; its record is kept in
the journal's Elite tables (`digital.elite_saved`) and its winner goes on the scoreboard's tally
of Elite wins. Its cards come from the command line (`elite`, an `EliteBox`).
"""

from __future__ import annotations

import json
import logging
import random
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from digital import elite_game, elite_saved
from digital.elite_game import ELITE, EliteBox
from digital.elite_link import EliteLink
from digital.elite_view import elite_view
from digital.engine_link import EngineLink, GameProgress
from engine import bots as B
from engine import cards as C
from engine import observer, record
from engine.game import Game
from engine.record import RecordError
from scoreboard import elite_wins
from scoreboard.journal import ConfirmError, DamagedGame, EliteResult
from tray.bus import Bus

log = logging.getLogger(__name__)

MAX_NAME = 24
MAX_PACE = 5.0


class SeatError(PermissionError):
    """A request for a seat's hand or move without that seat's key."""


class NoGameError(LookupError):
    """Nothing to act on or export: no digital game has been started."""


class DigitalSession:
    """The display's digital game. Thread-safe (the link's lock guards the game)."""

    def __init__(
        self,
        bus: Bus,
        *,
        table: Any = None,
        on_change: Callable[[], None] | None = None,
        pace: float = 0.8,
        elite: EliteBox | None = None,
    ):
        self.bus, self.table, self.on_change, self.pace = bus, table, on_change, pace
        self.link: EngineLink | None = None
        self.elite_box = elite  # UNO Elite's cards, from the command line
        self.elite_link: EliteLink | None = None  # the game in play, if it is UNO Elite
        self._tallied = False  # the Elite game's winner is on the tally
        self._elite_saved: elite_saved.EliteSaved | None = None  # its record in the journal
        self.elite_results: list[EliteResult] = []  # without a table: this session's tally
        self.keys: dict[int, str] = {}
        self.version = 0
        self._lock = threading.Lock()
        self._mirrored = 0
        self.journal_error: str | None = None
        self._saved: _Saved | None = None
        self._notes = observer.EventNotes(None)
        self._declared: tuple[int, int] | None = None  # (hand, event) last declared
        self._unsubscribe = bus.subscribe(self._progress, GameProgress)
        if table is not None:
            self._resume()

    # ------------------------------------------------------------------ starting
    def new_game(
        self,
        players: Any,
        humans: Any = (0,),
        bots: Any = "greedy",
        dealer: Any = 0,
        options: Any = None,
        ruleset: Any = "disney",
        *,
        seed: Any = None,
        pace: Any = None,
        confirm: bool = False,
    ) -> dict[int, str]:
        """Start a game (replacing the current one); returns {human seat: seat key}.
        ValueError, naming the problem, for anything malformed."""
        names = _names(players)
        bot_names, pace = _checked(bots, seed, self.pace if pace is None else pace, options)
        if isinstance(dealer, bool) or not isinstance(dealer, int):
            raise ValueError(f"the dealer must be a seat number, not {dealer!r}")
        if not isinstance(ruleset, str):
            raise ValueError("ruleset is a name: disney, classic, official-2018, elvis or elite")
        rng = random.Random(seed) if seed is not None else random.SystemRandom()
        elite = self.elite_link
        if self.table is not None and elite is not None and not elite.is_over() and not confirm:
            raise ConfirmError(
                "the UNO Elite game in play is not finished: confirm to start a new one "
                "(its record is kept in the journal)"
            )
        if ruleset == ELITE:
            return self._new_elite(names, humans, bot_names, options, rng, pace)
        game = Game(ruleset, names, dealer, options)  # ValueError: bad ruleset, options, counts
        seats = _humans(humans, len(names))
        bot_list = B.make(bot_names, len(names), rng, clock=time.perf_counter)  # ValueError
        if self.table is not None:  # may ask for a confirmation first: nothing has changed yet
            self.table.new_game(
                names, dealer, options, name="digital game", confirm=confirm, ruleset=ruleset
            )
        keys = {s: secrets.token_urlsafe(9) for s in seats}
        saved = None
        if self.table is not None:
            seating = {
                "humans": sorted(seats),
                "keys": {str(s): k for s, k in keys.items()},
                "bots": bot_names,
                "pace": pace,
            }
            saved = _Saved(self.table.journal, self.table.game_id, seating)
        link = EngineLink(
            self.bus,
            game,
            list(bot_list),
            rng,
            humans=seats,
            pace=pace,
            settles_in=self._settles_in,
        )
        self._adopt(link, keys, saved, mirrored=0)
        return keys

    def _new_elite(
        self,
        names: list[str],
        humans: Any,
        bot_names: list[str],
        options: Mapping[str, Any] | None,
        rng: random.Random,
        pace: float,
    ) -> dict[int, str]:
        """An UNO Elite game (no Tinker Bell, no points: the scoreboard tallies its winner)."""
        game = elite_game.new_game(self.elite_box, names, options)  # ValueError
        seats = _humans(humans, len(names))
        link = elite_game.link(self.bus, game, seats, bot_names, rng, pace)
        keys = {s: secrets.token_urlsafe(9) for s in seats}
        saved = None
        if self.table is not None:
            seated = elite_saved.seating(seats, keys, bot_names, pace)
            saved = elite_saved.EliteSaved.start(self.table.journal, game, seated)
        self._adopt_elite(link, keys, saved, tallied=False)
        return keys

    def _adopt_elite(
        self,
        link: EliteLink,
        keys: dict[int, str],
        saved: elite_saved.EliteSaved | None,
        tallied: bool,
    ) -> None:
        with self._lock:
            old, old_elite = self.link, self.elite_link
            self.link, self.elite_link, self.keys = None, link, keys
            self._elite_saved, self._tallied = saved, tallied
            self._saved, self.journal_error = None, None
        for previous in (old, old_elite):
            if previous is not None:
                previous.close()
        link.start()

    def _adopt(
        self, link: EngineLink, keys: dict[int, str], saved: _Saved | None, mirrored: int
    ) -> None:
        if saved is not None:  # its moves go to this game: it must not be deleted under them
            saved.journal.hold(saved.game_id, "digital play (/play)", lambda: not link.is_over())
        with self._lock:
            old, self.link, self.keys = self.link, link, keys
            old_elite, self.elite_link = self.elite_link, None
            self._saved, self._mirrored, self.journal_error = saved, mirrored, None
            self._notes, self._declared = observer.EventNotes(link.game), None
        for previous in (old, old_elite):
            if previous is not None:
                previous.close()
        link.start()

    def _resume(self) -> None:
        """Carry on with the journal's latest game if it is a digital game (finished or not: a
        finished one is shown as it ended, and its record stays exportable). An UNO Elite game
        kept after the table's latest game is the latest."""
        journal, game_id = self.table.journal, self.table.game_id
        elite = journal.latest_elite_game()
        if elite is not None and (game_id is None or elite.created >= journal.created(game_id)):
            self._resume_elite(elite)
            return
        try:
            found = journal.record(game_id) if game_id is not None else None
            if found is None:
                return
            setup, events = found
            game = _replay(setup, events)
            humans = frozenset(setup["humans"])
            keys = {int(s): k for s, k in setup["keys"].items()}
            rng = random.SystemRandom()
            bot_list = B.make(setup["bots"], len(game.players), rng, clock=time.perf_counter)
            pace = float(setup["pace"])
        except (RecordError, KeyError, TypeError, ValueError, DamagedGame) as exc:
            self.journal_error = (
                f"the digital game {game_id} in the journal cannot be resumed "
                f"({exc}); it is kept there untouched"
            )
            log.error("%s", self.journal_error)
            return
        saved = _Saved(journal, game_id, setup, events)
        link = EngineLink(
            self.bus,
            game,
            list(bot_list),
            rng,
            humans=humans,
            pace=pace,
            settles_in=self._settles_in,
        )
        hands = self.table.table.game.hands if self.table.table.game is not None else []
        self._adopt(link, keys, saved, mirrored=min(len(hands), len(game.history)))
        log.info(
            "resumed digital game %d at hand %d after %d moves", game_id, game.hand_no, len(events)
        )

    def _resume_elite(self, kept: Any) -> None:
        try:
            link, keys = elite_saved.resume(self.bus, kept)
        except elite_saved.RESUME_ERRORS as exc:
            self.journal_error = (
                f"the UNO Elite game {kept.id} in the journal cannot be resumed "
                f"({exc}); it is kept there untouched"
            )
            log.error("%s", self.journal_error)
            return
        saved = elite_saved.EliteSaved(self.table.journal, kept.id, len(kept.events))
        self._adopt_elite(link, keys, saved, tallied=kept.won)
        log.info("resumed UNO Elite game %d after %d events", kept.id, len(kept.events))

    def _settles_in(self, pick: Any) -> float:
        """Seconds until the tray's lights settle on `pick`: the game takes it only then, so no
        page can tell it early (0 without a tray, or without a table session)."""
        return self.table.settles_in(pick) if self.table is not None else 0.0

    def close(self) -> None:
        self._unsubscribe()
        for link in (self.link, self.elite_link):
            if link is not None:
                link.close()

    # ------------------------------------------------------------------ playing
    def check_key(self, seat: Any, key: Any) -> int:
        """The seat, if `key` is its seat key; SeatError otherwise."""
        want = self.keys.get(seat) if isinstance(seat, int) and not isinstance(seat, bool) else None
        if want is None or not isinstance(key, str) or not secrets.compare_digest(key, want):
            raise SeatError(f"seat {seat!r} is not yours: open the link made for it at the start")
        return seat

    def seat_of(self, key: str) -> int | None:
        """The seat whose key is `key` in the game in play (None: no such key)."""
        for seat, want in list(self.keys.items()):
            if isinstance(key, str) and secrets.compare_digest(key.encode(), want.encode()):
                return seat
        return None

    def act(
        self, seat: Any, key: Any, action: Any = None, event: Any = None, uno: Any = False
    ) -> None:
        """A person's move for `seat`: an action int or a game-record event (RuleError, with the
        engine's message and nothing changed, if the rules forbid it). `uno` (UNO Elite): play
        the card saying UNO! (the other rulesets have actions of their own for that)."""
        self.act_as(self.check_key(seat, key), action, event, uno)

    def act_as(self, seat: int, action: Any = None, event: Any = None, uno: Any = False) -> None:
        """`act` for a seat whose key the caller has checked already (the web app's roles)."""
        link: EngineLink | EliteLink = self._link()
        if not isinstance(uno, bool):
            raise ValueError("uno is true or false")
        if uno and not isinstance(link, EliteLink):
            raise ValueError("uno goes with UNO Elite's moves; here, send the move with UNO!")
        if event is not None:
            if not isinstance(event, Mapping):
                raise ValueError("event is a game-record event object")
            if event.get("seat", seat) != seat:
                raise SeatError(f"this page plays seat {seat}, not {event.get('seat')!r}")
            link.act_event({**event, "seat": seat})
        elif isinstance(action, int) and not isinstance(action, bool):
            if isinstance(link, EliteLink):
                link.act(seat, action, uno)
            else:
                link.act(seat, action)
        else:
            raise ValueError("send an action (a whole number from moves) or an event")

    def record(self) -> str:
        link = self._link()
        if isinstance(link, EliteLink):
            return elite_game.record_text(link.game)
        return record.dumps(link.game)

    @property
    def over(self) -> bool:
        link = self.elite_link or self.link
        return link is not None and link.is_over()

    def _link(self) -> EngineLink | EliteLink:
        link = self.elite_link or self.link
        if link is None:
            raise NoGameError("no digital game is running: start one first")
        return link

    def _progress(self, _event: GameProgress) -> None:
        if self.elite_link is not None:
            self._elite_progress(self.elite_link)
            return
        saved, link = self._saved, self.link
        if saved is not None and link is not None:
            try:
                saved.keep(link.game)  # in the journal before any page can read it
            except (sqlite3.Error, OSError, LookupError) as exc:
                self.journal_error = f"moves are not being saved in the journal ({exc})"
                log.exception("the journal refused the digital game's moves")
        if link is not None:
            with link.lock:
                self._notes.follow(link.game)
        with self._lock:
            self.version += 1
        self._mirror()
        self._declare()
        if self.on_change is not None:
            self.on_change()

    def _elite_progress(self, link: EliteLink) -> None:
        """An Elite game moved: once it is over, its winner goes on the tally (the scoreboard's,
        with a table session; else this session's own)."""
        saved = self._elite_saved
        with link.lock:
            game = link.game
            winner = game.winner if link.is_over() else None
            if saved is not None:
                try:
                    saved.keep(game)  # in the journal before any page can read it
                except (sqlite3.Error, OSError, LookupError) as exc:
                    self.journal_error = f"moves are not being saved in the journal ({exc})"
                    log.exception("the journal refused the UNO Elite game's moves")
        with self._lock:
            self.version += 1
            tally_now = winner is not None and not self._tallied
            if tally_now:
                self._tallied = True
        if tally_now and winner is not None:
            names, mode = list(game.players), str(game.options.get("mode", "quick"))
            if self.table is not None:
                self.table.elite_won(names, winner, mode, saved.game_id if saved else None)
            else:
                self.elite_results.append(EliteResult(0, time.time(), tuple(names), winner, mode))
        if self.on_change is not None:
            self.on_change()

    def elite_tally(self) -> dict[str, Any]:
        """UNO Elite wins per player: the scoreboard's, or (no table) this session's."""
        if self.table is not None:
            tally: dict[str, Any] = self.table.elite
            return tally
        return elite_wins.tally(self.elite_results)

    def _declare(self) -> None:
        """While the game waits for Tinker Bell, tell the scoreboard which card she answers (so
        its pick panel explains the pick as at a real table, not "no card was declared")."""
        link, saved = self.link, self._saved
        if self.table is None or link is None or saved is None or not link.waiting_for_tinker_bell:
            return
        if self.table.game_id != saved.game_id:
            return
        with link.lock:
            h = link.game.hand
            if h is None:
                return
            at = (link.game.hand_no, len(link.game.events))
            card, seat = C.code(h.trigger), h.seats[h.actor]
        if at == self._declared:
            return
        self._declared = at
        try:
            self.table.submit({"kind": "declare", "card": card, "seat": seat})
        except ValueError:
            log.info("the scoreboard has no pixie-dust card %s to declare", card)

    def _mirror(self) -> None:
        """Enter each finished hand on the table session (the scoreboard and the journal)."""
        link, saved = self.link, self._saved
        if self.table is None or link is None or saved is None:
            return
        if self.table.game_id != saved.game_id:
            return  # the scoreboard has moved on to another game: this one's hands are not its
        history = link.game.history
        while self._mirrored < len(history):
            h = history[self._mirrored]
            self._mirrored += 1
            held = [None if s == h["winner"] else p for s, p in enumerate(h["held"])]
            try:
                self.table.submit({"kind": "hand", "winner": h["winner"], "held": held})
            except ValueError:
                log.exception("the scoreboard refused hand %d of the digital game", h["hand"])

    # ------------------------------------------------------------------ reading
    def view(self, seat: Any = None, key: Any = None) -> dict[str, Any]:
        """What a page may see: the public state, plus seat `seat`'s hand and moves when `key`
        is that seat's key (SeatError otherwise). No other hand is ever in it."""
        if seat is not None:
            seat = self.check_key(seat, key)
        return self.seat_view(seat)

    def seat_view(self, seat: int | None) -> dict[str, Any]:
        """`view` for a seat whose key the caller has checked already (the web app's roles)."""
        link = self.link
        out: dict[str, Any]
        if self.elite_link is not None:
            with self.elite_link.lock:
                out = elite_view(self.elite_link, seat, self.elite_tally())
        elif link is None:
            out = {"game": None, "seat": seat}
        else:
            with link.lock:
                out = observer.seat_view(
                    link.game,
                    seat,
                    link.humans,
                    link.waiting_for_tinker_bell,
                    link.choosing,
                    self._notes.notes,
                )
        out["version"] = self.version
        if self.journal_error:
            out["journal_error"] = self.journal_error
        return out


class _Saved:
    """The journal's copy of one digital game's record: the set-up once the first hand is
    dealt (the record's header holds that deck), then each new event. The latest event may
    still grow after it is kept (a discard of several cards is one event), so its text is
    remembered and the journal's copy revised when it changes."""

    def __init__(
        self,
        journal: Any,
        game_id: int,
        setup: dict[str, Any],
        events: list[dict[str, Any]] | None = None,
    ):
        self.journal, self.game_id, self.setup = journal, game_id, setup
        self.kept = -1 if events is None else len(events)  # -1: not even the set-up yet
        self.last = json.dumps(events[-1]) if events else None

    def keep(self, game: Game) -> None:
        if self.kept < 0:
            if not game.decks:
                return  # not dealt yet
            self.journal.start_record(self.game_id, {**self.setup, "header": game.header()})
            self.kept = 0
        events = game.events
        revised = None
        if self.kept and json.dumps(events[self.kept - 1]) != self.last:
            revised = events[self.kept - 1]
        new = events[self.kept :]
        if new or revised is not None:
            self.journal.append_moves(self.game_id, new, revised)
            self.kept = len(events)
            self.last = json.dumps(events[-1])


def _replay(setup: dict[str, Any], events: list[dict[str, Any]]) -> Game:
    game, _ = record.replay_objects(enumerate((setup["header"], *events), start=1))
    return game


# ---------------------------------------------------------------------- checking a new game
def _names(players: Any) -> list[str]:
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ValueError("players is a list of names")
    names = [p.strip() for p in players]
    if any(not n or len(n) > MAX_NAME for n in names):
        raise ValueError(f"each player needs a name of 1 to {MAX_NAME} characters")
    if len(set(names)) != len(names):
        raise ValueError("two players have the same name")
    return names


def _checked(bots: Any, seed: Any, pace: Any, options: Any) -> tuple[list[str], float]:
    """(the bots' names, the pace) of a new game, each checked (ValueError naming it)."""
    bot_names = [bots] if isinstance(bots, str) else bots
    if not isinstance(bot_names, list) or not all(isinstance(b, str) for b in bot_names):
        raise ValueError(f"bots is a bot name or a list of them ({', '.join(B.BOTS)})")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise ValueError("seed is a whole number (the same seed deals the same cards)")
    if not isinstance(pace, int | float) or isinstance(pace, bool) or not 0 <= pace <= MAX_PACE:
        raise ValueError(f"pace is the seconds between bot moves, 0 to {MAX_PACE:g}")
    if options is not None and not isinstance(options, Mapping):
        raise ValueError("options is an object of rule options")
    return bot_names, float(pace)


def _humans(humans: Any, n: int) -> frozenset[int]:
    if not isinstance(humans, list | tuple) or not all(
        isinstance(s, int) and not isinstance(s, bool) for s in humans
    ):
        raise ValueError("humans is a list of the seats people play (0 is the first player)")
    bad = [s for s in humans if not 0 <= s < n]
    if bad:
        raise ValueError(f"seats are 0 to {n - 1}, not {bad[0]}")
    return frozenset(humans)
