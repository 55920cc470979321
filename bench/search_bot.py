"""How often the search bot beats the greedy bot: two-player Disney games to 500 points.

    python bench/search_bot.py [--games 400] [--budget 200] [--workers 2] [--seed 1]

Half the games seat the search bot first and half second (the first dealer is drawn by the
highest card either way). Beside it, greedy against greedy over the same seeds, as the peer: a
fair 50% says the seating is fair. The win rate is given with its 95% confidence interval
(Wilson). The budget is rollouts a move (deterministic for a seed), or a time such as 200ms.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.disney.simulate import simulate

CHUNK = 10  # games per task; each task its own seed, so the result is independent of workers


def _chunk(task: tuple[str, str, int, int]) -> int:
    """Games won by `hero` in one chunk, `hero` seated first on even chunks, second on odd."""
    hero, peer, seed, games = task
    bots = [hero, peer] if seed % 2 == 0 else [peer, hero]
    stats = simulate(players=2, seed=seed, games=games, bots=bots, options={"target": 500})
    return stats["game_wins_by_seat"][0 if seed % 2 == 0 else 1]


def win_rate(
    hero: str, peer: str, games: int, seed: int, workers: int, log: bool = False
) -> tuple[int, int]:
    tasks = []
    for i in range(0, games, CHUNK):
        tasks.append((hero, peer, seed * 1_000_003 + i // CHUNK, min(CHUNK, games - i)))
    wins = played = 0
    with ProcessPoolExecutor(workers) as pool:
        for task, won in zip(tasks, pool.map(_chunk, tasks), strict=True):
            wins, played = wins + won, played + task[3]
            if log:
                print(f"  ... {hero} {wins} of {played}", file=sys.stderr, flush=True)
    return wins, played


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--budget", default="200", help="rollouts a move, or a time: 200ms")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-peer", action="store_true", help="skip greedy against greedy")
    ap.add_argument("--log", action="store_true", help="the running count after each chunk")
    args = ap.parse_args()
    pairs = [(f"search:{args.budget}", "greedy")]
    if not args.no_peer:
        pairs.append(("greedy", "greedy"))
    print(f"two-player Disney games to 500, {args.games} per line, seed {args.seed}")
    for hero, peer in pairs:
        start = time.perf_counter()
        wins, n = win_rate(hero, peer, args.games, args.seed, args.workers, args.log)
        low, high = wilson(wins, n)
        seconds = time.perf_counter() - start
        print(
            f"{hero:>14} vs {peer:<8} won {wins:>4} of {n} = {wins / n:6.1%}"
            f"  (95% CI {low:.1%} to {high:.1%})  {seconds:7.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
