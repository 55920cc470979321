"""Hands per second of the engine, per ruleset, beside rlcard's UnoGame, in the same run.

    python bench/engine_speed.py [--hands N] [--seed S] [--repeat R] [--rulesets disney,...]

rlcard is installed from PyPI into a throwaway virtual environment (bench/.rlcard-venv, ignored
by git) on first use; it never becomes a dependency of the project. Both sides play uniformly
random legal actions; ours plays each ruleset's full rules (Disney: Tinker Bell picks,
protection, UNO calls and catches, challenges, reshuffles). classic, official-2018 and elvis run
with draw_when_playable=false, as rlcard draws only when nothing plays (with it, random bots draw
at will and hands grow to hundreds of turns). Figures are medians of R runs; compare the ratio, not
the absolute numbers (the machines are shared and noisy).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from engine.simulate import simulate  # noqa: E402

PEER_ENV = HERE / ".rlcard-venv"


def peer_python() -> Path:
    py = PEER_ENV / "bin" / "python"
    if not py.exists():
        print("setting up rlcard in", PEER_ENV, file=sys.stderr)
        venv.EnvBuilder(with_pip=True).create(PEER_ENV)
        subprocess.run([str(py), "-m", "pip", "install", "-q", "rlcard", "numpy"], check=True)
    return py


RULESET_OPTIONS = {
    "disney": {},
    "classic": {"draw_when_playable": False},
    "official-2018": {"draw_when_playable": False},
    "elvis": {"draw_when_playable": False},
}


def ours(hands: int, players: int, seed: int, ruleset: str = "disney") -> dict:
    start = time.perf_counter()
    options = RULESET_OPTIONS.get(ruleset, {})
    stats = simulate(players=players, seed=seed, hands=hands, ruleset=ruleset, options=options)
    seconds = time.perf_counter() - start
    return {"hands_per_s": hands / seconds, "turns_per_hand": stats["average_turns_per_hand"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rulesets", default="disney,classic,official-2018,elvis")
    args = ap.parse_args()
    rulesets = [r for r in args.rulesets.split(",") if r]
    py = peer_python()
    runs: dict[str, dict[int, list[dict]]] = {
        name: {2: [], 4: []} for name in [*rulesets, "rlcard"]
    }
    for r in range(args.repeat):  # interleave the two so machine noise hits both alike
        for p in (2, 4):
            for name in rulesets:
                runs[name][p].append(ours(args.hands, p, args.seed + r, name))
        out = subprocess.run(
            [str(py), str(HERE / "_rlcard_uno.py"), str(args.hands), str(args.seed + r)],
            check=True, capture_output=True, text=True,
        ).stdout
        for p, figures in json.loads(out).items():
            runs["rlcard"][int(p)].append(figures)
    print(f"random-bot hands, {args.hands} per run, median of {args.repeat} runs")
    print(f"{'ruleset':>13} {'players':>7} {'ours hands/s':>13} {'rlcard hands/s':>15}"
          f" {'ratio':>6} {'our turns/hand':>15} {'rlcard steps/hand':>18}"
          f" {'decisions/s ratio':>18}")
    for name in rulesets:
        for p in (2, 4):
            o = statistics.median(x["hands_per_s"] for x in runs[name][p])
            r = statistics.median(x["hands_per_s"] for x in runs["rlcard"][p])
            ot = statistics.median(x["turns_per_hand"] for x in runs[name][p])
            rt = statistics.median(x["steps_per_hand"] for x in runs["rlcard"][p])
            per_decision = (o * ot) / (r * rt)
            print(f"{name:>13} {p:>7} {o:>13,.0f} {r:>15,.0f} {o / r:>5.2f}x {ot:>15.1f}"
                  f" {rt:>18.1f} {per_decision:>17.2f}x")


if __name__ == "__main__":
    main()
