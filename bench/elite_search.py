"""The search bot against the greedy bot in UNO Elite: games won, and the time a move takes.

    python bench/elite_search.py [--games N] [--seed S] [--mode quick|draft]

Two-player games, the search bot in seat 0 for half of them and seat 1 for the other half (seat
0 plays first), each bot as `--bots` gives it in simulate (`engine.bots`, `engine.search`: the
one set of bots of every ruleset, playing by `engine.elite.hints`). Prints the search bot's wins
with a 95% confidence interval, and each bot's median and 99th-percentile time per move in the
same run (compare the two, not the absolute times: machines differ).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cli.inputs import shipped_inputs
from engine.bots import Bot, make
from engine.elite.game import EliteGame
from engine.elite.simulate import play_game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mode", default="quick", choices=("quick", "draft"))
    args = ap.parse_args()
    cards = shipped_inputs()["elite"]["cards"]
    times: dict[str, list[float]] = {"search": [], "greedy": []}
    rng = random.Random(args.seed)
    wins = blocked = 0
    for i in range(args.games):
        seats = ["search", "greedy"] if i % 2 == 0 else ["greedy", "search"]
        bots = [Timed(bot, times[bot.name]) for bot in make(seats, 2, rng)]
        game = EliteGame(seats, {"mode": args.mode}, cards=cards, record=False)
        play_game(game, bots, rng)
        if game.winner is None:
            blocked += 1
        elif seats[game.winner] == "search":
            wins += 1
    n = args.games - blocked
    p = wins / max(n, 1)
    half = 1.96 * math.sqrt(p * (1 - p) / max(n, 1))
    print(f"UNO Elite ({args.mode}), two players, {args.games} games, seats alternating:")
    print(
        f"  search won {wins} of {n} decided games: {p:.1%} "
        f"(95% CI {p - half:.1%} to {p + half:.1%}); {blocked} blocked"
    )
    for name, spent in times.items():
        spent.sort()
        print(
            f"  {name:>6}: {len(spent)} moves, median {statistics.median(spent) * 1000:.1f} ms,"
            f" p99 {spent[int(len(spent) * 0.99)] * 1000:.1f} ms"
        )


class Timed:
    """A bot whose moves are timed (its calls out of turn are not)."""

    def __init__(self, bot: Bot, spent: list[float]) -> None:
        self.bot, self.spent, self.name = bot, spent, bot.name

    def act(self, game: Any) -> int:
        start = time.perf_counter()
        action = self.bot.act(game)
        self.spent.append(time.perf_counter() - start)
        return action

    def interject(self, game: Any, seat: int, options: list[int]) -> int | None:
        return self.bot.interject(game, seat, options)


if __name__ == "__main__":
    main()
