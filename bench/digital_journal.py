"""What it costs to keep a digital game safe across a restart: a person's move, answered, with
and without the journal, in the same run.

    .venv/bin/python bench/digital_journal.py [--moves 2000] [--repeat 3]

Each side plays the same seeded game (3 players, seat 0 a person playing a random offered move,
greedy bots at pace 0, each Tinker Bell pick published on the bus) and times
`DigitalSession.act` from the call to its return, which is when the page's request is answered.
With the journal, that includes committing the move and every bot move it set off (WAL,
`synchronous=FULL`: an fsync per commit). Then the journaled game is reopened, as a restarted
service would, and the replay timed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from digital.session import DigitalSession  # noqa: E402
from scoreboard.journal import Journal  # noqa: E402
from scoreboard.session import TableSession  # noqa: E402
from tray.backend import COLOURS  # noqa: E402
from tray.bus import Bus  # noqa: E402
from tray.events import Pick  # noqa: E402


def play(moves: int, journal_path: Path | None) -> tuple[list[float], int]:
    """Seconds per person's move, and the number of game events at the end."""
    bus = Bus()
    journal = table = None
    if journal_path is not None:
        journal = Journal(journal_path)
        table = TableSession(journal, bus)
    session = DigitalSession(bus, table=table, pace=0)
    keys = session.new_game(
        ["Ann", "Bob", "Cy"], [0], "greedy", options={"target": 100000}, seed=11
    )
    rng = random.Random(5)
    link, seq, times = session.link, 0, []
    while len(times) < moves:
        if link.waiting_for_tinker_bell:
            seq += 1
            bus.publish(Pick(seq=seq, colour=rng.choice(COLOURS), t=float(seq)))
            continue
        view = session.view(0, keys[0])
        offered = [m["action"] for m in view["legal"] if not m["out_of_turn"]]
        action = rng.choice(offered)
        start = time.perf_counter()
        session.act(0, keys[0], action)
        times.append(time.perf_counter() - start)
    events = len(link.game.events)
    session.close()
    if table is not None:
        table.close()
        journal.close()
    return times, events


def reopen(path: Path) -> float:
    start = time.perf_counter()
    journal = Journal(path)
    table = TableSession(journal, Bus())
    session = DigitalSession(table.bus, table=table, pace=0)
    seconds = time.perf_counter() - start
    assert session.link is not None and session.journal_error is None
    session.close()
    table.close()
    journal.close()
    return seconds


def ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rows = {"in memory (peer)": [], "journaled": []}
    reopened, events = [], 0
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "journal.sqlite3"
            bare, _ = play(args.moves, None)
            kept, events = play(args.moves, path)
            rows["in memory (peer)"] += bare
            rows["journaled"] += kept
            reopened.append(reopen(path))
    print(
        f"a person's move answered, {args.moves} moves x {args.repeat} runs "
        f"(3 players, greedy bots, pace 0)"
    )
    print(f"{'':>18} {'median ms':>10} {'p99 ms':>8} {'moves/s':>9}")
    for name, times in rows.items():
        print(
            f"{name:>18} {ms(times, 0.5):>10.3f} {ms(times, 0.99):>8.3f} "
            f"{len(times) / sum(times):>9,.0f}"
        )
    base, kept = rows["in memory (peer)"], rows["journaled"]
    print(
        f"journaled / in memory: median {ms(kept, 0.5) / ms(base, 0.5):.2f}x, "
        f"p99 {ms(kept, 0.99) / ms(base, 0.99):.2f}x"
    )
    print(
        f"restart: reopen and replay a game of {events} events in "
        f"{1000 * statistics.median(reopened):.1f} ms (median of {len(reopened)})"
    )


if __name__ == "__main__":
    main()
