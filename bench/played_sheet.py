"""What it costs the display's start to read a digital game's hands from its record.

    .venv/bin/python -m bench.played_sheet [--against REV] [--target 500] [--games 3]
                                           [--repeat 5]

A digital game with points is on the scoreboard's sheet from its record: at every start the
journal replays the record and scores its finished hands (`Reads.load`), and digital play
replays it again to carry the game on. Before (REV, default 240443a), each finished hand was
also entered on the sheet: the start folded those entries, and only digital play replayed the
record. This plays `--games` Disney games to `--target` by greedy bots (pace 0, through
`DigitalSession` and a real journal, as on /play), then times the display's start (`Journal`,
`TableSession`, `DigitalSession` resuming the game; imports not counted) in a process of its
own: today's code on the journal as today keeps it, beside REV's code (its files by `git
archive` into bench/.against/, pure Python) on the same journal with each hand entered too, as
REV kept it; and, in this process, the part REV's start did not do (the journal's replay of the
record). Interleaved, `--repeat` starts a side.
"""

from __future__ import annotations

import argparse
import io
import random
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from bench.harness import heading, interleaved, row, timings
from engine.protocol import score_sheet
from scoreboard.journal import Journal
from tests.helpers.digital import Picks, Table

ROOT = Path(__file__).resolve().parents[1]
AGAINST = ROOT / "bench" / ".against"
START = """
import sys, time
from cli.inputs import shipped_inputs
from digital.session import DigitalSession
from engine.protocol import score_sheet
from scoreboard.journal import Journal
from scoreboard.session import TableSession
from tray.bus import Bus
started = time.perf_counter()
bus, journal = Bus(), Journal(sys.argv[1])
table = TableSession(journal, bus)
digital = DigitalSession(bus, table=table, pace=0, inputs=shipped_inputs())
elapsed = time.perf_counter() - started
assert table.table.game is not None and table.table.game.hands and digital.link is not None
print(elapsed)
"""
"""The display's start, as `tests.helpers.digital.Table` makes it, timed in the child."""


def played(path: Path, target: int, seed: int) -> tuple[int, int]:
    """A journal with one Disney digital game, played to the end by bots: (events, hands)."""
    table = Table(path)
    rng = random.Random(seed)
    table.digital.new_game(
        ["Ann", "Bob", "Cy"], [], "greedy", options={"target": target}, seed=seed
    )
    link, picks = table.digital.link, Picks(table.bus, rng)
    assert link is not None
    deadline = time.monotonic() + 600
    while not link.is_over() and time.monotonic() < deadline:
        if link.waiting_for_tinker_bell:
            picks()
        time.sleep(0.001)
    assert link.is_over(), "the bots did not finish the game"
    sheet = score_sheet(link.game)
    assert sheet is not None
    sizes = len(link.game.events), len(sheet.finished_hands())
    table.stop()
    return sizes


def entered_too(path: Path, into: Path) -> None:
    """`path` copied to `into` with each finished hand entered on the sheet as well, as the
    releases before this one kept it."""
    shutil.copyfile(path, into)
    journal = Journal(into)
    game = journal.latest_game()
    assert game is not None
    for h in journal.played_hands(game):
        held = [None if s == h["winner"] else p for s, p in enumerate(h["held"])]
        journal.append(game, {"kind": "hand", "winner": h["winner"], "held": held})
    journal.close()


def replay_alone(path: Path) -> float:
    """The part of today's start that REV's did not do: the journal's replay of the record."""
    journal = Journal(path)
    game = journal.latest_game()
    assert game is not None
    started = time.perf_counter()
    hands = journal.played_hands(game)
    elapsed = time.perf_counter() - started
    assert hands
    journal.close()
    return elapsed


def tree(rev: str) -> Path:
    """REV's files (`git archive`), in bench/.against/REV-files: made once."""
    sha = subprocess.run(
        ["git", "rev-parse", "--verify", f"{rev}^{{commit}}"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    where = AGAINST / f"{sha[:12]}-files"
    if not (where / "pyproject.toml").exists():
        archive = subprocess.run(["git", "archive", sha], cwd=ROOT, capture_output=True, check=True)
        where.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(where, filter="data")
    return where


def start(code: Path, journal: Path) -> float:
    """The display's start on `journal`, by the code in `code`, in a process of its own."""
    done = subprocess.run(
        [sys.executable, "-c", START, str(journal)],
        cwd=code, capture_output=True, text=True, timeout=300,
        env={"PYTHONPATH": str(code), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"the start at {code} failed: {done.stderr.strip()[-400:]}")
    return float(done.stdout.split()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=int, default=500)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--against", default="240443a")
    args = parser.parse_args()
    before = tree(args.against)
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(args.games):
            path, old = Path(tmp) / f"record-{seed}.sqlite3", Path(tmp) / f"entered-{seed}.sqlite3"
            events, hands = played(path, args.target, seed)
            entered_too(path, old)
            heading(f"game {seed}: to {args.target}, {events} events, {hands} hands")
            peer = f"start at {args.against}, hands entered too (the peer)"
            runs = interleaved(
                {
                    peer: lambda: start(before, old),  # noqa: B023 (run before the next game)
                    "start now, hands from the record": lambda: start(ROOT, path),  # noqa: B023
                    "of which the record's replay": lambda: replay_alone(path),  # noqa: B023
                },
                args.repeat,
            )
            for name, found in runs.items():
                row(name, timings(found, None if name == peer else runs[peer]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
