"""How fast a settled pick reaches the broker's subscribers, and 20 tables' picks the club page.

    .venv/bin/python -m bench.mqtt_latency [--picks 200] [--tables 20] [--seconds 20]

Both parts run Debian's mosquitto on a free loopback port (as the tests do), with QoS 1.

1. One table: from the scoreboard's `PickRevealed` (the lights have settled: the moment the pick
   may be told) to a plain paho subscriber receiving it on `tinker-tray/<table>/pick`, p50/p99
   over N picks, beside a bare paho client's publish -> receive on the same broker and
   subscriber (the peer: what MQTT itself costs here).
2. The club: 20 simulated tables (each a scoreboard session, journal, publisher and link, as
   `run` wires them) make picks at random moments; from each pick's `PickRevealed` to the club
   page's SSE stream (`tinker-tray club`'s ClubService, an httpx client reading /api/events)
   carrying it, p50/p99.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import threading
import time
from pathlib import Path

import httpx
import paho.mqtt.client as mqtt

from bench.harness import heading, row, timings
from club import topics
from club.link import Broker, Link
from club.service import ClubService
from club.table import start_table
from scoreboard.journal import Journal
from scoreboard.session import PickRevealed, TableSession
from tests.helpers.broker import Mosquitto
from tests.helpers.picks import ShowingTray
from tray.backend import COLOURS
from tray.bus import Bus
from tray.config import MqttSettings, ShowSettings
from tray.events import Pick

QUICK_SHOW = ShowSettings(
    steps=4, first_step_s=0.01, last_step_s=0.02, blinks=1, blink_s=0.02, lit_s=0.05
)


class Table:
    """A table as `run` wires it, minus the pins: bus, journal, session, publisher."""

    def __init__(self, broker: Mosquitto, name: str, folder: Path):
        self.name = name
        self.bus = Bus()
        self.revealed: dict[int, float] = {}
        self.bus.subscribe(self._stamp, PickRevealed)  # first: stamped before the publisher runs
        self.journal = Journal(folder / f"{name}.sqlite3")
        self.session = TableSession(self.journal, self.bus, show=QUICK_SHOW)
        settings = MqttSettings(url=broker.url, table=name)
        link = Link(
            Broker.from_url(broker.url),
            f"bench-{name}",
            will=(topics.topic(name, topics.AVAILABILITY), topics.OFFLINE),
        ).start()
        self.linked = start_table(settings, link, self.session, self.bus)
        self.seq = 0
        self.tray = ShowingTray(self.bus, QUICK_SHOW)  # stamps picks, announces their landing

    def _stamp(self, revealed: PickRevealed) -> None:
        self.revealed.setdefault(revealed.seq, time.perf_counter())

    def pick(self) -> int:
        self.seq += 1
        self.tray.publish(Pick(seq=self.seq, colour=random.choice(COLOURS), t=time.time()))
        return self.seq

    def wait_revealed(self, seq: int, timeout: float = 5) -> None:
        deadline = time.monotonic() + timeout
        while seq not in self.revealed and time.monotonic() < deadline:
            time.sleep(0.002)

    def close(self) -> None:
        self.tray.close()
        self.linked.close()
        self.session.close()
        self.journal.close()


class Subscriber:
    def __init__(self, port: int, pattern: str):
        self.received: dict[str, float] = {}
        self.cond = threading.Condition()
        ready = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe(pattern, qos=1)
        self.client.on_subscribe = lambda *a: ready.set()
        self.client.on_message = self.on_message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        ready.wait(10)

    def on_message(self, client, userdata, message) -> None:
        now = time.perf_counter()
        key = message.payload.decode()
        if message.topic.endswith("/pick"):
            key = str(json.loads(message.payload)["seq"])
        with self.cond:
            self.received.setdefault(f"{message.topic}:{key}", now)
            self.cond.notify_all()

    def wait(self, key: str, timeout: float = 5) -> float | None:
        with self.cond:
            self.cond.wait_for(lambda: key in self.received, timeout)
            return self.received.get(key)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def one_table(broker: Mosquitto, folder: Path, picks: int) -> None:
    """Alternates a table's pick and a bare publish, so both see the same machine load."""
    sub = Subscriber(broker.port, "#")
    table = Table(broker, "bench", folder)
    bare = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    bare.connect("127.0.0.1", broker.port)
    bare.loop_start()
    ours, peer = [], []
    for n in range(picks):
        seq = table.pick()
        table.wait_revealed(seq)
        got = sub.wait(f"tinker-tray/bench/pick:{seq}")
        if got is not None and seq in table.revealed:
            ours.append(got - table.revealed[seq])
        time.sleep(0.02)  # let both sides' acknowledgements settle before the other measures
        payload = f"bare-{n}"
        start = time.perf_counter()
        bare.publish("bare/pick-like", payload, qos=1)
        got = sub.wait(f"bare/pick-like:{payload}")
        if got is not None:
            peer.append(got - start)
        time.sleep(0.02)
    table.close()
    bare.disconnect()
    bare.loop_stop()
    sub.close()
    heading("1. pick settled -> subscriber on the broker")
    row("bare paho: publish -> subscriber (the peer)", timings(peer))
    row("tinker-tray: PickRevealed -> subscriber", timings(ours, peer))


def club(broker: Mosquitto, folder: Path, tables: int, seconds: float) -> None:
    service = ClubService(Broker.from_url(broker.url), folder / "club.sqlite3").start(port=0)
    seen: dict[tuple[str, int], float] = {}
    stop = threading.Event()

    def read_page() -> None:
        url = f"http://127.0.0.1:{service.port}/api/events"
        with httpx.stream("GET", url, timeout=None) as res:
            for line in res.iter_lines():
                if stop.is_set():
                    return
                if not line.startswith("data:"):
                    continue
                now = time.perf_counter()
                for table in json.loads(line[5:])["tables"]:
                    for p in table["picks"]:
                        seen.setdefault((table["name"], p["seq"]), now)

    reader = threading.Thread(target=read_page, daemon=True)
    reader.start()
    made = [Table(broker, f"t{n:02d}", folder) for n in range(tables)]
    deadline = time.monotonic() + seconds

    def play(table: Table) -> None:
        rng = random.Random(table.name)
        while time.monotonic() < deadline:
            time.sleep(rng.uniform(0.3, 1.5))  # a busy evening: a pick every second or so
            table.wait_revealed(table.pick())

    players = [threading.Thread(target=play, args=(t,)) for t in made]
    for p in players:
        p.start()
    for p in players:
        p.join()
    time.sleep(1)  # the last picks' way to the page
    stop.set()
    samples = [
        seen[(t.name, seq)] - at
        for t in made
        for seq, at in t.revealed.items()
        if (t.name, seq) in seen
    ]
    missing = sum(len(t.revealed) for t in made) - len(samples)
    for t in made:
        t.close()
    service.close()
    heading(f"2. {tables} tables -> one club page (SSE), {seconds:g} s of play")
    row("PickRevealed -> club page", timings(samples) if samples else "none arrived")
    row("not arrived", str(missing))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--picks", type=int, default=200)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        broker = Mosquitto(Path(tmp) / "mosquitto").start()
        try:
            one_table(broker, Path(tmp), args.picks)
            club(broker, Path(tmp), args.tables, args.seconds)
        finally:
            broker.stop()


if __name__ == "__main__":
    main()
