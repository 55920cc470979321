"""How fast a Tinker Bell pick reaches the people at the table, and what the display costs.

    .venv/bin/python -m bench.display_latency [--picks 1000] [--dom-picks 1000] [--clients 100]

1. SSE: from `bus.publish(Pick)` (which journals the pick with an fsync, as in service) to its
   event arriving at an open SSE client, median and p99 over N picks, beside a bare Starlette +
   sse-starlette echo (publish -> queue -> SSE) in the same run, on the same loopback.
2. DOM: the same, to the page's DOM in headless chromium (the scoreboard vs a bare page that
   writes the event into a div), timed with a MutationObserver in the page.
3. RSS: each server in its own process with 10 SSE clients (pages) open.
4. Fan-out (issue 11): 100 SSE clients (asyncio, in a process of their own) on a 1,000-hand
   game, a pick every 50 ms: from publish until the last client has the event, beside the
   bare peer with as many clients. Each event is the bounded view (the last hands and the
   chart), not the whole history.
Target (issues 4, 11): p99 under 50 ms on loopback.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx
from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

from bench.harness import ROOT, child, heading, percentile, ratio, resident_mib, row, timings
from cli.app import create_app
from scoreboard.guard import Limits
from scoreboard.journal import Journal
from scoreboard.server import ServerThread, bind
from scoreboard.session import TableSession
from tests.helpers.browser import ARGS, CHROMIUM
from tray.bus import Bus
from tray.events import Pick

BARE_PAGE = """<!doctype html><html><body><div id="swatch">-</div><script>
const s = new EventSource("/events");
s.onmessage = (e) => { const d = document.getElementById("swatch");
  d.dataset.seq = e.lastEventId; d.textContent = e.data; };
</script></body></html>"""


# --- the two servers ----------------------------------------------------------------------


def bare_app() -> tuple[Starlette, Callable[[int], None]]:
    """The peer: a bare Starlette SSE echo. `publish(i)` sends event i to every client."""
    queues: set[tuple[asyncio.AbstractEventLoop, asyncio.Queue[int]]] = set()

    async def events(request):
        async def stream():
            entry = (asyncio.get_running_loop(), asyncio.Queue())
            queues.add(entry)
            try:
                while True:
                    i = await entry[1].get()
                    yield {"id": str(i), "data": f"pick {i} red"}
            finally:
                queues.discard(entry)

        return EventSourceResponse(stream())

    async def page(request):
        return HTMLResponse(BARE_PAGE)

    def publish(i: int) -> None:
        for loop, q in list(queues):
            loop.call_soon_threadsafe(q.put_nowait, i)

    return Starlette(routes=[Route("/events", events), Route("/", page)]), publish


def ours_app(journal_path: Path, hands: int = 10) -> tuple[Starlette, Callable[[int], int]]:
    """Ours: the display app on a game `hands` hands long (the view carries a real history);
    `publish(i)` publishes a Pick and returns the event id to expect."""
    journal, bus = Journal(journal_path), Bus()
    if journal.latest_game() is None:
        setup = TableSession(journal, bus)
        setup.new_game(["Ann", "Bea", "Cy", "Dot"], options={"target": 100_000})
        for k in range(hands):
            setup.submit(
                {
                    "kind": "hand",
                    "winner": k % 4,
                    "held": [None if s == k % 4 else ["RBGY"[s] + "7"] for s in range(4)],
                }
            )
        setup.close()
    app = create_app(journal, bus, journal.token())

    def publish(i: int) -> int:
        bus.publish(Pick(seq=i, colour="red", t=time.time()))
        return app.state.session.version  # the server runs: its lifespan made the session

    return app, publish


# --- 1. SSE client latency ----------------------------------------------------------------


class SSEClient(threading.Thread):
    """Reads an event stream and notes when each event id arrives (perf_counter)."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.url = url
        self.arrived: dict[str, float] = {}
        self.cond = threading.Condition()
        self.ready = threading.Event()

    def run(self) -> None:
        try:
            with httpx.stream("GET", self.url, timeout=None) as res:
                self.ready.set()
                for line in res.iter_lines():
                    if line.startswith("id:"):
                        now = time.perf_counter()
                        with self.cond:
                            self.arrived[line[3:].strip()] = now
                            self.cond.notify_all()
        except httpx.HTTPError:
            pass  # the server went away at the end of the run

    def wait_for(self, event_id: str, timeout: float = 5) -> float:
        with self.cond:
            if not self.cond.wait_for(lambda: event_id in self.arrived, timeout):
                raise TimeoutError(f"event {event_id} never arrived")
            return self.arrived[event_id]


def sse_latencies(url: str, publish: Callable[[int], int | None], n: int) -> list[float]:
    client = SSEClient(url)
    client.start()
    client.ready.wait(5)
    time.sleep(0.2)
    out = []
    for i in range(1, n + 1):
        t0 = time.perf_counter()
        expect = publish(i)
        t1 = client.wait_for(str(expect if expect is not None else i))
        out.append((t1 - t0) * 1000)
    return out


# --- 4. many clients: pick -> every client ------------------------------------------------

CLIENTS_SCRIPT = r"""
# Raw asyncio sockets (no HTTP library): reading 100 streams must cost the machine as little as
# possible, so the figures are the server's. Each client notes when each `id:` line arrives.
import asyncio, json, os, sys, time
from urllib.parse import urlsplit


async def main(url, n, out):
    u = urlsplit(url)
    seen = [dict() for _ in range(n)]
    sizes = []
    request = (f"GET {u.path} HTTP/1.1\r\nHost: {u.netloc}\r\n"
               "Accept: text/event-stream\r\n\r\n").encode()

    async def one(k, opened):
        reader, writer = await asyncio.open_connection(u.hostname, u.port)
        writer.write(request)
        await writer.drain()
        opened.set()
        buf = b""
        while True:
            chunk = await reader.read(65536)
            if not chunk:
                return
            now = time.time()
            *lines, buf = (buf + chunk).split(b"\n")
            for line in lines:
                if line.startswith(b"id:"):
                    seen[k][line[3:].strip().decode()] = now
                elif line.startswith(b"data:") and k == 0:
                    sizes.append(len(line))

    opened = [asyncio.Event() for _ in range(n)]
    tasks = [asyncio.create_task(one(k, opened[k])) for k in range(n)]
    await asyncio.wait_for(asyncio.gather(*(o.wait() for o in opened)), 30)
    await asyncio.sleep(0.5)
    print("ready", flush=True)
    while not os.path.exists(out + ".stop"):
        await asyncio.sleep(0.05)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    json.dump({"seen": seen, "sizes": sizes}, open(out, "w"))

asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
"""


def fan_out(
    url: str, publish: Callable[[int], int | None], clients: int, picks: int, gap: float = 0.05
) -> tuple[list[float], list[float], float]:
    """`clients` SSE clients (raw asyncio sockets, in a process of their own, so reading them
    costs little and does not run in the server's process); a pick every `gap` s. Returns
    (per pick: until the LAST client has it, per client and pick: latency, mean event size
    in bytes), times on the wall clock."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "seen.json"
        proc = subprocess.Popen(
            [sys.executable, "-c", CLIENTS_SCRIPT, url, str(clients), str(out)],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        time.sleep(0.3)
        sent: dict[str, float] = {}
        for i in range(1, picks + 1):
            t0 = time.time()
            expect = publish(i)
            sent[str(expect if expect is not None else i)] = t0
            time.sleep(gap)
        time.sleep(1.0)
        Path(f"{out}.stop").touch()
        proc.wait(120)
        result = json.loads(out.read_text())
    every: list[float] = []
    each: list[float] = []
    for key, t0 in sent.items():
        # a client that fell behind gets the newest state and skips the ones between (a page
        # shows the latest view): the pick reached it with the first event at or after it
        found = [
            min((t for k, t in seen.items() if int(k) >= int(key)), default=None)
            for seen in result["seen"]
        ]
        arrivals = [t for t in found if t is not None]
        if len(arrivals) < len(found):
            raise RuntimeError(f"event {key} reached {len(arrivals)} of {clients} clients")
        every.append((max(arrivals) - t0) * 1000)
        each.extend((t - t0) * 1000 for t in arrivals)
    sizes = result["sizes"][-picks:] or [0]
    return every, each, sum(sizes) / len(sizes)


# --- 2. DOM latency in chromium -----------------------------------------------------------

OBSERVER = """
window.__seen = {};
new MutationObserver(() => {
  const s = document.getElementById("swatch");
  if (s && s.dataset.seq) window.__seen[s.dataset.seq] = performance.timeOrigin + performance.now();
}).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-seq"]});
"""


def dom_latencies(
    browser, url: str, publish: Callable[[int], int | None], n: int, seq_offset: int
) -> list[float]:
    page = browser.new_page()
    page.add_init_script(OBSERVER)
    page.goto(url)
    page.wait_for_timeout(500)
    out = []
    for i in range(seq_offset + 1, seq_offset + n + 1):
        t0 = time.time() * 1000
        publish(i)
        key = str(i)  # both pages show the pick's seq in #swatch[data-seq]
        page.wait_for_function(f"window.__seen['{key}'] !== undefined", timeout=5000)
        out.append(page.evaluate(f"window.__seen['{key}']") - t0)
    page.close()
    return out


# --- 3. resident memory with 10 pages open ------------------------------------------------


def serve_forever(kind: str, port: int, journal: str) -> None:
    app, _ = bare_app() if kind == "bare" else ours_app(Path(journal))
    ServerThread(app, bind("127.0.0.1", port)).start().thread.join()


def wait_up(port: int) -> None:
    """Until the server on `port` answers (it starts in a process of its own)."""
    for _ in range(200):
        try:
            httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.05)
    raise SystemExit("the server did not start")


def rss_with_clients(kind: str, clients: int = 10) -> float:
    sock = bind()
    port = sock.getsockname()[1]
    sock.close()
    with tempfile.TemporaryDirectory() as tmp:
        serve = ["--serve", kind, "--port", str(port), "--journal", f"{tmp}/j.sqlite3"]
        proc = subprocess.Popen(child("bench.display_latency", *serve), cwd=ROOT)
        try:
            url = f"http://127.0.0.1:{port}" + ("/events" if kind == "bare" else "/api/events")
            wait_up(port)
            streams = [SSEClient(url) for _ in range(clients)]
            for s in streams:
                s.start()
            for s in streams:
                s.ready.wait(5)
            time.sleep(1.0)
            return resident_mib(proc.pid)
        finally:
            proc.terminate()
            proc.wait(5)


# --- report -------------------------------------------------------------------------------


def line(name: str, ms: list[float], peer: list[float] | None = None) -> None:
    """A row of latencies measured in milliseconds (beside the peer's, if given)."""
    row(name, timings(seconds(ms), None if peer is None else seconds(peer)))


def seconds(ms: list[float]) -> list[float]:
    return [m / 1000 for m in ms]


def arguments() -> argparse.Namespace:
    """The command line (`--serve` and the rest hidden: how `rss_with_clients` starts a server
    in a process of its own)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--picks", type=int, default=1000)
    ap.add_argument("--dom-picks", type=int, default=1000)
    ap.add_argument("--clients", type=int, default=100, help="section 4's SSE clients (0: skip)")
    ap.add_argument("--fan-picks", type=int, default=200, help="section 4's picks")
    ap.add_argument("--hands", type=int, default=1000, help="section 4's game length")
    ap.add_argument("--serve", choices=["ours", "bare"], help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--journal", help=argparse.SUPPRESS)
    return ap.parse_args()


def to_clients_and_pages(picks: int, dom_picks: int) -> None:
    """Sections 1 and 2: publish to one SSE client, then to a page's DOM in chromium (skipped
    without it), each beside the bare peer, both servers in this process."""
    with tempfile.TemporaryDirectory() as tmp:
        app, publish_ours = ours_app(Path(tmp) / "j.sqlite3")
        peer, publish_bare = bare_app()
        ours_srv = ServerThread(app, bind()).start()
        bare_srv = ServerThread(peer, bind(), log_level="critical").start()  # no drain on stop
        ours_url = f"http://127.0.0.1:{ours_srv.port}"
        bare_url = f"http://127.0.0.1:{bare_srv.port}"
        try:
            heading(f"1. bus publish -> SSE client, {picks} picks each:")
            bare = sse_latencies(bare_url + "/events", publish_bare, picks)
            ours = sse_latencies(ours_url + "/api/events", publish_ours, picks)
            line("bare Starlette SSE echo (the peer)", bare)
            line("tinker-tray display (journaled)", ours, bare)
            row("p99, ours over the peer's", ratio(percentile(ours, 0.99), percentile(bare, 0.99)))
            if dom_picks and CHROMIUM.exists():
                from playwright.sync_api import sync_playwright

                heading(f"2. bus publish -> page DOM in chromium, {dom_picks} picks each:")
                with sync_playwright() as p:
                    browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
                    bare_dom = dom_latencies(
                        browser, bare_url + "/", publish_bare, dom_picks, 10 * picks
                    )
                    ours_dom = dom_latencies(
                        browser, ours_url + "/", publish_ours, dom_picks, 10 * picks
                    )
                    browser.close()
                line("bare page (EventSource -> div; the peer)", bare_dom)
                line("tinker-tray scoreboard", ours_dom, bare_dom)
            else:
                heading("2. skipped: no /usr/bin/chromium")
        finally:
            ours_srv.stop()
            bare_srv.stop()


def to_every_client(clients: int, fan_picks: int, hands: int) -> None:
    """Section 4: publish to `clients` SSE clients at once, on a game `hands` hands long, beside
    the bare peer with as many."""
    heading(
        f"4. bus publish -> every one of {clients} SSE clients, {fan_picks} "
        f"picks each, the game {hands} hands long (target: p99 < 50 ms):"
    )
    with tempfile.TemporaryDirectory() as tmp:
        app, publish_ours = ours_app(Path(tmp) / "j.sqlite3", hands=hands)
        peer, publish_bare = bare_app()
        # Every client of the fan-out comes from 127.0.0.1: one address, not one phone.
        wide = max(256, 2 * clients)
        many = Limits(connections=wide, per_client=wide)
        ours_srv = ServerThread(app, bind(), limits=many).start()
        bare_srv = ServerThread(peer, bind(), log_level="critical", limits=many).start()
        try:
            b_every, b_each, b_size = fan_out(
                f"http://127.0.0.1:{bare_srv.port}/events", publish_bare, clients, fan_picks
            )
            o_every, o_each, o_size = fan_out(
                f"http://127.0.0.1:{ours_srv.port}/api/events", publish_ours, clients, fan_picks
            )
        finally:
            ours_srv.stop()
            bare_srv.stop()
    line("bare Starlette SSE echo: last client", b_every)
    line("bare: each client", b_each)
    line("tinker-tray display: last client", o_every, b_every)
    line("tinker-tray: each client", o_each, b_each)
    row("bytes an event, ours / the bare echo's", f"{o_size:,.0f} / {b_size:,.0f} B")


def resident_memory() -> None:
    """Section 3: each server's resident memory in a process of its own, 10 SSE clients open."""
    heading("3. resident memory of the server process with 10 SSE clients open:")
    bare_rss = rss_with_clients("bare")
    ours_rss = rss_with_clients("ours")
    row("bare Starlette+uvicorn SSE server (the peer)", f"{bare_rss:.1f} MiB")
    row(
        "tinker-tray display",
        f"{ours_rss:.1f} MiB (+{ours_rss - bare_rss:.1f} MiB,"
        f" {ratio(ours_rss, bare_rss)} the peer)",
    )


def main() -> int:
    args = arguments()
    if args.serve:
        serve_forever(args.serve, args.port, args.journal)
        return 0
    to_clients_and_pages(args.picks, args.dom_picks)
    if args.clients:
        to_every_client(args.clients, args.fan_picks, args.hands)
    resident_memory()
    return 0


if __name__ == "__main__":
    sys.exit(main())
