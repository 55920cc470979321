"""Elite simulations: bots play whole games (a game of UNO Elite is one hand: no points).

The statistics have every ruleset's shape (`engine.simulation`, so chunks merge the same way),
with UNO Elite's own counters: games blocked, `elite_activations` and `elite_icons` (each icon's
uses).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine import simulation
from engine.bots import Bot, bot_names
from engine.elite.cards import EliteCard
from engine.elite.counts import COUNTERS, RATES
from engine.elite.game import EliteGame
from engine.elite.uno import UnoCard


def play_game(game: EliteGame, bots: Sequence[str | Bot], rng: random.Random) -> int:
    """Play to the end (`engine.simulation.play_game`); returns the number of actions."""
    return simulation.play_game(game, bots, rng)


def simulate(
    *,
    players: int,
    seed: int,
    games: int,
    bots: Sequence[str] = ("random",),
    options: Mapping[str, Any] | None = None,
    cards: Sequence[EliteCard] | None = None,
    deck: Sequence[UnoCard] | None = None,
    record: bool = False,
    on_game: Callable[[EliteGame], None] | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    rng = random.Random(seed)
    specs = bot_names(list(bots), players)
    names = [spec.split(":")[0] for spec in specs]
    stats = simulation.new_stats(players, names, COUNTERS)
    stats.update(ruleset="elite", engine="python", elite_icons={})
    seats = [f"{names[s]}-{s}" for s in range(players)]
    for i in range(games):
        game = EliteGame(seats, options, cards=cards, deck=deck, record=record)
        actions = play_game(game, specs, rng)
        _count(stats, game, names, actions)
        if on_game is not None:
            on_game(game)
        if on_progress is not None:
            on_progress(i + 1)
    return simulation.with_rates(stats, RATES)


def _count(stats: dict[str, Any], game: EliteGame, names: list[str], actions: int) -> None:
    stats["hands"] += 1
    stats["games"] += 1
    stats["turns"] += game.stats["turns"]
    stats["decisions"] += actions
    stats["elite_activations"] += game.stats["elite_activations"]
    icons = stats["elite_icons"]
    for icon, count in game.stats["icons"].items():
        icons[icon] = icons.get(icon, 0) + count
    if game.winner is None:
        stats["blocked_hands"] += 1
        return
    bot = names[game.winner]
    for key, by_bot in (("hand_wins", "hand_wins_by_bot"), ("game_wins", "game_wins_by_bot")):
        stats[f"{key}_by_seat"][game.winner] += 1
        stats[by_bot][bot] = stats[by_bot].get(bot, 0) + 1
