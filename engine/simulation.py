"""A simulation's statistics, for every ruleset: the counts every game has (hands, games, wins by
seat and by bot, turns, decisions), the counters a ruleset adds (its own, named by it), and the
rates worked out from them, so that chunks played in several processes merge into one run's
(`merge_stats`). Which counters and rates a ruleset keeps is its own (`engine.disney.simulate`,
`engine.elite.simulate`): this module knows none.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.bots import Bot, make, offer_calls
from engine.protocol import GameState

MAX_ACTIONS = 20_000
"""A game that has not ended after this many actions is stopped (a ruleset counts it blocked)."""

Rates = Mapping[str, tuple[str, str, int]]
"""A ruleset's rates: each one's name -> (numerator, denominator, digits), both counters."""


def new_stats(players: int, bot_names: Sequence[str], counters: Iterable[str]) -> dict[str, Any]:
    """The statistics of no hand yet: the common counts, then the ruleset's `counters` at 0."""
    stats: dict[str, Any] = {
        "hands": 0,
        "games": 0,
        "players": players,
        "bots": list(bot_names),
        "hand_wins_by_seat": [0] * players,
        "game_wins_by_seat": [0] * players,
        "hand_wins_by_bot": {},
        "game_wins_by_bot": {},
        "turns": 0,
        "decisions": 0,
    }
    for name in counters:
        stats[name] = 0
    return stats


def merge_stats(parts: Sequence[Mapping[str, Any]], rates: Rates) -> dict[str, Any]:
    """The statistics of several runs (chunks of one simulation, in order) as one run's."""
    merged = dict(parts[0])
    for part in parts[1:]:
        for key, value in part.items():
            had = merged[key]
            if isinstance(value, bool) or key in ("players", "bots", "ruleset"):
                continue
            if isinstance(value, int):
                merged[key] = had + value
            elif isinstance(value, list):
                merged[key] = [a + b for a, b in zip(had, value, strict=True)]
            elif isinstance(value, dict):
                merged[key] = {**had, **{k: had.get(k, 0) + v for k, v in value.items()}}
    return with_rates(merged, rates)


def with_rates(stats: dict[str, Any], rates: Rates) -> dict[str, Any]:
    """`stats` with each of `rates` worked out (a denominator of 0 counts as 1)."""
    for name, (numerator, denominator, digits) in rates.items():
        stats[name] = round(stats[numerator] / max(stats[denominator], 1), digits)
    return stats


def play_game(
    game: GameState, bots: Sequence[str | Bot], rng: random.Random, limit: int = MAX_ACTIONS
) -> int:
    """Play a game of any ruleset to its end with `bots` by seat (by name: made with `rng`),
    chance sampled from `rng` and calls out of turn offered after each move (`offer_calls`);
    stops after `limit` actions. Returns the number of actions."""
    seats = [make([b], 1, rng)[0] if isinstance(b, str) else b for b in bots]
    actions = 0
    while not game.is_terminal() and actions < limit:
        if game.chance_kind() is not None:
            game.sample_chance(rng)
            continue
        while offer_calls(game, seats):  # (each call ends a seat's UNO due: a few at most)
            pass
        seat = game.current_player()
        if seat < 0:
            continue
        game.apply_action(seats[seat].act(game), seat)
        actions += 1
    return actions
