"""Write the corpus of game records and simulation statistics that guards the engine's rewrite
(issue 18): `python -m tests.engine.corpus.make` from the checkout's root.

Each case is a `tinker-tray simulate` run (every ruleset, option set and mode: single hands and
whole games, two to eight players, random, greedy and search bots) whose records are kept with
what `tinker-tray replay` printed for each, and whose `--json` statistics are kept without
records (random bots unrecorded take the simulation's own playout). The corpus was written by
main as it was before the rewrite; `test_corpus.py` holds every later engine to it. Run this
again only to add cases, never to make a changed engine pass.

`python -m tests.engine.corpus.make NAME ...` writes only those cases again: for a bug fixed,
named where the case's records are kept wrong (issue 52: under Seven-O a 7 turned up first
asked for a colour, so `official-house-all` was written again), never for anything else.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).parent
RECORDS = HERE / "records"
STATS = HERE / "stats"

# name: the arguments of `tinker-tray simulate` (`args`: NAME=VALUE is `--option NAME=VALUE`)
CASES: dict[str, str] = {
    "disney-p2-hands": "--players 2 --hands 3 --seed 1",
    "disney-p3-hands": "--players 3 --hands 3 --seed 2",
    "disney-p4-hands": "--players 4 --hands 4 --seed 3",
    "disney-p6-hands": "--players 6 --hands 2 --seed 4",
    "disney-p10-hands": "--players 10 --hands 2 --seed 5",
    "disney-p4-draw-when-playable": "--hands 3 --seed 6 draw_when_playable=true",
    "disney-p4-must-play-drawn": "--hands 3 --seed 7 must_play_drawn=true",
    "disney-p4-villain-skips": "--hands 3 --seed 8 villain_draw4_skips_next=true",
    "disney-p4-villain-may-take": "--hands 3 --seed 9 villain_draw4_may_take=true",
    "disney-p4-renege-playable": "--hands 3 --seed 10 renege_test=playable",
    "disney-p4-all-options": (
        "--hands 3 --seed 11 draw_when_playable=true must_play_drawn=true "
        "villain_draw4_skips_next=true villain_draw4_may_take=true renege_test=playable"
    ),
    "disney-p4-game-standard": "--games 1 --seed 12 target=150",
    "disney-p3-game-lowest": "--players 3 --games 1 --seed 13 target=150 scoring=lowest",
    "disney-p4-game-challenge": "--games 1 --seed 14 target=120 scoring=challenge",
    "disney-p4-game-partners": "--games 1 --seed 15 target=150 partners=true",
    "disney-p4-greedy": "--hands 3 --seed 16 --bots greedy",
    "disney-p4-mixed-bots": "--hands 3 --seed 17 --bots random,greedy",
    "disney-p3-search": "--players 3 --hands 1 --seed 18 --bots search:8,greedy,random",
    "classic-p4-hands": "--ruleset classic --hands 3 --seed 21",
    "classic-p2-hands": "--ruleset classic --players 2 --hands 3 --seed 22",
    "classic-stack-same": "--ruleset classic --hands 3 --seed 23 stacking=same",
    "classic-stack-mixed": "--ruleset classic --hands 3 --seed 24 stacking=mixed",
    "classic-seven-o": "--ruleset classic --hands 3 --seed 25 seven_o=true",
    "classic-jump-in": "--ruleset classic --hands 3 --seed 26 jump_in=true",
    "classic-keep-drawing": "--ruleset classic --hands 3 --seed 27 keep_drawing=true",
    "classic-renege-colour": "--ruleset classic --hands 3 --seed 28 renege_test=colour",
    "classic-renege-playable": "--ruleset classic --hands 3 --seed 29 renege_test=playable",
    "classic-no-draw-when-playable": (
        "--ruleset classic --hands 3 --seed 30 draw_when_playable=false must_play_drawn=true"
    ),
    "classic-house-all": (
        "--ruleset classic --players 5 --hands 3 --seed 31 stacking=mixed seven_o=true "
        "jump_in=true keep_drawing=true"
    ),
    "classic-game-standard": (
        "--ruleset classic --games 1 --seed 32 target=150 --bots greedy,random"
    ),
    "official-hands": "--ruleset official-2018 --hands 3 --seed 41",
    "official-swap": "--ruleset official-2018 --hands 3 --seed 42 wild_customizable=swap_hands",
    "official-shuffle": (
        "--ruleset official-2018 --hands 3 --seed 43 wild_customizable=shuffle_hands"
    ),
    "official-house-all": (
        "--ruleset official-2018 --players 3 --hands 3 --seed 44 stacking=same seven_o=true "
        "jump_in=true keep_drawing=true renege_test=matching"
    ),
    "official-game-lowest": "--ruleset official-2018 --games 1 --seed 45 target=150 scoring=lowest",
    "elvis-p4-hands": "--ruleset elvis --hands 3 --seed 51 --bots greedy,random",
    "elvis-p3-renege-matching": (
        "--ruleset elvis --players 3 --hands 3 --seed 52 renege_test=matching"
    ),
    "elvis-game-partners": "--ruleset elvis --games 1 --seed 53 target=150 partners=true",
    "elvis-game-challenge": (
        "--ruleset elvis --players 3 --games 1 --seed 54 target=100 scoring=challenge"
    ),
    "elvis-p8-rotation": (
        "--ruleset elvis --players 8 --games 1 --seed 55 partners_rotation=true --bots greedy"
    ),
    "elite-quick": "--ruleset elite --players 3 --games 1 --seed 61 mode=quick",
    "elite-draft": "--ruleset elite --players 3 --games 1 --seed 62 mode=draft",
}

# statistics of unrecorded simulations (the playout a simulation uses), for the cases above
# that are not Elite, and a few longer ones
STATS_CASES: dict[str, str] = {
    **{name: case for name, case in CASES.items() if not name.startswith("elite")},
    "disney-p4-200": "--hands 200 --seed 71",
    "disney-p2-100": "--players 2 --hands 100 --seed 72",
    "classic-house-100": (
        "--ruleset classic --hands 100 --seed 73 stacking=mixed seven_o=true jump_in=true "
        "keep_drawing=true"
    ),
    "official-100": "--ruleset official-2018 --hands 100 --seed 74",
    "elvis-100": "--ruleset elvis --hands 100 --seed 75",
}

VOLATILE = ("seconds", "engine")  # how long it took, which build ran it


def run_cli(args: list[str]) -> tuple[int, str]:
    from cli.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(args)
    return code, out.getvalue()


def args(case: str) -> list[str]:
    """The command line of a case."""
    out: list[str] = []
    for word in case.split():
        out += ["--option", word] if "=" in word else [word]
    return out


def simulate_stats(case: str) -> dict[str, object]:
    code, out = run_cli(["simulate", *args(case), "--workers", "1", "--json"])
    assert code == 0, (case, out)
    stats = json.loads(out)
    for key in VOLATILE:
        stats.pop(key, None)
    return stats


def replay_output(path: Path) -> str:
    code, out = run_cli(["replay", str(path)])
    assert code == 0, (path, out)
    return out.strip()


def main(only: list[str]) -> None:
    unknown = set(only) - set(CASES) - set(STATS_CASES)
    if unknown:
        raise SystemExit(f"no such case: {', '.join(sorted(unknown))}")
    if not only:
        shutil.rmtree(RECORDS, ignore_errors=True)
        shutil.rmtree(STATS, ignore_errors=True)
    RECORDS.mkdir(parents=True, exist_ok=True)
    STATS.mkdir(parents=True, exist_ok=True)
    for name, case in CASES.items():
        if only and name not in only:
            continue
        folder = RECORDS / name
        shutil.rmtree(folder, ignore_errors=True)
        code, out = run_cli(["simulate", *args(case), "--workers", "1", "--records", str(folder)])
        assert code == 0, (name, out)
        for path in sorted(folder.glob("*.jsonl")):
            path.with_suffix(".replay.json").write_text(replay_output(path) + "\n")
            with gzip.open(f"{path}.gz", "wb", compresslevel=9) as packed:
                packed.write(path.read_bytes())  # (random bots' games are long: kept packed)
            path.unlink()
        print(name, len(list(folder.glob("*.jsonl.gz"))), file=sys.stderr)
    for name, case in STATS_CASES.items():
        if only and name not in only:
            continue
        stats = simulate_stats(case)
        (STATS / f"{name}.json").write_text(json.dumps(stats, sort_keys=True, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
