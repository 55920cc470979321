"""What a page refresh and the event stream of digital play cost as a game grows long: the
seat's view (`DigitalSession.view`, what `/api/digital/view` and each streamed event send) and a
person's move answered (which follows the game's events for the log), in the same run.

    .venv/bin/python -m bench.digital_view_time [--moves 3000] [--repeat 30]

One seeded Disney game (4 players, seat 0 a person playing a random offered move, greedy bots at
pace 0, each Tinker Bell pick published on the bus, target 100000 so the game goes on). At each
checkpoint the person's view and a spectator's are each taken `--repeat` times; the figures are
medians, each beside the first checkpoint's (the peer: what a short game's view costs). Run it
before and after a change to the view's path, on the same machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
from functools import partial

from bench.harness import duration, heading, row, timed, timings, versus
from digital.session import DigitalSession
from tray.backend import COLOURS
from tray.bus import Bus
from tray.events import Pick

CHECKPOINTS = (250, 1000, 2000, 3000, 5000, 10000)


def offered(view: dict) -> list[int]:
    return [m["action"] for m in view["legal"] if not m["out_of_turn"]]


def median_time(fn, repeat: int) -> float:
    return statistics.median(timed(fn) for _ in range(repeat))


def run(moves: int, repeat: int) -> None:
    bus = Bus()
    session = DigitalSession(bus, pace=0)
    keys = session.new_game(
        ["Ann", "Bob", "Cy", "Di"], [0], "greedy", options={"target": 100000}, seed=11
    )
    rng, link, seq = random.Random(5), session.link, 0
    acts: list[float] = []
    assert link is not None
    key = keys[0]
    first: tuple[float, float] | None = None  # the peer: the views of the first checkpoint
    heading(f"the page's view as the game grows (median of {repeat}; x the first checkpoint's)")
    while len(acts) < moves and not link.is_over():
        if link.waiting_for_tinker_bell:
            seq += 1
            bus.publish(Pick(seq=seq, colour=rng.choice(COLOURS), t=float(seq)))
            continue
        view = session.view(0, key)
        acts.append(timed(partial(session.act, 0, key, rng.choice(offered(view)))))
        if len(acts) in CHECKPOINTS or len(acts) == moves:
            seat = median_time(lambda: session.view(0, key), repeat)
            spectator = median_time(lambda: session.view(), repeat)
            first = first or (seat, spectator)
            row(
                f"after {len(acts)} moves ({len(link.game.events)} events)",
                f"seat {duration(seat)} ({versus(seat, first[0], 'at first')}),"
                f" spectator {duration(spectator)} ({versus(spectator, first[1], 'at first')})",
            )
    heading("a person's move answered (bots' replies and the log's notes included)")
    row(f"{len(acts)} moves, {sum(acts):.2f} s in all", timings(acts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    run(args.moves, args.repeat)


if __name__ == "__main__":
    main()
