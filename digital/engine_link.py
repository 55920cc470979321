"""Digital play at the tray: the engine holds every hand, bots or people play the seats, and the
real Tinker Bell button supplies every Tinker Bell pick.

The tray publishes `Pick` on the bus whether or not a game is running. While a game waits for
Tinker Bell, the next pick is consumed as the engine's chance event; at any other moment a pick
is only shown (the table session journals it). Deals and reshuffles stay the engine's own chance,
drawn from a seeded or system random source.

Seats listed in `humans` are played by people (the web page's `/api/digital/act`): when such a
seat is to move, the link stops and waits for `act`. With `pace` > 0 the bots take one step per
`pace` seconds on a timer, so people can follow the game and have a moment to call a late UNO or
catch a bot that forgot to; with `pace` 0 they play at once (tests, simulations). The paced steps
run on one loop thread per link (`tray.player.Scheduler`), not a new timer thread per step.

Picks arrive from the tray service's relay thread (`tray.bus.Relay`), never from the tray's own
thread: the bots' moves and the journal they go to cannot delay the lights or the button.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Collection, Mapping
from typing import Any, ClassVar

from digital.paced import PacedLink, human_seats
from engine import actions as A
from engine import cards as C
from engine.bots import Bot
from engine.game import Game
from engine.hand import RuleError
from tray.bus import Bus
from tray.events import Event, Pick, event_type
from tray.player import Scheduler


@event_type
@dataclasses.dataclass(frozen=True, slots=True)
class GameProgress(Event):
    """The digital game moved: `events` are the game-record events applied since the last
    GameProgress, `awaiting` what it needs next (kind "tinker_bell": press the button)."""

    type: ClassVar[str] = "game_progress"
    hand: int
    events: list[dict[str, Any]]
    awaiting: dict[str, Any]
    scores: dict[str, int]
    game_winner: Any = None


class EngineLink(PacedLink):
    """Runs a game of bots (and people, at the `humans` seats) between Tinker Bell picks.

    Thread-safe: picks arrive from the bus's relay thread, people's actions from the web
    server's, paced bot steps from the link's loop; one re-entrant lock serialises them all.
    `bots[seat]` is ignored (and may be None) for a human seat.
    """

    def __init__(
        self,
        bus: Bus,
        game: Game,
        bots: list[Bot | None],
        rng: random.Random | None = None,
        *,
        humans: Collection[int] = (),
        pace: float = 0.0,
        settles_in: Callable[[Pick], float] | None = None,
    ):
        n = len(game.players)
        self.humans = human_seats(humans, n)
        missing = [s for s in range(n) if s not in humans and (s >= len(bots) or bots[s] is None)]
        if missing:
            raise ValueError(f"seat {missing[0]} needs a bot or a person")
        super().__init__(pace)
        self.bus, self.game, self.bots = bus, game, bots
        self.rng = rng or random.SystemRandom()
        self.consumed: list[int] = []  # sequence numbers of the picks the game used
        self._published = len(game.events)
        self.settles_in = settles_in  # seconds until a pick's lights settle (None: at once)
        self.choosing: bool = False  # a pick is made; the game takes it when its lights settle
        self._unsubscribe = bus.subscribe(self._on_pick, Pick)

    def start(self) -> None:
        with self.lock:
            self._advance()

    def close(self) -> None:
        self._unsubscribe()
        super().close()

    def is_over(self) -> bool:
        return self.game.is_terminal()

    @property
    def waiting_for_tinker_bell(self) -> bool:
        return self.game.chance_kind() == "tinker_bell"

    def waiting_for(self) -> int | None:
        """The human seat the game waits for, if it waits for one."""
        seat = self.game.current_player()
        return seat if seat in self.humans else None

    # ------------------------------------------------------------------ people
    def act(self, seat: int, action: int) -> None:
        """A person's action for `seat`: in turn, or out of turn (UNO, catch, challenge).
        RuleError (the engine's message, nothing changed) if the rules or the seat forbid it."""
        with self.lock:
            self._check_seat(seat)
            if not isinstance(action, int) or isinstance(action, bool):
                raise RuleError("unknown", f"An action is a whole number, not {action!r}.")
            self.game.apply_action(action, seat)
            self._advance()

    def act_event(self, event: Mapping[str, Any]) -> None:
        """A person's action as a game-record event (`{"seat": 1, "act": "play", ...}`)."""
        with self.lock:
            if "chance" in event:
                raise RuleError("chance", "Chance comes from the tray and the deck, not a player.")
            seat = event.get("seat")
            self._check_seat(seat)
            self.game.apply_event(event)
            self._advance()

    def _check_seat(self, seat: Any) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in self.humans:
            raise RuleError("seat", f"Seat {seat!r} is not played by a person in this game.")

    # ------------------------------------------------------------------ chance and bots
    def _on_pick(self, event: Event) -> None:
        """A pick: taken into the game once the tray's lights land on it, so nothing the game
        does with it (the log, the cards drawn, whose move) can tell it while they spin."""
        pick = event
        assert isinstance(pick, Pick)
        with self.lock:
            if self._closed or not self.waiting_for_tinker_bell or self.choosing:
                return  # shown by the displays, but no card is waiting for Tinker Bell
            wait = self.settles_in(pick) if self.settles_in is not None else 0.0
            if wait > 0:
                self.choosing = True
                if self._loop is None:
                    self._loop = Scheduler("digital-pace")
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
            # a chance outcome, through the one `apply_action` (engine.protocol)
            self.game.apply_action(A.PICK + C.colour(pick.colour))
            self.consumed.append(pick.seq)
            self._advance()

    def _advance(self) -> None:
        """Let chance and the bots play until the game needs the button, a person or is over
        (with a pace: until the next bot step, which a timer takes)."""
        g = self.game
        while not self._closed and not g.is_terminal() and not self.waiting_for_tinker_bell:
            if g.is_chance_node():
                g.sample_chance(self.rng)
                continue
            if g.current_player() in self.humans:
                if self._bot_interjects():
                    continue
                break  # a person's move
            if self.pace > 0:
                self._schedule()
                break
            self._bot_step()
        self._publish()

    def _bot_interjects(self) -> bool:
        """Ask each bot once whether it calls UNO, catches or challenges; True if one did."""
        g = self.game
        for seat, action in g.interjections():
            if seat in self.humans:
                continue
            choice = self._bot(seat).interject(g, seat, [action])
            if choice is not None:
                g.apply_action(choice, seat)
                return True
        return False

    def _bot_step(self) -> None:
        """One bot interjection, or else the bot to move moves."""
        g = self.game
        if not self._bot_interjects() and g.current_player() not in self.humans:
            g.apply_action(self._bot(g.current_player()).act(g))

    def _bot(self, seat: int) -> Bot:
        bot = self.bots[seat]
        assert bot is not None, f"seat {seat} is a person's"  # checked in __init__
        return bot

    def _paced_step(self) -> None:
        g = self.game
        if not g.is_terminal() and not g.is_chance_node():
            self._bot_step()

    def _publish(self) -> None:
        g = self.game
        events = g.events[self._published :]
        self._published = len(g.events)
        summary = g.summary()
        self.bus.publish(
            GameProgress(
                hand=g.hand_no,
                events=events,
                awaiting=summary["awaiting"],
                scores=summary["scores"],
                game_winner=summary["game_winner"],
            )
        )
