"""CPU time of a UNO Elite search move, this checkout beside another (main, say), on the same
positions: what "the same time per move" is measured by when the search bot changes.

    git worktree add /tmp/main main   # or any checkout
    python bench/elite_search_time.py /tmp/main [--games 12] [--rounds 2]

Each checkout runs in a process of its own, in turns (`--rounds`), over the same positions: two
greedy players' quick games, every third decision of seat 0 with a real choice searched at its
default budget (`engine.search.SearchBot`; in a checkout from before the one search bot,
`engine.elite.bots.search_bot`). CPU seconds (`time.process_time`), so that other work on the
machine weighs less than on the wall clock. Prints each run's median and 99th percentile, and
the ratio of the medians.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
CHILD = """
import random, statistics, sys, time
sys.path.insert(0, sys.argv[1])
from cli.inputs import shipped_inputs
from engine.elite.game import EliteGame
try:  # a checkout from before the one search bot
    from engine.elite.bots import greedy_bot, search_bot
except ImportError:
    from engine.elite.hints import greedy_bot
    from engine.search import SearchBot
    def search_bot(game, seat, rng):
        return SearchBot(rng).act(game)
cards, spent = shipped_inputs()["elite"]["cards"], []
for seed in range(int(sys.argv[2])):
    rng = random.Random(seed)
    g = EliteGame(["a", "b"], {"mode": "quick"}, cards=cards, record=False)
    moves = 0
    while not g.is_terminal() and moves < 80:
        if g.is_chance_node():
            g.sample_chance(rng)
            continue
        seat = g.current_player()
        if seat == 0 and moves % 3 == 0 and len(g.legal_actions(seat)) > 1:
            start = time.process_time()
            search_bot(g, seat, random.Random(moves))
            spent.append(time.process_time() - start)
        g.apply_action(greedy_bot(g, seat, rng), seat)
        moves += 1
spent.sort()
print(len(spent), statistics.median(spent), spent[int(len(spent) * 0.99)])
"""


def run(checkout: Path, games: int) -> tuple[int, float, float]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(checkout), str(games)],
        capture_output=True,
        text=True,
        check=True,
        env={"TINKER_TRAY_PURE": "1", "PATH": "/usr/bin:/bin"},
    ).stdout.split()
    return int(out[0]), float(out[1]), float(out[2])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("other", type=Path, help="the checkout to compare with")
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    for _ in range(args.rounds):
        here, there = run(HERE, args.games), run(args.other.resolve(), args.games)
        for name, (n, median, p99) in (("this", here), (str(args.other), there)):
            ms = f"median {median * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms"
            print(f"  {name:>16}: {n} moves, {ms}")
        print(f"  this / other, medians: {here[1] / there[1]:.2f}")


if __name__ == "__main__":
    main()
