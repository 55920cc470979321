"""Digital play on the display: the engine holds every hand, people play seats in the browser
(or a terminal) against bots on the others, and, in a ruleset with Tinker Bell, the tray's
button (real or virtual) picks.

`DigitalSession` owns one game at a time, of any ruleset, through one `GameLink` with human
seats. Each human seat gets a secret seat key when the game starts: its page shows that seat's
hand and acts for it. `view(seat, key)` is all a page ever receives (`digital.view`): the public
state plus, with the right key, that one seat's hand and moves. No other hand ever leaves the
engine while the game runs; the game record (which holds the decks) is exported when it is over.

What the scoreboard hears of a digital game depends on the game's declared features, never its
kind (`digital.scoreboard_feed`): a game with points has its finished hands entered on the
table session (the scoreboard, its chart and the journal's exports follow it exactly as a table
game), one with Tinker Bell declares the card she answers; a game without points has its winner
tallied.

With a table session, every move is committed to its journal (`digital.saved`) before any page
can see it: the link publishes its progress under its lock, which `view` takes too. A restart
(or kill -9) then resumes the game where it stood: the record is replayed, each person's seat
keeps its key (their page reconnects as it was), and the bots carry on.
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from digital import games, view
from digital.bot_press import BotPress, name_of
from digital.errors import MoveError, NoGameError, NotSavedError, SeatError, SetupError
from digital.link import GameLink, GameProgress
from digital.saved import Saved, seating
from digital.scoreboard_feed import ScoreboardFeed
from engine import bots as B
from engine.bots import Bot
from engine.protocol import GameState
from engine.record import RecordError
from engine.search import parse_budget
from scoreboard import names as name_rules
from scoreboard.journal import ConfirmError, DamagedGame
from scoreboard.session import TableSession
from tray.bus import Bus
from tray.events import Pick

log = logging.getLogger(__name__)

MAX_NAME = 24
MAX_PACE = 5.0
MAX_SEARCH_SECONDS = 2.0  # a search bot's longest think a move, whatever its budget says
RESUME_ERRORS = (RecordError, KeyError, TypeError, ValueError, DamagedGame)
__all__ = ["DigitalSession", "MoveError", "NoGameError", "NotSavedError", "SeatError"]


class DigitalSession:
    """The display's digital game. Thread-safe (the link's lock guards the game)."""

    def __init__(
        self,
        bus: Bus,
        *,
        table: TableSession | None = None,
        on_change: Callable[[], None] | None = None,
        pace: float = 0.8,
        inputs: Mapping[str, Mapping[str, Any]] | None = None,
        press: Callable[[], None] | None = None,
        bots_press: bool = True,
    ):
        """`press`: the tray's button, which a bot presses for its own pixie-dust cards
        (`digital.bot_press`; None: whoever shows the game presses for it, as the terminal
        does). `bots_press`: the table's default for a new game (false: the people press for
        the bots too). `inputs`: by ruleset, the files it needs, parsed (the registry entry's
        `inputs`: UNO Elite's cards), which the command line reads."""
        self.bus, self.table, self.on_change, self.pace = bus, table, on_change, pace
        self.bot_press, self.bots_press_default = BotPress(press), bots_press
        self.bots_press = bots_press  # the game's: do its bots press for their own cards
        self.inputs = {} if inputs is None else inputs  # (as given: read when asked for)
        self.link: GameLink | None = None
        self.keys: dict[int, str] = {}
        self.version = 0
        self._lock = threading.Lock()
        # what the scoreboard has had of the game in play (its hands, its winner), and is owed
        self.feed = ScoreboardFeed(table, self._lock, self._catch_up)
        self.journal_error: str | None = None
        self.ended: str | None = None  # the host ended the last game unfinished: said so
        self._unsubscribe = bus.subscribe(self._progress, GameProgress)
        if table is not None:
            table.journal.when_writable(self._catch_up)
            self._resume(table)

    # ------------------------------------------------------------------ starting
    def new_game(
        self,
        players: list[str],
        humans: list[int] | tuple[int, ...] = (0,),
        bots: str | list[str] = "greedy",
        dealer: int = 0,
        options: Mapping[str, Any] | None = None,
        ruleset: str = "disney",
        *,
        seed: int | None = None,
        pace: float | None = None,
        confirm: bool = False,
        bots_press: bool | None = None,
    ) -> dict[int, str]:
        """Start a game (replacing the current one); returns {human seat: seat key}.
        SetupError, naming the problem, for anything malformed (each value is checked: JSON
        reaches here shaped by `digital.web.NEW`, its lists' items unchecked) or a game the
        engine refuses; NotSavedError if the journal cannot keep it (nothing then changes)."""
        names = _names(players)
        pace = self.pace if pace is None else pace
        bot_names, pace = _checked(bots, seed, pace, options, dealer, ruleset)
        bots_press = _bots_press(bots_press, self.bots_press_default)
        rng = random.Random(seed) if seed is not None else random.SystemRandom()
        playing = self.link
        if self.table is not None and playing is not None and not playing.is_over() and not confirm:
            raise ConfirmError(
                "the digital game in play is not finished: confirm to start a new one "
                "(its record is kept in the journal)"
            )
        game = _dealt(ruleset, names, dealer, options, self.inputs.get(ruleset))
        seats = _humans(humans, len(names))
        bot_list = B.make(bot_names, len(names), rng, clock=time.perf_counter)  # checked above
        keys = {s: secrets.token_urlsafe(9) for s in seats}
        saved = None
        if self.table is not None:
            seated = {**seating(seats, keys, bot_names, pace), "bots_press": bots_press}
            saved = _kept(self.table, game, ruleset, names, dealer, options, seated, confirm)
        link = self._playing(game, bot_list, rng, seats, pace, saved)
        playing_press, self.bots_press = self.bots_press, bots_press
        try:
            self._adopt(link, keys, saved, tallied=False, fresh=True)
        except NotSavedError:  # the game in play carries on, as it was set up
            self.bots_press = playing_press
            raise
        return keys

    def _playing(
        self,
        game: GameState,
        bot_list: Sequence[Bot | None],
        rng: random.Random,
        humans: frozenset[int],
        pace: float,
        saved: Saved | None,
    ) -> GameLink:
        """The link that plays `game` on this session's bus, new or resumed: the bots on the
        seats not in `humans`, a move each `pace` seconds, each move kept by `saved`."""
        return GameLink(
            self.bus,
            game,
            bot_list,
            rng,
            humans=humans,
            pace=pace,
            settles_in=self._settles_in,
            saved=saved,
        )

    def _adopt(
        self,
        link: GameLink,
        keys: dict[int, str],
        saved: Saved | None,
        tallied: bool,
        fresh: bool = False,
    ) -> None:
        """Play `link`'s game from now on. A new game (`fresh`) starts only once the journal has
        kept it: NotSavedError (and the game in play carries on) if it cannot."""
        link.start()  # deals, lets the bots move, and saves all that before it is shown
        if fresh and link.unsaved is not None:
            link.close()
            raise NotSavedError(
                f"The new game was not started: it could not be saved ({link.reason})."
            )
        if saved is not None and saved.game_id is not None:
            # its moves go to this game: it must not be deleted under them
            saved.journal.hold(saved.game_id, "digital play (/play)", lambda: not link.is_over())
        with self._lock:
            old, self.link, self.keys = self.link, link, keys
            self.feed.follow(link, saved, tallied)
            self.journal_error = None
            self.ended = None
        if old is not None:
            old.close()
        self._progress(None)  # what the new game did as it started

    def end_game(self, confirm: bool = False) -> None:
        """The host ends the game in play unfinished, so that it no longer blocks what the
        journal refuses during a game (a restore, deleting it). Its record stays kept as it
        stood; no move is written to it again. NoGameError without a game in play,
        ConfirmError without `confirm` (the game cannot be carried on afterwards)."""
        link = self._link()
        if link.is_over():
            raise NoGameError("the digital game is over already: start the next one")
        if confirm is not True:
            raise ConfirmError(
                "ending the digital game leaves it unfinished for good: confirm to end it "
                "(its record is kept in the journal)"
            )
        saved = self._saved
        if saved is not None and saved.game_id:
            saved.journal.end_digital(saved.game_id)  # marked first: refused, nothing changed
        with self._lock:
            self.link, self.keys = None, {}
            self.feed.follow(None, None)
            retry = self.feed.take_retry()
            self.ended = _ended_words(link, saved)
            self.version += 1
        if retry is not None:
            retry.cancel()
        link.close()
        if saved is not None:
            saved.journal.hold(None)  # one game is held at a time: digital play's, this one
        if self.on_change is not None:
            self.on_change()

    def _resume(self, table: TableSession) -> None:
        """Carry on with the journal's digital game in play (`Journal.latest_digital`: the
        newest unfinished one in the journal's own order, else the newest, shown as it ended
        with its record exportable), whatever the scoreboard started after it. Digital play has
        one game at a time, replaced only by a new digital game the host confirms; a table game
        started meanwhile is the scoreboard's, and the digital game played on beside it before
        the restart, so it plays on after it (its hands go on its own score sheet only while
        that sheet is the scoreboard's, as before)."""
        journal = table.journal
        try:
            kept = journal.latest_digital(in_play=True)
        except DamagedGame as exc:
            self._unresumable(table, exc.game, exc)
            return
        if kept is None:
            return
        setup, events = kept.setup, kept.events
        if kept.ended:  # the host ended it: said, never played on
            players = setup.get("header", {}).get("players", [])
            names = ", ".join(str(p) for p in players) if isinstance(players, list) else "?"
            self.ended = _ended_sentence(names, kept.game)
            return
        try:
            game = games.replay(setup["header"], events)
            humans = frozenset(int(s) for s in setup["humans"])
            keys = {int(s): str(k) for s, k in setup["keys"].items()}
            rng = random.SystemRandom()
            bot_list = B.make(list(setup["bots"]), len(game.players), rng, clock=time.perf_counter)
            pace = float(setup["pace"])
            saved = Saved(journal, kept.game, setup, events)
            link = self._playing(game, bot_list, rng, humans, pace, saved)
        except RESUME_ERRORS as exc:
            self._unresumable(table, kept.game, exc)
            return
        self.bots_press = setup.get("bots_press", self.bots_press_default) is not False
        self._adopt(link, keys, saved, tallied=kept.finished)
        log.info("resumed digital game %d after %d moves", kept.game, len(events))

    def journal_replaced(self) -> None:
        """The table's journal is another one now (a restore, which the journal refuses while a
        game is in play): the game shown is the restored journal's, as at a start."""
        with self._lock:
            old, self.link, self.keys = self.link, None, {}
            self.feed.follow(None, None)
            self.journal_error = None
            retry = self.feed.take_retry()  # owed to the journal replaced: not here
            self.version += 1
        if retry is not None:
            retry.cancel()
        if old is not None:
            old.close()
        if self.table is not None:
            self._resume(self.table)
        if self.on_change is not None:
            self.on_change()

    def _unresumable(self, table: TableSession, game_id: int | None, exc: Exception) -> None:
        """The journal's latest digital game does not replay: it is left as it is, and the
        scoreboard's page and this one say which and why."""
        self.journal_error = (
            f"The digital game {game_id} in the journal cannot be resumed "
            f"({exc}); it is kept there untouched."
        )
        damage = (
            str(exc)
            if isinstance(exc, DamagedGame)
            else (
                f"game {game_id} is damaged: its game record does not replay ({exc}). "
                "It was left as it is"
            )
        )
        table.journal.report_damage(damage)

    def _settles_in(self, pick: Pick) -> float:
        """Seconds until the tray's lights settle on `pick`: the game takes it only then, so no
        page can tell it early (0 without a tray, or without a table session)."""
        return self.table.settles_in(pick) if self.table is not None else 0.0

    def close(self) -> None:
        self._unsubscribe()
        with self._lock:
            retry = self.feed.take_retry()
        if retry is not None:
            retry.cancel()
        if self.link is not None:
            self.link.close()

    # ------------------------------------------------------------------ playing
    def check_key(self, seat: int | None, key: str | None) -> int:
        """The seat, if `key` is its seat key; SeatError otherwise."""
        want = self.keys.get(seat) if isinstance(seat, int) and not isinstance(seat, bool) else None
        if (
            seat is None
            or want is None
            or not isinstance(key, str)
            or not secrets.compare_digest(key, want)
        ):
            raise SeatError(f"seat {seat!r} is not yours: open the link made for it at the start")
        return seat

    def seat_of(self, key: str) -> int | None:
        """The seat whose key is `key` in the game in play (None: no such key)."""
        for seat, want in list(self.keys.items()):
            if isinstance(key, str) and secrets.compare_digest(key.encode(), want.encode()):
                return seat
        return None

    def act(
        self,
        seat: int | None,
        key: str | None,
        action: int | None = None,
        event: Mapping[str, Any] | None = None,
        uno: bool = False,
    ) -> None:
        """A person's move for `seat`: an action int or a game-record event (RuleError, with the
        engine's message and nothing changed, if the rules forbid it). `uno`: play the card
        saying UNO! (one of the view's `uno_plays`; other rulesets offer the move with UNO!)."""
        self.act_as(self.check_key(seat, key), action, event, uno)

    def act_as(
        self,
        seat: int,
        action: int | None = None,
        event: Mapping[str, Any] | None = None,
        uno: bool = False,
    ) -> None:
        """`act` for a seat whose key the caller has checked already (the web app's roles)."""
        link = self._link()
        if not isinstance(uno, bool):
            raise MoveError("uno is true or false")
        if event is not None:
            if not isinstance(event, Mapping):
                raise MoveError("event is a game-record event object")
            if event.get("seat", seat) != seat:
                raise SeatError(f"this page plays seat {seat}, not {event.get('seat')!r}")
            link.act_event({**event, "seat": seat})
        elif isinstance(action, int) and not isinstance(action, bool):
            link.act(seat, action, uno)
        else:
            raise MoveError("send an action (a whole number from moves) or an event")

    def record(self) -> str:
        return str(self._link().game.record())

    @property
    def over(self) -> bool:
        return self.link is not None and self.link.is_over()

    def _link(self) -> GameLink:
        if self.link is None:
            raise NoGameError("no digital game is running: start one first")
        return self.link

    # ------------------------------------------------------------------ following the game
    def _progress(self, _event: GameProgress | None) -> None:
        """The game moved (and the link has saved it, or gone back to what is saved): the
        scoreboard hears of it (`ScoreboardFeed.game_moved`), a bot presses Tinker Bell for its
        own card, and the pages are told."""
        link = self.link
        if link is None:
            return
        with link.lock:
            winner = link.game.winner if link.is_over() else None
        with self._lock:
            self.version += 1
        self.feed.game_moved(link, winner)
        if "tinker_bell" in link.features:
            self.bot_press.check(link, self.bots_press)
        if self.on_change is not None:
            self.on_change()

    def _catch_up(self, link: GameLink | None = None) -> None:
        """Put on the scoreboard what the game in play owes it (`_progress`), under the link's
        lock as the link's own progress is; not once the link is closed (a retry whose timer
        fired as the session closed would write to a journal closed after it)."""
        with self._lock:
            self.feed.take_retry()  # due now: a write failing again sets another
        playing = self.link
        if playing is None or (link is not None and link is not playing):
            return
        with playing.lock:
            if not playing.closed:
                self._progress(None)

    @property
    def _saved(self) -> Saved | None:
        """The journal's copy of the game in play (None without a table session or a game)."""
        return self.feed.saved

    def tally(self) -> dict[str, Any]:
        """Wins per player of the games without points: the scoreboard's, or this session's."""
        return self.feed.tally()

    # ------------------------------------------------------------------ reading
    def view(self, seat: int | None = None, key: str | None = None) -> dict[str, Any]:
        """What a page may see: the public state, plus seat `seat`'s hand and moves when `key`
        is that seat's key (SeatError otherwise). No other hand is ever in it."""
        if seat is not None:
            seat = self.check_key(seat, key)
        return self.view_for(seat)

    def view_for(self, seat: int | None) -> dict[str, Any]:
        """`view` for a seat whose key the caller has checked already (the web app's roles)."""
        link = self.link
        out: dict[str, Any]
        if link is None:
            out = {"game": None, "seat": seat}
            if self.ended:
                out["ended"] = self.ended
        else:
            with link.lock:
                out = view.page_view(link, seat, name_of(link, self.bots_press))
            if "points" not in link.features:
                out["tally"] = self.tally()
        out["version"] = self.version
        problem = (
            (link.unsaved if link is not None else None)
            or self.journal_error
            or (self.table.unsaved if self.table is not None else None)
        )
        if problem:
            out["journal_error"] = problem
        return out


def _ended_words(link: GameLink, saved: Saved | None) -> str:
    """What the page says of a game the host ended: which, and that its record is kept."""
    with link.lock:
        names = ", ".join(link.game.players)
    return _ended_sentence(names, saved.game_id if saved else None)


def _ended_sentence(names: str, game: int | None) -> str:
    kept = f" (game {game} in the journal)" if game else ""
    return f"The host ended the game of {names} unfinished; its record is kept{kept}."


# ---------------------------------------------------------------------- checking a new game
def _bots_press(given: object, default: bool) -> bool:
    """Whether a new game's bots press Tinker Bell for their own cards (None: the table's
    default); SetupError for anything but true or false."""
    if given is None:
        return default
    if not isinstance(given, bool):
        raise SetupError("bots_press is true (bots press Tinker Bell for their cards) or false")
    return given


def _names(players: object) -> list[str]:
    """The players' names as `scoreboard.names` keeps them (every name's one rule)."""
    try:
        return name_rules.players(players, MAX_NAME)
    except name_rules.NameRefused as exc:
        raise SetupError(str(exc)) from None


def _checked(
    bots: object, seed: object, pace: object, options: object, dealer: object, ruleset: object
) -> tuple[list[str], float]:
    """(the bots' names, the pace) of a new game, these and its seed, options, dealer and
    ruleset checked in turn (SetupError naming the first one wrong)."""
    bot_names = [bots] if isinstance(bots, str) else bots
    if not isinstance(bot_names, list) or not all(isinstance(b, str) for b in bot_names):
        raise SetupError(f"bots is a bot name or a list of them ({', '.join(B.BOTS)})")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise SetupError("seed is a whole number (the same seed deals the same cards)")
    if not isinstance(pace, int | float) or isinstance(pace, bool) or not 0 <= pace <= MAX_PACE:
        raise SetupError(f"pace is the seconds between bot moves, 0 to {MAX_PACE:g}")
    if options is not None and not isinstance(options, Mapping):
        raise SetupError("options is an object of rule options")
    for spec in set(bot_names):
        _bot_checked(spec)
    if isinstance(dealer, bool) or not isinstance(dealer, int):
        raise SetupError(f"the dealer must be a seat number, not {dealer!r}")
    if not isinstance(ruleset, str):
        raise SetupError(f"ruleset is a name: {games.rulesets_said()}")
    return bot_names, float(pace)


def _dealt(
    ruleset: str,
    names: list[str],
    dealer: int,
    options: Mapping[str, Any] | None,
    inputs: Mapping[str, Any] | None,
) -> GameState:
    """The new game (dealt, or ready to deal) from the engine; SetupError with the engine's
    sentence for a ruleset, options or a table it refuses."""
    try:
        return games.new_game(ruleset, names, dealer, options, inputs)
    except ValueError as exc:
        raise SetupError(str(exc)) from None


def _kept(
    table: TableSession,
    game: GameState,
    ruleset: str,
    names: list[str],
    dealer: int,
    options: Mapping[str, Any] | None,
    seated: dict[str, Any],
    confirm: bool,
) -> Saved:
    """How the journal keeps a new game: its record, with who plays each seat (`seated`),
    and, for a game with points, a new table game for its hands (the score sheet the scoreboard
    shows from now on)."""
    points = "points" in frozenset(game.features)
    if points:
        kept = games.kept_name(ruleset, names)
        table.new_game(
            names, dealer, options, name=kept, confirm=confirm, ruleset=ruleset, played=True
        )
    return Saved(table.journal, table.game_id if points else None, seated)


def _bot_checked(spec: str) -> None:
    """A bot digital play can seat (SetupError naming the problem): one of the bots, and a
    search that answers a person within `MAX_SEARCH_SECONDS`."""
    names = list(B.BOTS)
    name, _, budget = spec.partition(":")
    if name not in B.BOTS:
        raise SetupError(
            f"the bots are {', '.join(names[:-1])} and {names[-1]}: there is no {spec!r} bot"
        )
    if not budget:
        return
    if name != "search":
        raise SetupError(f"the {name} bot takes no budget ({spec!r})")
    try:
        rollouts, seconds = parse_budget(budget)
    except ValueError as exc:
        raise SetupError(str(exc)) from None
    if rollouts is not None and rollouts < 1:
        raise SetupError(f"the search bot needs at least 1 rollout a move, not {rollouts}")
    if seconds is not None and not 0 < seconds <= MAX_SEARCH_SECONDS:
        raise SetupError(f"the search bot thinks 0 to {MAX_SEARCH_SECONDS:g} s a move ({spec!r})")


def _humans(humans: object, n: int) -> frozenset[int]:
    if not isinstance(humans, list | tuple) or not all(
        isinstance(s, int) and not isinstance(s, bool) for s in humans
    ):
        raise SetupError("humans is a list of the seats people play (0 is the first player)")
    bad = [s for s in humans if not 0 <= s < n]
    if bad:
        raise SetupError(f"seats are 0 to {n - 1}, not {bad[0]}")
    return frozenset(humans)
