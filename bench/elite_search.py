"""The search bot against the greedy bot in UNO Elite: games won, and the time a move takes.

    python -m bench.elite_search [--games N] [--seed S] [--mode quick|draft]

Two-player games, the search bot in seat 0 for half of them and seat 1 for the other half (seat
0 plays first), each bot as `--bots` gives it in simulate (`engine.bots`, `engine.search`: the
one set of bots of every ruleset, playing by `engine.elite.hints`). Prints the search bot's wins
with a 95% confidence interval (Wilson's), and each bot's time per move in the same run, the
search bot's beside the greedy bot's (compare the two, not the absolute times: machines differ).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from bench.harness import heading, row, timings, win_rate
from cli.inputs import shipped_inputs
from engine import registry
from engine.bots import Bot, make
from engine.simulation import play_game


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
        game = registry.new_game("elite", seats, None, {"mode": args.mode}, {"cards": cards})
        play_game(game, bots, rng)
        if game.winner is None:
            blocked += 1
        elif seats[game.winner] == "search":
            wins += 1
    n = args.games - blocked
    heading(f"UNO Elite ({args.mode}), two players, {args.games} games, seats alternating:")
    row("search against greedy", f"{win_rate(wins, n)}; {blocked} blocked")
    greedy = times["greedy"]  # the peer: what a move costs a bot that does not search
    for name, spent in times.items():
        peer = None if name == "greedy" else greedy
        row(f"{name}: {len(spent)} moves", timings(spent, peer))


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
