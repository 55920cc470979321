"""The display in a real browser: Debian's chromium driven by Playwright, a real uvicorn on
127.0.0.1. Skipped where /usr/bin/chromium is missing, except under CI=true where that fails."""

from __future__ import annotations

import json
import os
from pathlib import Path

import httpx
import pytest

from tray.bus import Bus
from tray.display.server import ServerThread, bind
from tray.display.web import create_app
from tray.events import Pick
from tray.journal import Journal

from .conftest import TOKEN

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-quic", "--no-first-run", "--disable-component-update", "--disable-sync"]
WAIT = 10_000  # ms: generous for a loaded 2-core machine; an SSE update takes milliseconds

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but /usr/bin/chromium is missing: .ci/run installs it")
        pytest.skip("no /usr/bin/chromium here (apt-get install chromium) : browser tests skipped")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


class Served:
    """The display app on a real uvicorn, restartable on the same port and journal file."""

    def __init__(self, path: Path):
        self.path = path
        self.port = 0
        self.server: ServerThread | None = None

    def start(self) -> Served:
        self.journal = Journal(self.path)
        self.bus = Bus()
        self.app = create_app(self.journal, self.bus, TOKEN)
        self.server = ServerThread(self.app, bind("127.0.0.1", self.port)).start()
        self.port = self.server.port
        self.url = f"http://127.0.0.1:{self.port}"
        return self

    def stop(self) -> None:
        if self.server:
            self.server.stop()
            self.journal.close()
            self.server = None

    def post(self, path, body):
        res = httpx.post(self.url + path, json=body, headers={"X-Table-Token": TOKEN})
        res.raise_for_status()
        return res.json()


@pytest.fixture
def served(tmp_path):
    s = Served(tmp_path / "journal.sqlite3").start()
    yield s
    s.stop()


@pytest.fixture
def page(browser):
    context = browser.new_context()
    yield context.new_page()
    context.close()


def test_a_pick_published_on_the_bus_shows_up_on_an_open_page(served, page):
    page.goto(served.url + "/")
    page.wait_for_selector(".status:text('live')", timeout=WAIT)
    served.bus.publish(Pick(seq=7, colour="yellow", t=0.0))
    page.wait_for_selector("#swatch[data-seq='7']", timeout=WAIT)
    assert page.inner_text("#swatch").strip().lower().endswith("yellow")  # named, not only shown
    assert "c-yellow" in page.get_attribute("#swatch", "class")
    assert "Tinker Bell chose yellow" in page.inner_text("#says")
    assert "Villain Draw 4" in page.inner_text("#meanings")


def test_an_entry_on_one_page_updates_the_totals_on_another(served, browser):
    served.post("/api/new-game", {"players": ["Ann", "Bea", "Cy"]})
    ctx = browser.new_context()
    try:
        board = ctx.new_page()
        board.goto(served.url + "/")
        board.wait_for_selector(".score[data-seat='1']", timeout=WAIT)
        entry = ctx.new_page()
        entry.goto(f"{served.url}/enter?token={TOKEN}")
        entry.wait_for_selector("#winners button[data-seat='1']", timeout=WAIT)
        entry.click("#winners button[data-seat='1']")  # Bea went out
        entry.click(".seat[data-seat='0']")
        entry.click("[data-code='VD4']")  # Ann holds a Villain Draw 4 (75)
        entry.click("[data-code='R7']")  # and a Red 7
        entry.fill(".seat[data-seat='2'] input", "18")  # Cy typed a total
        assert entry.inner_text("[data-sum='0']") == "82"
        entry.click("#submit")
        board.wait_for_function(
            "document.querySelector(\".score[data-seat='1'] .total\").textContent === '100'",
            timeout=WAIT,
        )
        assert board.inner_text(".score[data-seat='1'] .name").startswith("Bea")
        assert board.locator("#chart svg polyline").count() == 3
        entry.wait_for_selector(".history tbody tr", timeout=WAIT)
        entry.click("#undo")
        board.wait_for_function(
            "document.querySelector(\".score[data-seat='1'] .total\").textContent === '0'",
            timeout=WAIT,
        )
    finally:
        ctx.close()


def test_a_reload_after_a_server_restart_shows_the_same_scores(served, page):
    served.post("/api/new-game", {"players": ["Ann", "Bea"]})
    served.post("/api/entry", {"kind": "hand", "winner": 0, "held": [None, ["W", "B5"]]})
    page.goto(served.url + "/")
    page.wait_for_selector(".score[data-seat='0'] .total:text('55')", timeout=WAIT)
    served.stop()
    served.start()  # same port, same journal file, a new process state
    page.reload()
    page.wait_for_selector(".score[data-seat='0'] .total:text('55')", timeout=WAIT)
    assert page.inner_text(".score[data-seat='1'] .total") == "0"
    # and the page that stayed open reconnects by itself to later entries
    served.post("/api/entry", {"kind": "hand", "winner": 1, "held": [["G9"], None]})
    page.wait_for_selector(".score[data-seat='1'] .total:text('9')", timeout=WAIT)


def test_an_sse_client_gets_a_snapshot_with_an_id_then_each_change(served):
    served.post("/api/new-game", {"players": ["Ann", "Bea"]})
    with httpx.stream("GET", served.url + "/api/events", timeout=10) as res:
        lines = res.iter_lines()
        first = _next_event(lines)
        assert first["id"] == str(served.app.state.session.version)
        assert json.loads(first["data"])["players"][0]["name"] == "Ann"
        served.bus.publish(Pick(seq=1, colour="red", t=0.0))
        second = _next_event(lines)
        assert int(second["id"]) > int(first["id"])
        assert json.loads(second["data"])["pick"]["colour"] == "red"


def _next_event(lines) -> dict[str, str]:
    event: dict[str, str] = {}
    for line in lines:
        if not line:
            if "data" in event:
                return event
            continue
        if line.startswith(":"):
            continue
        key, _, value = line.partition(":")
        event[key] = value.strip()
    raise AssertionError("the stream ended")


def test_a_person_plays_by_clicking_and_a_pick_resolves_wild_discard_all(served, page):
    """Seed 17 deals Ann (seat 0, against two bots) Wild Discard All, Red 3 and Red 6 for her
    first move. She plays it by clicking, the tray's pick (red) resolves it,
    and she discards a red card and stops, all by clicking."""
    res = served.post("/api/digital/new", {"players": ["Ann", "Bo", "Cy"], "humans": [0],
                                           "seed": 17, "pace": 0, "options": {"target": 100}})
    page.goto(f"{served.url}{res['links']['0']}&token={TOKEN}")
    page.wait_for_selector(".card[data-code='WDA']:not([disabled])", timeout=WAIT)
    assert "Your move" in page.inner_text("#says")
    assert page.is_disabled(".card[data-code='B1']")  # blue 1 does not match the green 6
    page.click(".card[data-code='WDA']")
    page.wait_for_selector("#pressbox:not(.hidden)", timeout=WAIT)
    assert "press the Tinker Bell button" in page.inner_text("#says")
    served.bus.publish(Pick(seq=1, colour="red", t=0.0))
    page.wait_for_selector(".card[data-code='R3']:not([disabled])", timeout=WAIT)
    assert "Tinker Bell chose red" in page.inner_text("#log")
    assert page.inner_text(".card[data-code='R3'] .verb").lower() == "discard"
    page.click(".card[data-code='R3']")
    page.wait_for_selector("#log li:text('Ann discards Red 3')", timeout=WAIT)
    page.click("#moves button:text('Stop discarding')")
    page.wait_for_selector(".card[data-code='R3']", state="detached", timeout=WAIT)
    game = served.app.state.digital.link.game
    mine = [e for e in game.events if e.get("seat") == 0]
    assert mine[:2] == [{"seat": 0, "act": "play", "card": "WDA"},
                        {"seat": 0, "act": "discard", "cards": ["R3"]}]
    assert page.locator(".card").count() == len(game.hand.hands[game.hand.pos_of[0]])
    # the scoreboard's own pick display saw the same press
    assert served.app.state.session.table.last_pick is not None
