"""What it costs to open a journal holding one long game played at the table.

    .venv/bin/python bench/table_journal.py [--hands 4000] [--repeat 3] [--walk]

Builds a journal with one game of `--hands` hands (`tests.helpers.long_game`: 4 players, a
typed total per seat, one dealer correction after the 10th hand, a declaration and a pick every
5 hands, target 100,000 so the game never ends), then times opening it as the display does
(`Journal` + `TableSession`: every entry read and folded into the score sheet) beside its
peer, a bare read of the same entries from SQLite (the query and the JSON decoding, no fold).
`--walk` also times the fold with the dealer found by walking every earlier hand
(`engine.disney.table.dealer_by_walk`, the definition the fold used to evaluate for every hand:
quadratic). bench/table_fold.py prints how the fold and the start grow with the game.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.disney import table as T  # noqa: E402
from scoreboard.journal import Journal  # noqa: E402
from scoreboard.session import TableSession  # noqa: E402
from tests.helpers.long_game import build  # noqa: E402


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
    parser.add_argument(
        "--walk", action="store_true", help="also time the fold with the old dealer walk (slow)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "journal.sqlite3"
        entries = build(path, args.hands)
        print(f"journal: 1 game, {args.hands} hands, {entries} entries")
        sides = [
            ("bare SQLite read + JSON", bare_read, args.repeat),
            ("open (read + fold)", open_display, args.repeat),
        ]
        if args.walk:
            sides.append(("open, dealer walk", walked, 1))
        for name, measure, repeat in sides:
            runs = [measure(path) for _ in range(repeat)]
            print(f"{name:26} median {statistics.median(runs) * 1000:8.1f} ms (of {len(runs)})")
    return 0


def walked(path: Path) -> float:
    """`open_display` with every hand's dealer found by the walk over all earlier hands."""
    with mock.patch.object(T, "_dealer_for", T.dealer_by_walk):
        return open_display(path)


if __name__ == "__main__":
    sys.exit(main())
