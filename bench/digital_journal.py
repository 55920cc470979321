"""What it costs to keep a digital game safe across a restart: a person's move, answered, with
and without the journal, in the same run.

    .venv/bin/python -m bench.digital_journal [--moves 2000] [--repeat 3]

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
import tempfile
import time
from pathlib import Path

from bench.harness import heading, percentile, ratio, row, timings
from digital.session import DigitalSession
from scoreboard.journal import Journal
from scoreboard.session import TableSession
from tray.backend import COLOURS
from tray.bus import Bus
from tray.events import Pick


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
    link, seq = session.link, 0
    times: list[float] = []
    assert link is not None
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
    if table is not None and journal is not None:
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rows: dict[str, list[float]] = {"in memory (peer)": [], "journaled": []}
    reopened, events = [], 0
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "journal.sqlite3"
            bare, _ = play(args.moves, None)
            kept, events = play(args.moves, path)
            rows["in memory (peer)"] += bare
            rows["journaled"] += kept
            reopened.append(reopen(path))
    heading(
        f"a person's move answered, {args.moves} moves x {args.repeat} runs"
        f" (3 players, greedy bots, pace 0)"
    )
    base, kept = rows["in memory (peer)"], rows["journaled"]
    row("in memory (the peer)", f"{timings(base)}; {len(base) / sum(base):,.0f} moves/s")
    row("journaled", f"{timings(kept, base)}; {len(kept) / sum(kept):,.0f} moves/s")
    row("p99, journaled over in memory", ratio(percentile(kept, 0.99), percentile(base, 0.99)))
    row(f"restart: reopen and replay {events} events", timings(reopened))


if __name__ == "__main__":
    main()
