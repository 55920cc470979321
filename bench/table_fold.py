"""How a table game's fold and the display's start grow with the game's length: linear or not?

    .venv/bin/python bench/table_fold.py [--sizes 1000,10000,100000] [--repeat 3]

For each size, a journal holding one game of that many hands (`tests.helpers.long_game`: 4
players, a declaration and a pick every 5 hands) and, timed on it (the median of `--repeat`):

- fold: `engine.table.fold` of the game's entries, already read (the engine alone);
- start: the display app served by `ServerThread` until it answers, as `tinker-tray display`
  starts it (the journal read, the fold in the lifespan, uvicorn);
- edit: an edit of hand 1, which re-settles every later hand (`TableSession.submit`).

Each is printed beside its linear reference, the smallest size's time scaled by the size
(`x linear`: 1.0 is linear; a tuple rebuilt per hand made 20k hands 10x and 100k hands never
start), and as time per hand. Wall-clock times on a shared machine vary; CPU seconds of this
process are printed beside the fold's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import table as T  # noqa: E402
from scoreboard.journal import Journal  # noqa: E402
from scoreboard.server import ServerThread, bind  # noqa: E402
from scoreboard.session import TableSession  # noqa: E402
from scoreboard.web import create_app  # noqa: E402
from tests.helpers.long_game import build  # noqa: E402
from tray.bus import Bus  # noqa: E402

EDIT = {"kind": "edit", "hand": 0, "winner": 1, "held": [2, None, 1, 0]}


def fold(path: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of folding the game's entries, read beforehand."""
    journal = Journal(path)
    entries = [x.entry for x in journal.entries(journal.latest_game())]
    journal.close()
    wall, cpu = time.perf_counter(), time.process_time()
    table = T.fold(entries)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert table.game is not None and not table.game.over
    return wall, cpu


def start(path: Path) -> float:
    """Seconds until the display app serves, the game folded in its lifespan."""
    journal = Journal(path)
    started = time.perf_counter()
    server = ServerThread(create_app(journal, Bus(), "t"), bind()).start()
    elapsed = time.perf_counter() - started
    assert server.app.state.session.table.game is not None
    server.stop()
    journal.close()
    return elapsed


def edit(path: Path) -> float:
    """Seconds to edit hand 1 through the session (every later hand re-settled); undone after."""
    journal = Journal(path)
    session = TableSession(journal)
    started = time.perf_counter()
    session.submit(EDIT)
    elapsed = time.perf_counter() - started
    session.submit({"kind": "undo"})
    session.close()
    journal.close()
    return elapsed


def median(measure: Callable[[Path], float], path: Path, repeat: int) -> float:
    return statistics.median(measure(path) for _ in range(repeat))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    rows: list[tuple[int, float, float, float, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for hands in sizes:
            path = Path(tmp) / f"journal-{hands}.sqlite3"
            build(path, hands)
            folds = [fold(path) for _ in range(args.repeat)]
            wall = statistics.median(w for w, _ in folds)
            cpu = statistics.median(c for _, c in folds)
            rows.append(
                (
                    hands,
                    wall,
                    cpu,
                    median(start, path, args.repeat),
                    median(edit, path, args.repeat),
                )
            )
    print(
        f"one table game, 4 players; median of {args.repeat}; x linear: time / (time at "
        f"{sizes[0]:,} hands x size / {sizes[0]:,})"
    )
    print(
        f"  {'hands':>7}  {'fold (CPU)':>18} {'x linear':>8} {'per hand':>9}  "
        f"{'start':>8} {'x linear':>8}  {'edit hand 1':>11} {'x linear':>8}"
    )
    base = rows[0]
    for hands, wall, cpu, started, edited in rows:
        scale = hands / base[0]
        print(
            f"  {hands:>7,}  {wall:>7.3f} s ({cpu:6.3f} s) {wall / (base[1] * scale):>8.2f} "
            f"{wall / hands * 1e6:>6.1f} µs  {started:>6.2f} s {started / (base[3] * scale):>8.2f}"
            f"  {edited:>9.3f} s {edited / (base[4] * scale):>8.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
