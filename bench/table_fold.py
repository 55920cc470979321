"""How a table game's fold and the display's start grow with the game's length: linear or not?

    .venv/bin/python -m bench.table_fold [--sizes 1000,10000,100000] [--repeat 3]

For each size, a journal holding one game of that many hands (`tests.helpers.long_game`: 4
players, a declaration and a pick every 5 hands) and, timed on it (the median of `--repeat`):

- fold: `engine.sheets.fold` of the game's entries, already read (the engine alone);
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

from bench.harness import heading, ratio, row
from engine import sheets
from scoreboard.journal import Journal
from scoreboard.server import ServerThread, bind
from scoreboard.session import TableSession
from scoreboard.web import create_app
from tests.helpers.long_game import build
from tray.bus import Bus

EDIT = {"kind": "edit", "hand": 0, "winner": 1, "held": [2, None, 1, 0]}


def fold(path: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of folding the game's entries, read beforehand."""
    journal = Journal(path)
    entries = [x.entry for x in journal.entries(journal.latest_game())]
    journal.close()
    wall, cpu = time.perf_counter(), time.process_time()
    table = sheets.fold(entries, sheets.home())
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert table.game is not None and not table.game.over
    return wall, cpu


def start(path: Path) -> tuple[float, float]:
    """(wall, CPU) seconds until the display app serves, the game folded in its lifespan."""
    journal = Journal(path)
    wall, cpu = time.perf_counter(), time.process_time()
    server = ServerThread(create_app(journal, Bus(), "t"), bind()).start()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert server.app.state.session.table.game is not None
    server.stop()
    journal.close()
    return wall, cpu


def edit(path: Path) -> tuple[float, float]:
    """(wall, CPU) seconds to edit hand 1 through the session (every later hand re-settled);
    undone after."""
    journal = Journal(path)
    session = TableSession(journal)
    wall, cpu = time.perf_counter(), time.process_time()
    session.submit(EDIT)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    session.submit({"kind": "undo"})
    session.close()
    journal.close()
    return wall, cpu


MEASURES = {"fold": fold, "start": start, "edit hand 1": edit}


def medians(measure: Callable[[Path], tuple[float, float]], path: Path, repeat: int) -> list[float]:
    """[wall, CPU]: the median of each over `repeat` runs."""
    runs = [measure(path) for _ in range(repeat)]
    return [statistics.median(run[k] for run in runs) for k in (0, 1)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    found: dict[int, dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for hands in sizes:
            path = Path(tmp) / f"journal-{hands}.sqlite3"
            build(path, hands)
            found[hands] = {name: medians(m, path, args.repeat) for name, m in MEASURES.items()}
    first = sizes[0]
    heading(
        f"one table game, 4 players; median of {args.repeat}; wall (CPU of this process) seconds;"
        f" the peer: {first:,} hands, x linear = the CPU time / (its CPU time x hands / {first:,})"
    )
    for name in MEASURES:
        base = found[first][name]
        for hands in sizes:
            wall, cpu = found[hands][name]
            linear = ratio(cpu, base[1] * hands / first)
            row(
                f"{name}, {hands:,} hands",
                f"{wall:.3f} s ({cpu:.3f} s CPU), {linear} linear,"
                f" {cpu / hands * 1e6:.1f} µs a hand",
            )
    heading("(x linear and µs a hand from the CPU seconds, which the machine's load disturbs less)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
