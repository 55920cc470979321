"""Digital play of UNO Elite: `engine.elite.EliteGame` with bots on some seats and people on the
others, as `digital.engine_link.EngineLink` runs the Disney rulesets.

UNO Elite has no Tinker Bell: every chance event (the deal, the booster cards, a reshuffle) is the
engine's own, drawn from a seeded or system random source, and the link never waits for the
tray's button (a pick on the bus is only shown by the displays). Every choice of an activation
(whom to target, which card, which order) is an action of the seat that makes it; a person's
comes from `act`, a bot's from `engine.elite.bots`. Out-of-turn actions (UNO, catch) are legal
actions of the other seats: each bot is asked once after every change whether it takes one.

Progress is published as `GameProgress` (the event `DigitalSession` follows for every ruleset),
with `awaiting` {"kind": "elite", "seat": whose move}. Thread-safe and paced like EngineLink:
one re-entrant lock; with `pace` > 0 the bots move one step per `pace` seconds on one loop thread.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection, Mapping
from typing import Any

from digital.engine_link import GameProgress
from digital.paced import PacedLink, human_seats
from engine.elite import CHANCE, TERMINAL, EliteGame, RuleError
from engine.elite import actions as A
from engine.elite import bots as elite_bots
from engine.elite import search as elite_search
from engine.search import parse_budget
from tray.bus import Bus

BOTS = tuple(elite_bots.BOTS)
"""UNO Elite's bots (`engine.elite.bots`), by the names the other rulesets use."""

MAX_INTERJECTIONS = 50  # bots' out-of-turn actions between two moves: far more than a game has
MAX_SEARCH_SECONDS = 2.0  # a search bot's longest think, whatever its budget says
Mover = Callable[[EliteGame, int, random.Random], int]


def make_bots(names: list[str], players: int) -> list[str]:
    """Bots dealt round the table from `names` (ValueError, naming the bots, if one is unknown
    or a search budget is not one)."""
    if not names:
        raise ValueError(f"bots is a bot name or a list of them ({', '.join(BOTS)})")
    unknown = [n for n in names if n.partition(":")[0] not in BOTS]
    if unknown:
        raise ValueError(
            f"UNO Elite's bots are {', '.join(BOTS[:-1])} and {BOTS[-1]}: "
            f"there is no {unknown[0]!r} bot for it"
        )
    for name in set(names):
        mover(name)  # ValueError for a bad budget, before the game starts
    return [names[s % len(names)] for s in range(players)]


def mover(spec: str) -> Mover:
    """The bot named by `spec`: `random`, `greedy`, or `search` with an optional budget after a
    colon, as for the other rulesets (`search:300` rollouts a move, `search:200ms`); a search
    stops after `engine.elite.search.MOVE_SECONDS` (or its own time) on the wall clock, so a
    person never waits long for it."""
    name, _, budget = spec.partition(":")
    if name != "search":
        if budget:
            raise ValueError(f"the {name} bot takes no budget ({spec!r})")
        return elite_bots.BOTS[name]
    rollouts, seconds = parse_budget(budget) if budget else (None, None)
    if rollouts is not None and rollouts < 1:
        raise ValueError(f"the search bot needs at least 1 rollout a move, not {rollouts}")
    if seconds is not None and not 0 < seconds <= MAX_SEARCH_SECONDS:
        raise ValueError(f"the search bot thinks 0 to {MAX_SEARCH_SECONDS:g} s a move ({spec!r})")
    limit = seconds or elite_search.MOVE_SECONDS
    count = rollouts or (10**6 if seconds else elite_search.DEFAULT_ROLLOUTS)

    def search(game: EliteGame, seat: int, rng: random.Random) -> int:
        return elite_search.search_bot(
            game, seat, rng, rollouts=count, clock=time.perf_counter, seconds=limit
        )

    return search


def uno_plays(game: EliteGame, seat: int) -> list[int]:
    """The actions `seat` may take saying UNO!: playing a card when it holds two."""
    if game.current_player() != seat or len(game.hands[seat]) != 2:
        return []
    return [a for a in game.legal_actions(seat) if A.PLAY <= a < A.DRAW]


class EliteLink(PacedLink):
    """Runs an Elite game of bots and people (`humans`). The same surface as EngineLink for
    `DigitalSession`: `game`, `humans`, `lock`, `start`, `close`, `act`, `act_event`."""

    waiting_for_tinker_bell = False  # UNO Elite has no Tinker Bell
    choosing = False
    loop_name = "elite-pace"

    def __init__(
        self,
        bus: Bus,
        game: EliteGame,
        bots: list[str],
        rng: random.Random,
        *,
        humans: Collection[int] = (),
        pace: float = 0.0,
    ):
        n = len(game.players)
        self.humans = human_seats(humans, n)
        if len(bots) < n:
            raise ValueError(f"{n} seats need {n} bots (a person's seat ignores its bot)")
        super().__init__(pace)
        self.bus, self.game, self.bots, self.rng = bus, game, bots, rng
        self._movers = [mover(spec) for spec in bots]
        self._published = 0
        self._interjected = 0  # bots' out-of-turn actions since the last move

    def start(self) -> None:
        with self.lock:
            self._advance()

    def is_over(self) -> bool:
        return self.game.current_player() == TERMINAL

    def waiting_for(self) -> int | None:
        """The human seat the game waits for, if it waits for one."""
        seat = self.game.current_player()
        return seat if seat in self.humans else None

    # ------------------------------------------------------------------ people
    def act(self, seat: int, action: int, uno: bool = False) -> None:
        """A person's action for `seat` (in turn, or out of turn: UNO, catch). With `uno`, a
        card played from two is played saying UNO!: the call is made at once, under the same
        lock, so no bot can catch the person between the card and the word (as at a table,
        where UNO is said while the card goes down). RuleError, with the engine's message and
        nothing changed, if the rules or the seat forbid it."""
        with self.lock:
            if not isinstance(seat, int) or isinstance(seat, bool) or seat not in self.humans:
                raise RuleError("seat", f"Seat {seat!r} is not played by a person in this game.")
            if not isinstance(action, int) or isinstance(action, bool):
                raise RuleError("unknown", f"An action is a whole number, not {action!r}.")
            if (
                uno
                and action in self.game.legal_actions(seat)
                and action not in uno_plays(self.game, seat)
            ):
                raise RuleError(
                    "uno", "Say UNO! as you play your next-to-last card, not with this move."
                )
            self.game.apply_action(action, seat)  # RuleError: the engine's sentence, no change
            if uno and A.UNO in self.game.legal_actions(seat):
                self.game.apply_action(A.UNO, seat)
            self._advance()

    def act_event(self, event: Mapping[str, Any]) -> None:
        raise RuleError(
            "event", "In UNO Elite, send a move as its action number (from the moves offered)."
        )

    # ------------------------------------------------------------------ chance and bots
    def _advance(self) -> None:
        """Let chance and the bots play until a person is to move or the game is over (with a
        pace: until the next bot step, which the loop's timer takes)."""
        g = self.game
        while not self._closed:
            seat = g.current_player()
            if seat == TERMINAL:
                break
            if seat == CHANCE:
                g.sample_chance(self.rng)
                continue
            if self._bot_interjects():
                continue
            if seat in self.humans:
                break
            if self.pace > 0:
                self._schedule()
                break
            self._bot_moves(seat)
        self._publish()

    def _bot_moves(self, seat: int) -> None:
        self.game.apply_action(self._movers[seat](self.game, seat, self.rng), seat)

    def _bot_interjects(self) -> bool:
        """Each bot, once: does it call UNO or catch someone out of turn (`bots.interject`)?"""
        g = self.game
        for seat in range(len(g.players)):
            if seat in self.humans or self._interjected >= MAX_INTERJECTIONS:
                continue
            greedy = self.bots[seat] != "random"  # greedy and search always call and catch
            action = elite_bots.interject(g, seat, self.rng, greedy)
            if action is not None:
                self._interjected += 1
                g.apply_action(action, seat)
                return True
        self._interjected = 0
        return False

    def _paced_step(self) -> None:
        seat = self.game.current_player()
        if seat >= 0 and seat not in self.humans and not self._bot_interjects():
            self._bot_moves(seat)

    def _publish(self) -> None:
        g = self.game
        events = g.events[self._published :]
        self._published = len(g.events)
        seat = g.current_player()
        self.bus.publish(
            GameProgress(
                hand=1,
                events=list(events),
                awaiting={"kind": "elite", "seat": seat if seat >= 0 else None},
                scores={},
                game_winner=g.winner,
            )
        )
