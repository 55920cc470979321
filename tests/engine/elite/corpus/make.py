"""Write the corpus of UNO Elite game records that guards the engine's move onto the one game
protocol (issue 19): `python -m tests.engine.elite.corpus.make` from the checkout's root.

Each case is a `tinker-tray simulate --ruleset elite` run (quick, draft and dynasty play, two to
six players, every option, random, greedy and search bots) whose records are kept, packed, with
what `tinker-tray replay` printed for each. The corpus was written by main as it was before the
change (14f5ae9); `test_corpus.py` holds every later engine to it. Run this again only to add
cases, never to make a changed engine pass.
"""

from __future__ import annotations

import gzip
import shutil
import sys
from pathlib import Path

from tests.engine.corpus.make import args, replay_output, run_cli

HERE = Path(__file__).parent
RECORDS = HERE / "records"
DYNASTY_DECK = HERE / "dynasty-deck.tsv"
"""The Player Deck every seat brings in the dynasty cases (it keeps every construction rule)."""


def decks(players: int) -> str:
    """The dynasty option: the same Player Deck file for every seat."""
    return "decks=" + ",".join([str(DYNASTY_DECK)] * players)


# name: the arguments of `tinker-tray simulate --ruleset elite` (NAME=VALUE is `--option`)
CASES: dict[str, str] = {
    "quick-p2-random": "--players 2 --games 3 --seed 101 mode=quick",
    "quick-p3-greedy": "--players 3 --games 3 --seed 102 mode=quick --bots greedy",
    "quick-p4-mixed": "--players 4 --games 3 --seed 103 mode=quick --bots greedy,random",
    "quick-p2-search": "--players 2 --games 2 --seed 104 mode=quick --bots search:16,greedy",
    "quick-p6-all-box": "--players 6 --games 2 --seed 105 mode=quick box=all --bots greedy",
    "quick-p2-reverse-skip": (
        "--players 2 --games 3 --seed 106 mode=quick two_player_reverse=skip --bots greedy"
    ),
    "quick-p3-discard-last": (
        "--players 3 --games 3 --seed 107 mode=quick discard_last_card=discard --bots greedy,random"
    ),
    "draft-p2-random": "--players 2 --games 2 --seed 111 mode=draft",
    "draft-p3-greedy": "--players 3 --games 3 --seed 112 mode=draft --bots greedy",
    "draft-p4-mixed": "--players 4 --games 2 --seed 113 mode=draft box=all --bots random,greedy",
    "draft-p2-search": "--players 2 --games 1 --seed 114 mode=draft --bots greedy,search:16",
    "dynasty-p2-greedy": f"--players 2 --games 3 --seed 121 mode=dynasty {decks(2)} --bots greedy",
    "dynasty-p3-random": f"--players 3 --games 2 --seed 122 mode=dynasty {decks(3)}",
    "dynasty-p4-mixed": (
        f"--players 4 --games 2 --seed 123 mode=dynasty {decks(4)} discard_last_card=discard "
        "--bots greedy,random"
    ),
}


def record_files() -> list[str]:
    return sorted(p.relative_to(RECORDS).as_posix() for p in RECORDS.glob("*/*.jsonl.gz"))


def main() -> None:
    shutil.rmtree(RECORDS, ignore_errors=True)
    RECORDS.mkdir(parents=True)
    for name, case in CASES.items():
        folder = RECORDS / name
        command = ["simulate", "--ruleset", "elite", *args(case), "--workers", "1"]
        code, out = run_cli([*command, "--records", str(folder)])
        assert code == 0, (name, out)
        for path in sorted(folder.glob("*.jsonl")):
            path.with_suffix(".replay.json").write_text(replay_output(path) + "\n")
            with gzip.open(f"{path}.gz", "wb", compresslevel=9) as packed:
                packed.write(path.read_bytes())
            path.unlink()
        print(name, len(list(folder.glob("*.jsonl.gz"))), file=sys.stderr)


if __name__ == "__main__":
    main()
