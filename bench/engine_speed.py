"""Hands per second of the engine, per ruleset, beside rlcard's UnoGame, in the same run.

    python bench/engine_speed.py [--hands N] [--seed S] [--repeat R] [--rulesets disney,...]
                                 [--bot-hands H]

rlcard is installed from PyPI into a throwaway virtual environment (bench/.rlcard-venv, ignored
by git) on first use; it never becomes a dependency of the project. Both sides play uniformly
random legal actions; ours plays each ruleset's full rules (Disney: Tinker Bell picks,
protection, UNO calls and catches, challenges, reshuffles). classic, official-2018 and elvis run
with draw_when_playable=false, as rlcard draws only when nothing plays (with it, random bots draw
at will and hands grow to hundreds of turns). Figures are medians of R runs; compare the ratio, not
the absolute numbers (the machines are shared and noisy).

Last, the bots' move times: H two-player Disney hands (recorded, as in digital play), the search
bot as digital play makes it (its default budget, capped by the clock) against greedy; median and
99th percentile a move, over every move and over the moves with a choice (0 skips it).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from engine import bots as B  # noqa: E402
from engine.game import CHANCE, Game  # noqa: E402
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


class _Timed:
    """A bot whose every move is timed (seconds, and whether it had a choice)."""

    def __init__(self, bot: B.Bot) -> None:
        self.bot, self.name, self.times = bot, bot.name, []

    def act(self, game: Game) -> int:
        choice = len(game.legal_actions()) > 1
        start = time.perf_counter()
        action = self.bot.act(game)
        self.times.append((time.perf_counter() - start, choice))
        return action

    def interject(self, game: Game, seat: int, options: list[int]) -> int | None:
        return self.bot.interject(game, seat, options)


def bot_move_times(hands: int, seed: int, spec: str = "search") -> None:
    """Per-move time of the search bot (as digital play makes it: its default budget, capped by
    the clock) beside the greedy bot's, in one run of two-player Disney hands against each other."""
    rng = random.Random(seed)
    bots = [_Timed(b) for b in B.make([spec, "greedy"], 2, rng, clock=time.perf_counter)]
    game = Game("disney", ["search", "greedy"], 0, {"target": 100_000})  # recorded, as played
    for _ in range(hands):
        game.sample_chance(rng)  # a new hand
        while game.current_player() != CHANCE or game.chance_kind() != "new_hand":
            who = game.current_player()
            if who == CHANCE:
                game.sample_chance(rng)
                continue
            game.apply_action(bots[who].act(game))
            for seat, action in game.interjections():
                if bots[seat].interject(game, seat, [action]) is not None:
                    game.apply_action(action, seat)
                    break
    print(f"bot move times, {hands} two-player Disney hands, search ({spec}) against greedy")
    for bot in bots:
        every = sorted(t for t, _ in bot.times)
        chosen = sorted(t for t, choice in bot.times if choice) or [0.0]
        print(f"{bot.name:>8}: {len(every)} moves, median {_ms(every, 50)} p99 {_ms(every, 99)};"
              f" {len(chosen)} with a choice: median {_ms(chosen, 50)} p99 {_ms(chosen, 99)}")


def _ms(times: list[float], percent: int) -> str:
    return f"{times[min(len(times) - 1, len(times) * percent // 100)] * 1000:.2f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rulesets", default="disney,classic,official-2018,elvis")
    ap.add_argument("--bot-hands", type=int, default=20, help="hands for the bots' move times")
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
    if args.bot_hands:
        bot_move_times(args.bot_hands, args.seed)


if __name__ == "__main__":
    main()
