"""The display in a real browser: Debian's chromium driven by Playwright, a real uvicorn on
127.0.0.1. Skipped where /usr/bin/chromium is missing, except under CI=true where that fails."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import pytest

from cli.app import create_app
from scoreboard.journal import Journal
from scoreboard.server import ServerThread, bind
from tests.helpers.browser import WAIT, chromium
from tests.helpers.picks import ShowingTray
from tests.helpers.web import TOKEN
from tray import show as light_show
from tray.bus import Bus
from tray.config import ShowSettings
from tray.events import Pick
from tray.pick import Picker

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


class Served:
    """The display app on a real uvicorn, restartable on the same port and journal file."""

    def __init__(self, path: Path, *, show: ShowSettings | None = None, press=None):
        self.path = path
        self.port = 0
        self.server: ServerThread | None = None
        self.show, self.press = show, press

    def start(self) -> Served:
        self.journal = Journal(self.path)
        self.bus = Bus()
        self.app = create_app(self.journal, self.bus, TOKEN, show=self.show, press=self.press)
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


# A short show (about 1.5 s) that still scans, blinks and stays lit (lit_s=0) like the real one.
QUICK = ShowSettings(steps=8, first_step_s=0.06, last_step_s=0.25, blinks=2, blink_s=0.1, lit_s=0.0)
SPIN = light_show.spin_seconds(QUICK)
WATCH_LIGHTS = """() => {
  window.seen = [];
  const box = document.getElementById('lights');
  const record = () => window.seen.push({
    frame: Number(box.dataset.frame),
    levels: [...box.querySelectorAll('.light')].map((l) => Number(l.dataset.level)),
    named: document.getElementById('named').textContent});
  new MutationObserver(record).observe(box, {attributes: true, attributeFilter: ['data-frame']});
}"""
WATCH_SWATCH = """() => {
  window.revealed = null;
  const sw = document.getElementById('swatch');
  new MutationObserver(() => {
    if (window.revealed === null && /\\bc-/.test(sw.className)) window.revealed = Date.now();
  }).observe(sw, {attributes: true, attributeFilter: ['class']});
}"""


@pytest.fixture
def emulated(tmp_path):
    picker = Picker()
    picks = []

    def press():
        picks.append(s.tray.publish(picker.pick(source="virtual")))

    s = Served(tmp_path / "journal.sqlite3", show=QUICK, press=press)
    s.picks = picks
    s.start()
    s.tray = ShowingTray(s.bus, QUICK)  # stamps each pick, announces its landing
    yield s
    s.tray.close()
    s.stop()


def test_the_virtual_tray_plays_the_leds_show_and_names_the_colour_when_it_settles(emulated, page):
    page.goto(f"{emulated.url}/tray?token={TOKEN}")
    page.wait_for_selector(".status:text('live')", timeout=WAIT)
    page.evaluate(WATCH_LIGHTS)
    page.click("#tinker")
    page.wait_for_selector("#lights[data-done='1']", timeout=WAIT)
    [pick] = emulated.picks
    colour = pick.colour
    assert emulated.app.state.session.table.last_pick.colour == colour
    frames = light_show.frames(colour, QUICK, pick.lead)  # as the LEDs play it
    seen = page.evaluate("window.seen")
    # every frame of the LEDs' show, in order, each with the LEDs' levels: the lights moved.
    # The page joins at the frame the LEDs have reached when the show reaches it (on a loaded
    # machine, a frame or two in), then skips none.
    first = seen[0]["frame"]
    assert [s["frame"] for s in seen] == list(range(first, len(frames)))
    assert [s["levels"] for s in seen] == [list(f.levels) for f in frames[first:]]
    assert len(seen) >= 2 and len({tuple(s["levels"]) for s in seen}) >= 2
    assert "choosing" in seen[0]["named"] and colour not in seen[0]["named"].lower()
    # it ends lit on the pick, named in text (not by colour alone)
    page.wait_for_selector(f"#named.c-{colour}", timeout=WAIT)
    assert page.inner_text("#named").strip().lower().endswith(colour)
    assert page.locator(".light.on").count() == 1
    assert page.get_attribute(".light.on", "data-colour") == colour
    assert f"Tinker Bell chose {colour}" in page.inner_text("#says")
    # a page opened after the show lands on the last frame at once, the colour named
    page.reload()
    page.wait_for_selector("#lights[data-done='1']", timeout=WAIT)
    assert page.get_attribute(".light.on", "data-colour") == colour
    page.wait_for_selector(f"#named.c-{colour}", timeout=WAIT)


def test_the_scoreboard_keeps_the_pick_back_until_the_lights_settle(emulated, browser, page):
    page.goto(emulated.url + "/")
    page.wait_for_selector(".status:text('live')", timeout=WAIT)
    page.evaluate(WATCH_SWATCH)
    pick = emulated.tray.publish(Pick(seq=1, colour="green", t=time.time()))
    page.wait_for_selector("#swatch.pending[data-seq='1']", timeout=WAIT)
    shown = (
        page.inner_text("#swatch") + page.inner_text("#says") + page.inner_text("#meanings")
    ).lower()
    assert "choosing" in shown and "green" not in shown
    page.wait_for_selector("#swatch.c-green", timeout=WAIT)
    revealed = page.evaluate("window.revealed") / 1000
    assert revealed >= pick.t + SPIN - 0.01  # not before the lights settled (ms clock)
    assert page.inner_text("#swatch").strip().lower().endswith("green")
    assert "Tinker Bell chose green" in page.inner_text("#says")
    # a page that connects after the settle time shows it with its first message
    later = browser.new_context().new_page()
    try:
        later.goto(emulated.url + "/")
        later.wait_for_selector("#swatch.c-green[data-seq='1']", timeout=WAIT)
    finally:
        later.context.close()


def test_the_event_stream_sends_the_reveal_without_a_new_entry(emulated):
    with httpx.stream("GET", emulated.url + "/api/events", timeout=10) as res:
        lines = res.iter_lines()
        _next_event(lines)
        emulated.tray.publish(Pick(seq=1, colour="blue", t=time.time()))
        hidden = _next_event(lines)
        assert json.loads(hidden["data"])["pick"]["pending"] is True
        shown = _next_event(lines)  # woken by the tray's PickSettled: no entry, same version
        assert shown["id"] == hidden["id"]
        assert json.loads(shown["data"])["pick"]["colour"] == "blue"


def test_a_person_plays_by_clicking_and_a_pick_resolves_wild_discard_all(served, page):
    """Seed 17 deals Ann (seat 0, against two bots) Wild Discard All, Red 3 and Red 6 for her
    first move. She plays it by clicking, the tray's pick (red) resolves it,
    and she discards a red card and stops, all by clicking."""
    res = served.post(
        "/api/digital/new",
        {
            "players": ["Ann", "Bo", "Cy"],
            "humans": [0],
            "seed": 17,
            "pace": 0,
            "options": {"target": 100},
        },
    )
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
    page.wait_for_selector("#log li:text('You discard Red 3')", timeout=WAIT)
    page.click("#actions button:has-text('Stop discarding')")
    page.wait_for_selector(".card[data-code='R3']", state="detached", timeout=WAIT)
    game = served.app.state.digital.link.game
    mine = [e for e in game.events if e.get("seat") == 0]
    assert mine[:2] == [
        {"seat": 0, "act": "play", "card": "WDA"},
        {"seat": 0, "act": "discard", "cards": ["R3"]},
    ]
    assert page.locator(".card").count() == len(game.hand.hands[game.hand.pos_of[0]])
    # the scoreboard's own pick display saw the same press
    assert served.app.state.session.table.last_pick is not None
