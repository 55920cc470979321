"""The search bot, for every ruleset: determinised Monte Carlo rollouts, looking only at what its
seat may see.

At each decision with a real choice the bot imagines the cards it cannot see many times over
("determinisation": `state.determinise(seat, rng)`, each ruleset's own, consistent with the
seat's observation). In each imagined world it tries every candidate action and plays on with
greedy players on every seat (chance at random, one shared seed per world so the candidates are
compared on the same luck), and takes the action with the best average result. Which actions
are worth comparing, how far a rollout goes and how its end is scored are the ruleset's hints
(`state.hints`, `engine.protocol.Hints`): a Disney hand is played out and scored by its points;
an Elite game is played a few actions on and scored by the cards held.

The budget is a number of rollouts per move (deterministic for a seed) and optionally seconds,
measured by a `clock` the caller passes in (the engine itself reads no clock).

It knows no ruleset: each one's hints live with it (`engine.disney.hints`, `engine.elite.hints`).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.protocol import GameState, Hints

DEFAULT_ROLLOUTS = 400
"""Rollouts a move by default, for a ruleset whose hints take these (about 0.1 s on the
development machine; a clock caps it)."""
MOVE_SECONDS = 0.15
"""With a clock and no budget given, a move also stops after this long (digital play answers
within 300 ms)."""


class SearchBot:
    """Flat Monte Carlo over determinised worlds with greedy rollouts; the hardest opponent."""

    name = "search"

    def __init__(
        self,
        rng: random.Random,
        rollouts: int | None = None,
        seconds: float | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        """Without a budget, the ruleset's own (`hints.rollouts`, and with a clock
        `hints.move_seconds`); a time budget alone is bounded by its time."""
        if rollouts is not None and rollouts < 1:
            raise ValueError("the search bot needs at least one rollout a move")
        if seconds is not None and clock is None:
            raise ValueError("a time budget for the search bot needs a clock")
        self._rng = random.Random(rng.getrandbits(64))
        self.rollouts = rollouts
        self.seconds = seconds
        self._clock = clock
        self.last_rollouts = 0
        """Rollouts spent on the last move (0 when there was nothing to choose)."""

    def act(self, game: GameState) -> int:
        self.last_rollouts = 0
        hints = game.hints
        candidates = hints.candidates(game, game.legal_actions())
        if len(candidates) == 1:
            return int(candidates[0])
        return self._search(game, hints, candidates)

    def _budget(self, hints: Hints[GameState]) -> tuple[int, float | None]:
        rollouts, seconds = self.rollouts, self.seconds
        if rollouts is None:
            rollouts = hints.rollouts if seconds is None else 1_000_000
            if seconds is None and self._clock is not None:
                seconds = hints.move_seconds
        return rollouts, seconds

    def _search(self, game: GameState, hints: Hints[GameState], candidates: list[int]) -> int:
        clock = self._clock
        rollouts, seconds = self._budget(hints)
        deadline = None if seconds is None or clock is None else clock() + seconds
        seat = game.current_player()
        root = hints.root(game)
        rng = self._rng
        totals = [0.0] * len(candidates)
        worlds = max(1, rollouts // len(candidates))
        last = 0.0  # how long the last imagined world took: do not start one that would overrun
        for _ in range(worlds):
            if deadline is not None:
                now = clock()  # type: ignore[misc]
                if self.last_rollouts and now + last >= deadline:
                    break
            world = root.determinise(seat, rng)
            luck = hints.luck(rng)
            for i, action in enumerate(candidates):
                trial = world.clone()
                trial.apply_action(action)
                totals[i] += hints.playout(trial, seat, random.Random(luck), world)
            self.last_rollouts += len(candidates)
            if deadline is not None:
                last = clock() - now  # type: ignore[misc]
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]

    def interject(self, game: GameState, seat: int, options: list[int]) -> int | None:
        return game.hints.interject(game, seat, options)


def parse_budget(text: str) -> tuple[int | None, float | None]:
    """`300` -> 300 rollouts a move; `200ms` or `0.2s` -> 0.2 seconds. ValueError otherwise."""
    text = text.strip().lower()
    try:
        if text.endswith("ms"):
            return None, float(text[:-2]) / 1000
        if text.endswith("s"):
            return None, float(text[:-1])
        return int(text), None
    except ValueError:
        raise ValueError(
            f"the search bot's budget is rollouts a move (search:300) or a time (search:200ms), "
            f"not {text!r}"
        ) from None
