"""Digital play's one link between a game of any ruleset and the table: the engine holds every
hand, bots or people play the seats, and, in a ruleset with Tinker Bell, the real Tinker Bell
button supplies every Tinker Bell pick.

The link speaks only the game protocol (`engine.protocol`): who acts, chance, legal actions,
out-of-turn calls, `apply_action`. What differs between rulesets comes from the game's declared
`features`: with "tinker_bell", a chance node of that kind waits for the tray's next pick (the tray
publishes `Pick` on the bus whether or not a game runs; at any other moment a pick is only shown);
every other chance event (a deal, a reshuffle, UNO Elite's Player Decks) is drawn from a seeded
or system random source.

Seats listed in `humans` are played by people (the web page's `/api/digital/act`): when such a
seat is to move, the link stops and waits for `act`. After every change each bot is asked once
whether it makes an out-of-turn call (UNO, catch, challenge), as every simulation asks them
(`engine.bots.offer_calls`). With `pace` > 0 the bots take one
step per `pace` seconds on a timer (`digital.paced`), so people can follow the game and have a
moment to call a late UNO or catch a bot that forgot to; with `pace` 0 they play at once.

Picks arrive from the tray service's relay thread (`tray.bus.Relay`), never from the tray's own
thread: the bots' moves and the journal they go to cannot delay the lights or the button.
"""

from __future__ import annotations

import dataclasses
import logging
import random
import sqlite3
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import partial
from typing import Any, ClassVar, Protocol

from digital import games, race
from digital.errors import MoveError, NotSavedError
from digital.paced import PacedLink, human_seats
from engine.bots import Bot, offer_calls
from engine.errors import RuleError
from engine.protocol import CHANCE, TERMINAL, GameState, tinker_bell
from scoreboard.journal import JournalWriteError
from tray.bus import Bus
from tray.events import Event, Pick, event_type
from tray.player import Scheduler

log = logging.getLogger(__name__)

MAX_INTERJECTIONS = 50  # bots' out-of-turn calls between two moves: far more than a game has
RETRY_S = 5.0  # while the journal cannot save, the bots try their next step again this often
SAVE_ERRORS = (JournalWriteError, sqlite3.Error, OSError, LookupError)


class Keeper(Protocol):
    """Where the link saves the game (`digital.saved.Saved`): before anything is shown."""

    def keep(self, game: GameState) -> bool: ...

    def restore(self, game: GameState) -> GameState | None: ...


@event_type
@dataclasses.dataclass(frozen=True, slots=True)
class GameProgress(Event):
    """The digital game moved: `events` are the game-record events applied since the last
    GameProgress, `awaiting` what it needs next (kind "tinker_bell": press the button)."""

    type: ClassVar[str] = "game_progress"
    events: list[dict[str, Any]]
    awaiting: dict[str, Any]
    game_winner: Any = None


def awaiting(game: GameState) -> dict[str, Any]:
    """What the game needs next: a seat's move, chance of some kind, or nothing (over)."""
    seat = game.current_player()
    if seat == TERMINAL:
        return {"kind": "game_over", "seat": None}
    if seat == CHANCE:
        return {"kind": game.chance_kind(), "seat": None}
    return {"kind": "move", "seat": seat}


def own_calls(game: GameState, seat: int) -> list[int]:
    """The out-of-turn calls `seat` may make now."""
    return [a for s, a in game.interjections() if s == seat]


def uno_plays(game: GameState, seat: int | None) -> list[int]:
    """The moves `seat` may make saying UNO!, in a ruleset whose UNO! is a call of its own: those
    after which a call of its own opens (its UNO!, with one card left), found by trying each on a
    copy. [] where saying it is part of the move itself (the move with UNO! is offered)."""
    if seat is None or game.current_player() != seat:
        return []
    calls = own_calls(game, seat)
    out = []
    for action in game.legal_actions():
        twin = game.clone()
        twin.apply_action(action, seat)
        if any(a not in calls for a in own_calls(twin, seat)):
            out.append(action)
    return out


class GameLink(PacedLink):
    """Runs a game of bots (and people, at the `humans` seats) between picks and moves.

    Thread-safe: picks arrive from the bus's relay thread, people's actions from the web
    server's, paced bot steps from the link's loop; one re-entrant lock serialises them all.
    `bots[seat]` is ignored (and may be None) for a human seat.
    """

    def __init__(
        self,
        bus: Bus,
        game: GameState,
        bots: Sequence[Bot | None],
        rng: random.Random | None = None,
        *,
        humans: Collection[int] = (),
        pace: float = 0.0,
        settles_in: Callable[[Pick], float] | None = None,
        saved: Keeper | None = None,
    ):
        n = len(game.players)
        self.humans = human_seats(humans, n)
        missing = [s for s in range(n) if s not in humans and (s >= len(bots) or bots[s] is None)]
        if missing:
            raise ValueError(f"seat {missing[0]} needs a bot or a person")
        super().__init__(pace)
        self.bus, self.game, self.bots = bus, game, bots
        self.callers = [None if s in self.humans else bots[s] for s in range(n)]
        """Who `offer_calls` asks out of turn, by seat: the bots (None: a person)."""
        self.features = frozenset(game.features)
        self.ruleset = str(game.header().get("ruleset", ""))  # its name, for titles only
        self.title = games.title(self.ruleset)
        self.about = games.about(self.ruleset)
        self.rng = rng or random.SystemRandom()
        self.consumed: list[int] = []  # sequence numbers of the picks the game used
        self._published = len(game.events)
        self._interjected = 0  # bots' out-of-turn calls since the last move
        self.settles_in = settles_in  # seconds until a pick's lights settle (None: at once)
        self.choosing: bool = False  # a pick is made; the game takes it when its lights settle
        self.saved = saved  # the journal's copy: every step is in it before it is shown
        self.unsaved: str | None = None  # why the last step could not be saved, until one is
        self._failures = 0  # saves that failed (a person's move learns if its own did)
        self.reason = ""  # why the journal could not save, in words
        self._retry_due = False
        self._races = 0  # races timed so far (a bot's hand due in an earlier one is dropped)
        self._timed = False  # the race on now has its bots' hands timed
        self._unsubscribe = (
            bus.subscribe(self._on_pick, Pick) if "tinker_bell" in self.features else None
        )

    def start(self) -> None:
        with self.lock:
            self._advance()

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        super().close()

    def is_over(self) -> bool:
        return bool(self.game.is_terminal())

    @property
    def waiting_for_tinker_bell(self) -> bool:
        return "tinker_bell" in self.features and self.game.chance_kind() == "tinker_bell"

    def waiting_for(self) -> int | None:
        """The human seat the game waits for, if it waits for one."""
        seat = self.game.current_player()
        return seat if seat in self.humans else None

    # ------------------------------------------------------------------ people
    def act(self, seat: int, action: int, uno: bool = False) -> None:
        """A person's action for `seat`: in turn, or out of turn (UNO, catch, challenge).
        With `uno` (a ruleset whose UNO! is a call of its own), a card played from two is
        played saying UNO!: the call is made at once, under the same lock, so no bot can catch
        the person between the card and the word. RuleError (the engine's message, nothing
        changed) if the rules or the seat forbid it."""
        with self.lock:
            self._check_seat(seat)
            if not isinstance(action, int) or isinstance(action, bool):
                raise RuleError("unknown", f"An action is a whole number, not {action!r}.")
            if uno and action not in uno_plays(self.game, seat):
                raise RuleError(
                    "uno", "Say UNO! as you play your next-to-last card, not with this move."
                )
            failures = self._failures
            calls = own_calls(self.game, seat)
            self.game.apply_action(action, seat)  # RuleError: the engine's sentence, no change
            self._interjected = 0
            opened = [a for a in own_calls(self.game, seat) if a not in calls] if uno else []
            if opened:
                self.game.apply_action(opened[0], seat)
            self._advance()
            self._check_saved(failures)

    def act_event(self, event: Mapping[str, Any]) -> None:
        """A person's action as a game-record event (`{"seat": 1, "act": "play", ...}`)."""
        with self.lock:
            if "chance" in event:
                raise RuleError("chance", "Chance comes from the tray and the deck, not a player.")
            self._check_seat(event.get("seat"))
            failures = self._failures
            try:
                self.game.apply_event(event)  # RuleError, or the engine's EventError: a sentence
            except (KeyError, TypeError) as exc:  # the engine's word for a malformed event
                raise MoveError(f"a malformed game-record event ({exc!r} is wrong)") from None
            self._advance()
            self._check_saved(failures)

    def _check_saved(self, failures: int) -> None:
        if self._failures != failures:
            raise NotSavedError(
                f"Your move was not taken: it could not be saved ({self.reason}). The game is "
                "back at its last saved move; try again once saving works."
            )

    def _check_seat(self, seat: Any) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in self.humans:
            raise RuleError("seat", f"Seat {seat!r} is not played by a person in this game.")

    # ------------------------------------------------------------------ Tinker Bell
    def _on_pick(self, event: Event) -> None:
        """A pick: taken into the game once the tray's lights land on it, so nothing the game
        does with it (the log, the cards drawn, whose move) can tell it while they spin."""
        pick = event
        assert isinstance(pick, Pick)
        with self.lock:
            if self._closed or not self.waiting_for_tinker_bell or self.choosing:
                return  # shown by the displays, but nothing waits for Tinker Bell
            wait = self.settles_in(pick) if self.settles_in is not None else 0.0
            if wait > 0:
                self.choosing = True
                if self._loop is None:
                    self._loop = Scheduler(self.loop_name)
                self._loop.call_later(wait, lambda: self._take_pick(pick))
                self._publish()
                return
            self._take(pick)

    def _take_pick(self, pick: Pick) -> None:
        with self.lock:
            self.choosing = False
            if not self._closed and self.waiting_for_tinker_bell:
                self._take(pick)

    def _take(self, pick: Pick) -> None:
        with self.lock:
            # her colour is a chance outcome, through the one `apply_action`
            tray = tinker_bell(self.game)
            assert tray is not None  # (only while `waiting_for_tinker_bell`)
            self.game.apply_action(tray.tinker_bell_outcome(pick.colour))
            self.consumed.append(pick.seq)
            self._advance()

    # ------------------------------------------------------------------ chance and bots
    def _advance(self) -> None:
        """Let chance and the bots play until the game needs the button, a person or is over
        (with a pace: until the next bot step, which a timer takes)."""
        g = self.game
        while not self._closed and not g.is_terminal() and not self.waiting_for_tinker_bell:
            seat = g.current_player()
            if race.racing(g, self.features):  # every hand on the 6: the people's are theirs
                if self._timed or self._time_hands():
                    break
                continue  # (the bots' hands, laid at once, ended it)
            self._timed = False
            if seat == CHANCE:
                g.sample_chance(self.rng)
                continue
            if seat in self.humans:
                if self._bot_interjects():
                    continue
                break  # a person's move
            if self.pace > 0:
                self._schedule()
                break
            self._bot_step()
        self._publish()

    def _bot_interjects(self) -> bool:
        """Ask the bots whether one calls UNO, catches, challenges or jumps in (the bots' one
        policy, `engine.bots.offer_calls`: each seat once, a person's never); True if one did."""
        if self._interjected >= MAX_INTERJECTIONS:
            return False
        if offer_calls(self.game, self.callers):
            self._interjected += 1
            return True
        return False

    def _bot_step(self) -> None:
        """One bot's out-of-turn call, or else the bot to move moves."""
        g = self.game
        if not self._bot_interjects() and g.current_player() not in self.humans:
            self._interjected = 0
            g.apply_action(self._bot(g.current_player()).act(g))

    def _time_hands(self) -> bool:
        """A race has begun: each bot lays its hand after a human-like delay (`digital.race`),
        on the link's timer; at pace 0 at once, in the order of their delays. True while the
        race still waits for hands."""
        self._timed, self._races = True, self._races + 1
        due = race.hands_due(self.game)
        for delay, seat in race.bot_delays(due, self.humans, self.rng):
            if self.pace <= 0:
                self.game.apply_action(due[seat], seat)
            else:
                self.call_later(delay, partial(self._bot_hand, self._races, seat, due[seat]))
        return race.racing(self.game, self.features)

    def _bot_hand(self, number: int, seat: int, action: int) -> None:
        """A bot's hand in race `number`, its delay over: laid if that race is still on and
        waits for it (the game was not replaced, nor sent back to its last saved move)."""
        with self.lock:
            if self._closed or number != self._races or not self._timed:
                return
            if race.hands_due(self.game).get(seat) != action:
                return
            self.game.apply_action(action, seat)
            self._advance()

    def _bot(self, seat: int) -> Bot:
        bot = self.bots[seat]
        assert bot is not None, f"seat {seat} is a person's"  # checked in __init__
        return bot

    def _paced_step(self) -> None:
        if self.game.current_player() >= 0:
            self._bot_step()

    # ------------------------------------------------------------------ saving
    def _saved(self) -> bool:
        """Save what the game did since the last save (before anything shows it); if the
        journal cannot, go back to the last saved move and say so."""
        if self.saved is None:
            return True
        try:
            wrote = self.saved.keep(self.game)
        except SAVE_ERRORS as exc:
            self._fall_back(exc)
            return False
        if wrote and self.unsaved is not None:
            self.unsaved = None
            log.warning("the journal saves the digital game's moves again")
        return True

    def _fall_back(self, exc: Exception) -> None:
        """Back to the game as the journal holds it: nothing unsaved is ever shown or built on.
        The bots try again every `RETRY_S` seconds; a person's move tries again itself."""
        self._failures += 1
        self.reason = str(exc).removeprefix("not saved: ").split(". Nothing was changed")[0]
        self.unsaved = (
            f"Moves are not being saved ({self.reason}): the game waits at its last saved "
            "move until saving works again."
        )
        log.warning("a digital game's moves were not saved (%s): back to the last saved", exc)
        assert self.saved is not None
        restored = self.saved.restore(self.game)
        if restored is not None:
            self.game = restored
            self._published = len(restored.events)
        self._step_due = False
        self._timed = False  # a race there times its bots' hands again
        if self._retry_due or self._closed:
            return
        if self._loop is None:
            self._loop = Scheduler(self.loop_name)
        self._retry_due = True
        self._loop.call_later(RETRY_S, self._retry)

    def _retry(self) -> None:
        with self.lock:
            self._retry_due = False
            if not self._closed and self.unsaved is not None:
                self._advance()

    def _publish(self) -> None:
        if not self._saved():
            self._announce([])  # the pages show the game as saved, and why nothing moved
            return
        g = self.game
        events = g.events[self._published :]
        self._published = len(g.events)
        self._announce(list(events))

    def _announce(self, events: list[dict[str, Any]]) -> None:
        g = self.game
        self.bus.publish(GameProgress(events=events, awaiting=awaiting(g), game_winner=g.winner))
