"""Hands and decisions per second of the engine, compiled and pure Python, beside rlcard's
UnoGame, in one run.

    python -m bench.engine_speed [--hands N] [--seed S] [--repeat R] [--rulesets disney,...]
                                 [--players 2,4] [--bot-hands H] [--instructions HANDS]
                                 [--against REV]

Each figure is a whole process, as a user meets it: a fresh interpreter that imports the engine
and plays N random-bot hands (`disney.simulate`), timed from outside; the compiled build is the
one `./tinker` makes (build/mypyc), the pure one the same sources with TINKER_TRAY_PURE=1.
rlcard is installed from PyPI into a throwaway virtual environment (bench/.rlcard-venv, ignored
by git) on first use; it never becomes a dependency of the project. Both sides play uniformly
random legal actions; ours plays each ruleset's full rules (Disney: Tinker Bell picks,
protection, UNO calls and catches, challenges, reshuffles). classic, official-2018 and elvis run
with draw_when_playable=false, as rlcard draws only when nothing plays (with it, random bots draw
at will and hands grow to hundreds of turns). A decision is a move or a call out of turn (ours)
or a `step` (rlcard). Figures are medians of R runs, interleaved; compare the ratios, not the
absolute numbers (the machines are shared and noisy). Beside the wall clock, each process's CPU
seconds (less moved by the neighbours); then each run's ratio to rlcard's run of the same
repeat (paired, so that a slow spell hits both sides), their median and range; and last the
fastest of the R runs of each (timeit's estimator for a noisy machine).

With --instructions, also the machine instructions per hand of each side, counted by valgrind
(where it is installed) in whole processes of HANDS four-player hands of the first ruleset: a
count no neighbour moves, to tell a change's effect from the machine's noise (it is not time:
a C library and an interpreter retire instructions at different rates).

With --against REV, an earlier revision of this repository plays beside today's in the same
runs, both builds (`compiled@REV`, `python@REV`): its files taken with `git archive` into
bench/.against/ (ignored by git) and its engine compiled there as `./tinker` compiles it. It asks
what a change cost or bought when the machine has moved since the figures in a note were taken.

Last, the bots' move times (`search_bot_move_time`): H two-player Disney hands, the search bot as
digital play makes it against greedy, in this process (0 skips it).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
import venv
from pathlib import Path
from typing import Any

from bench.harness import heading, ratio, row, timings

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PEER_ENV = HERE / ".rlcard-venv"
BUILDS = ("compiled", "python")
AGAINST = HERE / ".against"

RULESET_OPTIONS = {
    "disney": {},
    "classic": {"draw_when_playable": False},
    "official-2018": {"draw_when_playable": False},
    "elvis": {"draw_when_playable": False},
}

# The child process: import the engine, play, report what it played and which build ran.
_OURS = """
import json, sys
try:
    from engine.disney.simulate import simulate
except ImportError:  # (an earlier revision's, --against: before engine/disney/)
    from engine.simulate import simulate
hands, players, seed, ruleset, options = json.loads(sys.argv[1])
s = simulate(players=players, seed=seed, hands=hands, ruleset=ruleset, options=options)
print(json.dumps({"engine": s["engine"], "decisions_per_hand": s["average_decisions_per_hand"]}))
"""


def peer_python() -> Path:
    py = PEER_ENV / "bin" / "python"
    if not py.exists():
        print("setting up rlcard in", PEER_ENV, file=sys.stderr)
        venv.EnvBuilder(with_pip=True).create(PEER_ENV)
        subprocess.run([str(py), "-m", "pip", "install", "-q", "rlcard", "numpy"], check=True)
    return py


def _our_process(
    build: str, hands: int, players: int, seed: int, ruleset: str
) -> tuple[list[str], dict[str, str], Path]:
    """The command, environment and folder of one whole process of our engine in `build`:
    "compiled" or "python", of this checkout or (after an @) of an earlier revision's."""
    kind, _, rev = build.partition("@")
    root = AGAINST / rev if rev else ROOT
    env = dict(os.environ, PYTHONPATH=str(root))
    env.pop("TINKER_TRAY_PURE", None)
    if kind == "python":
        env["TINKER_TRAY_PURE"] = "1"
    job = json.dumps([hands, players, seed, ruleset, RULESET_OPTIONS.get(ruleset, {})])
    return [sys.executable, "-c", _OURS, job], env, root


def ours(build: str, hands: int, players: int, seed: int, ruleset: str) -> dict:
    """One whole process of our engine in `build` (`_our_process`)."""
    command, env, root = _our_process(build, hands, players, seed, ruleset)
    out, seconds, cpu = _run(command, env=env, cwd=root)
    figures = json.loads(out)
    if figures["engine"] != build.partition("@")[0]:
        sys.exit(f"asked for the {build} engine, got {figures['engine']} (run ./tinker first)")
    return {
        "hands_per_s": hands / seconds,
        "hands_per_cpu_s": hands / cpu,
        "decisions_per_hand": figures["decisions_per_hand"],
    }


def against(rev: str) -> tuple[str, ...]:
    """An earlier revision's files in bench/.against/REV, its engine compiled there as ./tinker
    compiles it (setup.py, with this interpreter's mypyc) where that revision can be, and its
    bytecode written (a start would otherwise compile every module where PYTHONDONTWRITEBYTECODE
    is set). Its builds: both, or pure Python alone when it did not compile."""
    name = ["git", "rev-parse", "--short=12", f"{rev}^{{commit}}"]
    sha = _step(f"--against {rev}: not a revision here", name).decode().strip()
    tree = AGAINST / sha
    if not tree.is_dir():  # (taken whole into a folder of its own, then renamed: never half)
        print("taking", rev, "into", tree, file=sys.stderr)
        part = AGAINST / f"{sha}.part"
        shutil.rmtree(part, ignore_errors=True)
        part.mkdir(parents=True)
        files = _step(f"--against {rev}: git archive failed", ["git", "archive", sha])
        subprocess.run(["tar", "-x", "-C", str(part)], input=files, check=True)
        if (part / "setup.py").exists():
            print("compiling", rev, "with mypyc", file=sys.stderr)
            env = dict(os.environ, TINKER_TRAY_COMPILE="1")
            subprocess.run([sys.executable, "setup.py"], cwd=part, env=env, capture_output=True)
        bytecode = [sys.executable, "-m", "compileall", "-q", "engine"]
        _step(f"--against {rev}: its engine does not compile to bytecode", bytecode, cwd=part)
        part.rename(tree)
    env = {k: v for k, v in os.environ.items() if k != "TINKER_TRAY_PURE"}
    which = [sys.executable, "-c", "import engine; print(getattr(engine, 'BUILD', 'python'))"]
    built = _step(f"--against {rev}: its engine does not import", which, cwd=tree, env=env)
    if built.strip() != b"compiled":
        print(f"{rev} did not compile here: its pure Python alone", file=sys.stderr)
        return (f"python@{sha}",)
    return (f"compiled@{sha}", f"python@{sha}")


def _step(failure: str, command: list[str], **kw: Any) -> bytes:
    """The output of one step of `against`, or an exit that says which step failed and why."""
    done = subprocess.run(command, capture_output=True, **{"cwd": ROOT, **kw})
    if done.returncode:
        sys.exit(f"{failure}: {done.stderr.decode(errors='replace').strip()[-500:]}")
    return done.stdout


def _run(cmd: list[str], **kw: Any) -> tuple[str, float, float]:
    """A child process's output, its wall-clock seconds and its CPU seconds (user + system: on a
    shared machine the CPU time moves less with the neighbours' load than the wall clock)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return out, seconds, cpu


def rlcard(py: Path, hands: int, seed: int, player_counts: list[int]) -> dict[int, dict]:
    """rlcard's UnoGame, for each number of players, each a whole process."""
    out = {}
    for players in player_counts:
        text, seconds, cpu = _run(
            [str(py), str(HERE / "_rlcard_uno.py"), str(hands), str(seed), str(players)]
        )
        out[players] = {
            "hands_per_s": hands / seconds,
            "hands_per_cpu_s": hands / cpu,
            "decisions_per_hand": json.loads(text)["steps"],
        }
    return out


def _instructions(command: list[str], **kw: Any) -> int:
    """Machine instructions a whole process executes, counted by valgrind (callgrind)."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        check=True,
        capture_output=True,
        text=True,
        **kw,
    )
    found = re.search(r"refs:\s+([\d,]+)", done.stderr)
    if found is None:
        sys.exit(f"valgrind printed no instruction count:\n{done.stderr[-500:]}")
    return int(found.group(1).replace(",", ""))


def instruction_counts(
    py: Path, hands: int, seed: int, players: int, ruleset: str, builds: tuple[str, ...]
) -> None:
    """Instructions per hand, ours beside rlcard's: a count the neighbours cannot move, where
    the clock moves by a fifth from run to run. Whole processes of `hands` hands, and per hand
    beyond the first (start-up left out)."""
    figures = {}
    for side in ("rlcard", *builds):
        per_run = []
        for n in (1, hands):
            if side == "rlcard":
                command = [str(py), str(HERE / "_rlcard_uno.py"), str(n), str(seed), str(players)]
                per_run.append(_instructions(command))
            else:
                command, env, root = _our_process(side, n, players, seed, ruleset)
                per_run.append(_instructions(command, env=env, cwd=root))
        one, many = per_run
        figures[side] = (many / hands, (many - one) / (hands - 1))
    peer_whole, peer_hand = figures["rlcard"]
    heading(
        f"instructions per hand (valgrind), {players} players, {hands} hands"
        " (x rlcard: its count over ours, as for speed)"
    )
    for side, (whole, hand) in figures.items():
        label = "rlcard (the peer)" if side == "rlcard" else side
        beside = "" if side == "rlcard" else f" ({ratio(peer_whole, whole)} rlcard)"
        row(f"{label}, whole process", f"{whole / 1e6:.2f}M{beside}")
        beside = "" if side == "rlcard" else f" ({ratio(peer_hand, hand)} rlcard)"
        row(f"{label}, beyond start-up", f"{hand / 1e6:.2f}M{beside}")


def search_bot_move_time(hands: int = 20, seed: int = 1) -> None:
    """The search bot's time per move beside the greedy bot's, in one run: `hands` two-player
    Disney hands between them, recorded as digital play records them, the search bot as digital
    play makes it (its default budget, capped by the clock). Median and 99th percentile a move
    with a choice, and over every move (a forced move takes no search)."""
    import random

    from engine import bots as B
    from engine import registry
    from engine.protocol import CHANCE

    rng = random.Random(seed)
    bots = [_Timed(b) for b in B.make(["search", "greedy"], 2, rng, clock=time.perf_counter)]
    game = registry.new_game("disney", ["search", "greedy"], 0, {"target": 100_000})  # recorded
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
    heading(f"bot move times, {hands} two-player Disney hands, search against greedy, one run")
    chosen = {bot.name: [t for t, choice in bot.times if choice] for bot in bots}
    every = {bot.name: [t for t, _ in bot.times] for bot in bots}
    for name in ("greedy", "search"):  # the greedy bot's first: the peer
        peer = None if name == "greedy" else "greedy"
        for what, times in (("with a choice", chosen), ("every move", every)):
            row(
                f"{name}: {len(times[name])} moves, {what}",
                timings(times[name], None if peer is None else times[peer]),
            )


class _Timed:
    """A bot whose every move is timed (seconds, and whether it had a choice)."""

    def __init__(self, bot: Any) -> None:
        self.bot, self.name = bot, bot.name
        self.times: list[tuple[float, bool]] = []

    def act(self, game: Any) -> int:
        choice = len(game.legal_actions()) > 1
        start = time.perf_counter()
        action = self.bot.act(game)
        self.times.append((time.perf_counter() - start, choice))
        return int(action)

    def interject(self, game: Any, seat: int, options: list[int]) -> int | None:
        return self.bot.interject(game, seat, options)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rulesets", default="disney,classic,official-2018,elvis")
    ap.add_argument("--players", default="2,4", help="player counts, e.g. 4")
    ap.add_argument("--bot-hands", type=int, default=20, help="hands for the bots' move times")
    ap.add_argument(
        "--instructions",
        type=int,
        default=0,
        metavar="HANDS",
        help="also count instructions per hand with valgrind (the first ruleset, 4 players)",
    )
    ap.add_argument("--against", metavar="REV", help="an earlier revision's builds beside these")
    args = ap.parse_args()
    rulesets = [r for r in args.rulesets.split(",") if r]
    player_counts = [int(p) for p in args.players.split(",") if p]
    builds = BUILDS + (against(args.against) if args.against else ())  # (before the install)
    py = peer_python()
    runs = take_runs(py, args, rulesets, player_counts, builds)
    sides = [(name, build) for name in rulesets for build in builds]
    report_medians(runs, sides, player_counts, args)
    report_paired(runs, sides, player_counts)
    report_fastest(runs, sides, player_counts, args.repeat)
    if args.instructions:
        instruction_counts(py, args.instructions, args.seed, 4, rulesets[0], builds)
    if args.bot_hands:
        search_bot_move_time(args.bot_hands, args.seed)


Runs = dict[tuple[str, str, int], list[dict]]
"""Each side's figures, run by run: (ruleset, build, players), rlcard's as ("rlcard", "", n)."""


def take_runs(
    py: Path,
    args: argparse.Namespace,
    rulesets: list[str],
    player_counts: list[int],
    builds: tuple[str, ...],
) -> Runs:
    """`--repeat` rounds of every side, rlcard's first in each (interleaved, so that machine
    noise hits every side alike; each round its own seed, the same for every side)."""
    runs: Runs = {}
    for r in range(args.repeat):
        seed = args.seed + r
        for players, figures in rlcard(py, args.hands, seed, player_counts).items():
            runs.setdefault(("rlcard", "", players), []).append(figures)
        for players in player_counts:
            for name in rulesets:
                for build in builds:
                    figures = ours(build, args.hands, players, seed, name)
                    runs.setdefault((name, build, players), []).append(figures)
    return runs


def _median(runs: Runs, key: tuple[str, str, int], field: str) -> float:
    return statistics.median(x[field] for x in runs[key])


def report_medians(
    runs: Runs, sides: list[tuple[str, str]], player_counts: list[int], args: argparse.Namespace
) -> None:
    heading(
        f"random-bot hands, whole processes of {args.hands} hands, median of {args.repeat} runs"
        " (the peer: rlcard's UnoGame)"
    )
    for players in player_counts:
        peer = ("rlcard", "", players)
        r_hands, r_dec = (
            _median(runs, peer, "hands_per_s"),
            _median(runs, peer, "decisions_per_hand"),
        )
        r_cpu = _median(runs, peer, "hands_per_cpu_s")
        row(
            f"rlcard UnoGame, {players} players (the peer)",
            f"{r_hands:,.0f} hands/s, {r_dec:.1f} decisions/hand, {r_hands * r_dec:,.0f}"
            f" decisions/s; CPU {r_cpu:,.0f} hands/s",
        )
        for name, build in sides:
            key = (name, build, players)
            hands, dec = _median(runs, key, "hands_per_s"), _median(runs, key, "decisions_per_hand")
            cpu = _median(runs, key, "hands_per_cpu_s")
            row(
                f"{name} {build}, {players} players",
                f"{hands:,.0f} hands/s ({ratio(hands, r_hands)}), {dec:.1f} decisions/hand,"
                f" {hands * dec:,.0f} decisions/s ({ratio(hands * dec, r_hands * r_dec)});"
                f" CPU {cpu:,.0f} hands/s ({ratio(cpu, r_cpu)})",
            )


def report_paired(runs: Runs, sides: list[tuple[str, str]], player_counts: list[int]) -> None:
    """Each run's ratio to rlcard's run of the same repeat (minutes apart at most, so a slow
    spell of the machine tends to hit both), then the median and range of those ratios: of the
    wall clock, and of the CPU seconds (the issue's measure: the neighbours move it less)."""
    heading("paired by run: each run's x rlcard's run of the same round, median (range)")
    for field, what in (("hands_per_s", "hands/s"), ("hands_per_cpu_s", "CPU hands/s")):
        for players in player_counts:
            peer_runs = runs[("rlcard", "", players)]
            for name, build in sides:
                ratios = sorted(
                    x[field] / p[field]
                    for x, p in zip(runs[(name, build, players)], peer_runs, strict=True)
                )
                row(
                    f"{name} {build}, {players} players, {what}",
                    f"{statistics.median(ratios):.2f}x ({ratios[0]:.2f}-{ratios[-1]:.2f})",
                )


def report_fastest(
    runs: Runs, sides: list[tuple[str, str]], player_counts: list[int], repeat: int
) -> None:
    """timeit's advice for a noisy machine: the fastest run is the one the neighbours hurt
    least."""
    heading(f"fastest of {repeat} runs, hands/s x rlcard's fastest")
    for players in player_counts:
        best = {k: max(x["hands_per_s"] for x in v) for k, v in runs.items() if k[2] == players}
        peer = best[("rlcard", "", players)]
        for name, build in sides:
            row(f"{name} {build}, {players} players", ratio(best[(name, build, players)], peer))


if __name__ == "__main__":
    main()
