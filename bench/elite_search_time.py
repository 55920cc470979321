"""CPU time of a UNO Elite search move, this checkout beside another (main, say), on the same
positions: what "the same time per move" is measured by when the search bot changes.

    git worktree add /tmp/main main   # or any checkout
    python -m bench.elite_search_time /tmp/main [--games 12] [--rounds 2]

Each checkout runs in a process of its own, in turns (`--rounds`), over the same positions: two
greedy players' quick games, every third decision of seat 0 with a real choice searched at its
default budget (`engine.search.SearchBot`; in a checkout from before the one search bot,
`engine.elite.bots.search_bot`). CPU seconds (`time.process_time`), so that other work on the
machine weighs less than on the wall clock. Prints each run's median and 99th percentile, and
the ratio of the medians (the other checkout is the peer).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from bench.harness import ROOT, heading, interleaved, row, timings

CHILD = """
import random, sys, time
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
for seed in range(int(sys.argv[1])):
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
print(*spent)
"""


def run(checkout: Path, games: int) -> list[float]:
    """CPU seconds of each searched move, in a process of `checkout`'s own (its packages first
    on the path: the child runs in it, with it as PYTHONPATH)."""
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(games)],
        capture_output=True,
        text=True,
        check=True,
        cwd=checkout,
        env={"TINKER_TRAY_PURE": "1", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(checkout)},
    ).stdout.split()
    return [float(x) for x in out]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("other", type=Path, help="the checkout to compare with")
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    other = args.other.resolve()
    if not (other / "engine").is_dir():
        sys.exit(f"{args.other} is not a checkout of tinker-tray (it has no engine/)")
    runs = interleaved(
        {"this": lambda: run(ROOT, args.games), str(args.other): lambda: run(other, args.games)},
        args.rounds,
    )
    heading(f"CPU time of a searched move, {args.games} games a run, {args.rounds} runs each")
    for k, (here, there) in enumerate(zip(*runs.values(), strict=True), 1):
        row(f"run {k}: {args.other} (the peer)", timings(there))
        row(f"run {k}: this checkout", timings(here, there))


if __name__ == "__main__":
    main()
