"""Transitional: the UNO Elite search bot as digital/elite_link.py calls it, now the one search
bot of every ruleset (`engine.search.SearchBot`, playing by `engine.elite.hints`). Remove once
digital play no longer imports it."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.elite.game import EliteGame
from engine.elite.hints import DEFAULT_ROLLOUTS, MOVE_SECONDS, ROLLOUT_ACTIONS, greedy_bot
from engine.search import SearchBot


def search_bot(
    game: EliteGame,
    seat: int,
    rng: random.Random,
    rollouts: int = DEFAULT_ROLLOUTS,
    clock: Callable[[], float] | None = None,
    seconds: float = MOVE_SECONDS,
) -> int:
    """`SearchBot.act` for the seat to act; out of turn, or with a call to make, the greedy
    bot's answer (the search bot calls and catches as it does)."""
    if seat != game.current_player() or any(s == seat for s, _ in game.interjections()):
        return greedy_bot(game, seat, rng)
    bot = SearchBot(rng, rollouts=rollouts, seconds=seconds if clock else None, clock=clock)
    return bot.act(game)


def imagine(game: EliteGame, seat: int, rng: random.Random) -> EliteGame:
    """A copy of `game` whose hidden cards are dealt again at random (`determinise`)."""
    return game.determinise(seat, rng)


__all__ = ["DEFAULT_ROLLOUTS", "MOVE_SECONDS", "ROLLOUT_ACTIONS", "imagine", "search_bot"]
