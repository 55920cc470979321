"""How often the search bot beats the greedy bot: two-player Disney games to 500 points.

    python -m bench.search_bot [--games 400] [--budget 200] [--workers 2] [--seed 1]

Half the games seat the search bot first and half second (the first dealer is drawn by the
highest card either way). Beside it, greedy against greedy over the same seeds, as the peer: a
fair 50% says the seating is fair. The win rate is given with its 95% confidence interval
(Wilson). The budget is rollouts a move (deterministic for a seed), or a time such as 200ms.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from bench.harness import heading, row
from bench.harness import win_rate as won
from engine import registry

CHUNK = 10  # games per task; each task its own seed, so the result is independent of workers


def _chunk(task: tuple[str, str, int, int]) -> int:
    """Games won by `hero` in one chunk, `hero` seated first on even chunks, second on odd."""
    hero, peer, seed, games = task
    bots = [hero, peer] if seed % 2 == 0 else [peer, hero]
    asked = registry.Simulation(
        players=2, seed=seed, bots=bots, games=games, options={"target": 500}
    )
    stats = registry.get("disney").simulate(asked)
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
    heading(f"two-player Disney games to 500, {args.games} a line, seed {args.seed}")
    for hero, peer in pairs:
        start = time.perf_counter()
        wins, n = win_rate(hero, peer, args.games, args.seed, args.workers, args.log)
        seconds = time.perf_counter() - start
        row(f"{hero} vs {peer}", f"{won(wins, n)}, {seconds:.0f} s")


if __name__ == "__main__":
    main()
