"""What it costs to open a journal holding one long game played at the table.

    .venv/bin/python -m bench.table_journal [--hands 4000] [--repeat 3]

Builds a journal with one game of `--hands` hands (`tests.helpers.long_game`: 4 players, a
typed total per seat, one dealer correction after the 10th hand, a declaration and a pick every
5 hands, target 100,000 so the game never ends), then times opening it as the display does
(`Journal` + `TableSession`: every entry read and folded into the score sheet) beside its
peer, a bare read of the same entries from SQLite (the query and the JSON decoding, no fold).
The score sheet is read through the core's protocol (`engine.sheets`), as the display reads
it: the bench names no ruleset. (Its `--walk`, which timed the Disney sheet's old dealer walk by
patching the sheet's own function, is gone with that: the walk's definition is checked against
the fold in tests/engine/.) bench/table_fold.py prints how the fold and the start grow with the
game.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from bench.harness import heading, interleaved, row, timings
from scoreboard.journal import Journal
from scoreboard.session import TableSession
from tests.helpers.long_game import build


def open_display(path: Path) -> float:
    started = time.perf_counter()
    journal = Journal(path)
    session = TableSession(journal)
    elapsed = time.perf_counter() - started
    assert session.table.game is not None
    session.close()
    journal.close()
    return elapsed


def bare_read(path: Path) -> float:
    started = time.perf_counter()
    journal = Journal(path)
    entries = journal.entries(journal.latest_game())
    elapsed = time.perf_counter() - started
    assert entries
    journal.close()
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "journal.sqlite3"
        entries = build(path, args.hands)
        heading(f"journal: 1 game, {args.hands} hands, {entries} entries, {args.repeat} runs")
        runs = interleaved(
            {
                "bare SQLite read + JSON (the peer)": lambda: bare_read(path),
                "open (read + fold)": lambda: open_display(path),
            },
            args.repeat,
        )
        peer = runs["bare SQLite read + JSON (the peer)"]
        for name, found in runs.items():
            row(name, timings(found, None if found is peer else peer))
    return 0


if __name__ == "__main__":
    sys.exit(main())
