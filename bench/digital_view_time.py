"""What a page refresh and the event stream of digital play cost as a game grows long: the
seat's view (`DigitalSession.view`, what `/api/digital/view` and each streamed event send) and a
person's move answered (which follows the game's events for the log), in the same run.

    .venv/bin/python bench/digital_view_time.py [--moves 3000] [--repeat 30]

One seeded Disney game (4 players, seat 0 a person playing a random offered move, greedy bots at
pace 0, each Tinker Bell pick published on the bus, target 100000 so the game goes on). At each
checkpoint the person's view and a spectator's are each taken `--repeat` times; the figures are
medians. Run it before and after a change to the view's path, on the same machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from digital.session import DigitalSession  # noqa: E402
from tray.backend import COLOURS  # noqa: E402
from tray.bus import Bus  # noqa: E402
from tray.events import Pick  # noqa: E402

CHECKPOINTS = (250, 1000, 2000, 3000, 5000, 10000)


def offered(view: dict) -> list[int]:
    return [m["action"] for m in view["legal"] if not m["out_of_turn"]]


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def run(moves: int, repeat: int) -> None:
    bus = Bus()
    session = DigitalSession(bus, pace=0)
    keys = session.new_game(
        ["Ann", "Bob", "Cy", "Di"], [0], "greedy", options={"target": 100000}, seed=11
    )
    rng, link, seq, acts = random.Random(5), session.link, 0, []
    key = keys[0]
    while len(acts) < moves and not link.is_over():
        if link.waiting_for_tinker_bell:
            seq += 1
            bus.publish(Pick(seq=seq, colour=rng.choice(COLOURS), t=float(seq)))
            continue
        view = session.view(0, key)
        t0 = time.perf_counter()
        session.act(0, key, rng.choice(offered(view)))
        acts.append(time.perf_counter() - t0)
        if len(acts) in CHECKPOINTS or len(acts) == moves:
            seat = median_ms(lambda: session.view(0, key), repeat)
            spectator = median_ms(lambda: session.view(), repeat)
            print(
                f"after {len(acts):5d} moves ({len(link.game.events):6d} events): "
                f"page view, seat {seat:6.3f} ms; spectator {spectator:6.3f} ms"
            )
    acts.sort()
    print(
        f"a person's move answered (bots' replies and the log's notes included), "
        f"{len(acts)} moves: median {statistics.median(acts) * 1000:.3f} ms, "
        f"p95 {acts[int(len(acts) * 0.95)] * 1000:.3f} ms, total {sum(acts):.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    run(args.moves, args.repeat)


if __name__ == "__main__":
    main()
