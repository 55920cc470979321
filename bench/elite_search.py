"""The UNO Elite search bot against the greedy bot: games won, and the time a move takes.

    python bench/elite_search.py [--games N] [--seed S] [--mode quick|draft]

Two-player games, the search bot in seat 0 for half of them and seat 1 for the other half (seat
0 plays first), each bot at what `--bots` gives it in simulate and digital play. Prints the
search bot's wins with a 95% confidence interval, and each bot's median and 99th-percentile
time per move in the same run (compare the two, not the absolute times: machines differ).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cli.elite_files import load_cards
from engine.elite import bots
from engine.elite.game import EliteGame
from engine.elite.simulate import play_game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mode", default="quick", choices=("quick", "draft"))
    args = ap.parse_args()
    cards = load_cards()
    times: dict[str, list[float]] = {"search": [], "greedy": []}
    timed = {name: _timed(name, times[name]) for name in times}
    saved = dict(bots.BOTS)
    bots.BOTS.update(timed)
    rng = random.Random(args.seed)
    wins = blocked = 0
    try:
        for i in range(args.games):
            seats = ["search", "greedy"] if i % 2 == 0 else ["greedy", "search"]
            game = EliteGame(seats, {"mode": args.mode}, cards=cards, record=False)
            play_game(game, seats, rng)
            if game.winner is None:
                blocked += 1
            elif seats[game.winner] == "search":
                wins += 1
    finally:
        bots.BOTS.clear()
        bots.BOTS.update(saved)
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


def _timed(name: str, spent: list[float]) -> bots.Bot:
    bot = bots.BOTS[name]

    def act(game: EliteGame, seat: int, rng: random.Random) -> int:
        start = time.perf_counter()
        action = bot(game, seat, rng)
        spent.append(time.perf_counter() - start)
        return action

    return act


if __name__ == "__main__":
    main()
