"""How long the table takes to start on a card that takes no write (issue 31, item 1).

    sudo .venv/bin/python -m bench.start_unwritable [--runs 5]

From the start of `tinker-tray display` (a real process) to the scoreboard's first HTTP 200,
on one journal (a table game and a Disney game waiting for Tinker Bell) on a real tmpfs of
4 MiB: writable (the peer), full to the last byte, and remounted read-only. Median and slowest
of `--runs` starts each; the ratio is against the writable card's median. Needs root (mount).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from bench.harness import heading, row, timings
from tests.helpers.card import fill, mounted, prepare, remount
from tests.helpers.service import Service


def starts(journal: Path, runs: int) -> list[float]:
    """Seconds from process start to the first 200, `runs` times (stopped after each)."""
    times = []
    for _ in range(runs):
        service = Service(journal)
        try:
            times.append(service.wait_ready())
            assert service.call("/api/games")[0] == 200
        finally:
            service.stop()
    return times


def measure(name: str, runs: int, spoil: Callable[[Path], None]) -> list[float]:
    with mounted(4) as card:
        journal = card / "journal.sqlite3"
        prepare(journal, "closed")
        spoil(card)
        return starts(journal, runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    cards: dict[str, Callable[[Path], None]] = {
        "writable card (the peer)": lambda card: None,
        "full card": lambda card: fill(card / "filler"),
        "read-only card": lambda card: remount(card, "ro"),
    }
    heading(f"start to the scoreboard's first HTTP 200, {args.runs} starts each")
    peer = None
    for name, spoil in cards.items():
        times = measure(name, args.runs, spoil)
        row(name, timings(times, peer))
        peer = peer or times
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
