"""What one open club page receives while a flood goes through the club: the bytes and events
sent to it with the club's pacing (at most `club.pace.UPDATES_PER_S` updates a second, each the
latest board) beside the same flood with a page woken for every change (the club before it),
and beside the bytes of the messages themselves.

    .venv/bin/python -m bench.club_flood [--messages 30000] [--tables 32]

Debian's mosquitto on a free loopback port; the club as `tinker-tray club` runs it
(`ClubService`), its journal in /dev/shm unless --journal-dir says otherwise (the page's bytes are
what is measured, not the SD card's speed); one page reading `/api/events` on a plain socket
(tests/helpers/sse_page.py). The flood: `--messages` scores, each a change, spread over `--tables`
tables, published as fast as paho sends them (QoS 0) and as the club takes them (never more than
`LAG` ahead), the last a table's pick (QoS 1) that marks the end. A page is done when it shows
the board's final version.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from bench.harness import heading, ratio, row
from club.link import Broker
from club.pace import UPDATES_PER_S
from club.service import ClubService
from tests.helpers.broker import Listener, Mosquitto, wait_until
from tests.helpers.sse_page import Page

LAG = 500
"""Messages the flood may run ahead of the club: past about a thousand, mosquitto drops what a
slow subscriber has not taken, and the two runs would not see the same flood."""


def scores(table: int, n: int) -> bytes:
    players = [
        {"name": name, "total": n + i, "out": False, "leads": i == 0}
        for i, name in enumerate(("Ann", "Bo", "Cy", "Di"))
    ]
    return json.dumps(
        {
            "game": 1,
            "players": players,
            "totals": {p["name"]: p["total"] for p in players},
            "leader": "Ann",
            "hands": n,
            "target": 500,
            "scoring": "standard",
            "over": False,
        }
    ).encode()


def flood(broker: Mosquitto, journal: Path, args: argparse.Namespace, paced: bool) -> dict:
    """One flood through a fresh club; what its page received."""
    club = ClubService(
        Broker.from_url(broker.url),
        journal,
        updates_per_s=UPDATES_PER_S if paced else None,
    ).start(port=0)
    rogue = Listener(broker.port, "nothing/at/all")
    page = Page(club.port)
    try:
        wait_until(lambda: page.events == 1, what="the page's first board")
        start_bytes, start_events = page.bytes, page.events
        sent = 0
        started = time.monotonic()
        for n in range(args.messages - 1):
            payload = scores(n % args.tables, n)
            sent += len(payload)
            rogue.client.publish(f"tinker-tray/t{n % args.tables}/scores", payload, qos=0)
            if n % LAG == LAG - 1:  # mosquitto drops what a subscriber is too slow for
                wait_until(lambda n=n: club.board.version >= n - LAG, what="the club", timeout=60)
        end = json.dumps({"seq": 1, "colour": "red", "t": 1.0, "says": "the end"}).encode()
        sent += len(end)
        rogue.client.publish("tinker-tray/end/pick", end, qos=1).wait_for_publish(60)
        wait_until(lambda: club.board.table("end"), what="the flood read", timeout=600)
        wait_until(lambda: page.version() == club.board.version, what="the page", timeout=60)
        took = time.monotonic() - started
        return {
            "sent": sent,
            "taken": club.board.version,
            "bytes": page.bytes - start_bytes,
            "events": page.events - start_events,
            "seconds": took,
        }
    finally:
        page.close()
        rogue.close()
        club.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=30_000)
    parser.add_argument("--tables", type=int, default=32)
    parser.add_argument("--journal-dir", type=Path, default=Path("/dev/shm"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        broker = Mosquitto(Path(folder) / "mosquitto").start()
        try:
            results = {}
            for paced in (True, False):
                with tempfile.TemporaryDirectory(dir=args.journal_dir) as journals:
                    results[paced] = flood(broker, Path(journals) / "club.sqlite3", args, paced)
        finally:
            broker.stop()
    heading(f"a flood of {args.messages:,} messages over {args.tables} tables, one club page open")
    for paced, label in ((True, f"paced ({UPDATES_PER_S} updates/s)"), (False, "every change")):
        r = results[paced]
        row(
            label,
            f"page {r['bytes']:,} B in {r['events']:,} events; {r['taken']:,} taken"
            f" in {r['seconds']:.1f} s",
        )
    sent = results[True]["sent"]
    paced_bytes, every = results[True]["bytes"], results[False]["bytes"]
    row("the messages themselves (the peer)", f"{sent:,} B")
    row("paced page / every-change page", f"1/{every / max(paced_bytes, 1):,.0f} of the bytes")
    row("paced page / message bytes", ratio(paced_bytes, sent))


if __name__ == "__main__":
    main()
