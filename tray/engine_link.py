"""Digital play at the tray: the engine holds every hand, bots (or, later, people) play the
seats, and the real Tinker Bell button supplies every Tinker Bell pick.

The tray publishes `Pick` on the bus whether or not a game is running. While a game waits for
Tinker Bell, the next pick is consumed as the engine's chance event; at any other moment a pick
is only shown (the table session journals it). Deals and reshuffles stay the engine's own chance,
drawn from a seeded or system random source.
"""

from __future__ import annotations

import dataclasses
import random
import threading
from typing import Any, ClassVar

from engine import cards as C
from engine.bots import Bot
from engine.game import Game
from tray.bus import Bus
from tray.events import Event, Pick, event_type


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


class EngineLink:
    """Runs a bot game between Tinker Bell picks. Thread-safe: picks arrive from the tray's
    thread, `start` from the caller's."""

    def __init__(self, bus: Bus, game: Game, bots: list[Bot], rng: random.Random | None = None):
        self.bus, self.game, self.bots = bus, game, bots
        self.rng = rng or random.SystemRandom()
        self.consumed: list[int] = []  # sequence numbers of the picks the game used
        self._lock = threading.Lock()
        self._published = len(game.events)
        self._unsubscribe = bus.subscribe(self._on_pick, Pick)

    def start(self) -> None:
        with self._lock:
            self._advance()

    def close(self) -> None:
        self._unsubscribe()

    @property
    def waiting_for_tinker_bell(self) -> bool:
        return self.game.chance_kind() == "tinker_bell"

    def _on_pick(self, pick: Pick) -> None:
        with self._lock:
            if not self.waiting_for_tinker_bell:
                return  # shown by the displays, but no card is waiting for Tinker Bell
            self.game.apply_tinker_bell(C.colour(pick.colour))
            self.consumed.append(pick.seq)
            self._advance()

    def _advance(self) -> None:
        """Let chance and the bots play until the game needs the button or is over."""
        g = self.game
        while not g.is_terminal() and not self.waiting_for_tinker_bell:
            if g.is_chance_node():
                g.sample_chance(self.rng)
                continue
            h = g.hand
            for seat, action in h.interjections():
                choice = self.bots[seat].interject(g, seat, [action])
                if choice is not None:
                    g.apply_action(choice, seat)
                    break
            else:
                g.apply_action(self.bots[g.current_player()].act(g))
        self._publish()

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
