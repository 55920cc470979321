"""The scoreboard on a TV (the kiosk, which cannot scroll) in real Chromium: at 1280×800 and
1920×1080, 2 to 10 players, a finished game, its chart and the UNO Elite tally all on one
screen; the winner banner over nothing, and gone once a later game has finished."""

from __future__ import annotations

import httpx
import pytest

from tests.helpers.browser import WAIT
from tests.scoreboard.test_browser import Served, browser  # noqa: F401 (fixture)
from tray.events import Pick

pytestmark = pytest.mark.browser
TV = [(1280, 800), (1920, 1080)]
NAMES = [
    "Annabelle-Marie", "Bartholomew", "Cy", "Dorothea", "Eleanor",
    "Frederick", "Gwendolyn", "Hugo", "Isabella", "Jonathan",
]  # fmt: skip


def finished_game(s: Served, players: int) -> None:
    """A game to 500 over a dozen hands (every seat wins one), won by seat 0; a settled yellow
    pick; one UNO Elite game won by Bot Bea (before the table's game was won: the banner
    stands)."""
    s.post("/api/new-game", {"players": NAMES[:players], "options": {"target": 500}})
    for hand in range(12):
        w = hand % players
        held = [None if x == w else 5 + 3 * x for x in range(players)]
        s.post("/api/entry", {"kind": "hand", "winner": w, "held": held})
    s.app.state.session.game_won(None, ["Ann", "Bot Bea", "Bot Cy"], 1, "elite")  # before the win
    s.post("/api/entry", {"kind": "hand", "winner": 0, "held": [None] + [520] * (players - 1)})
    s.bus.publish(Pick(seq=1, colour="yellow", t=0.0))


@pytest.fixture
def served(tmp_path):
    s = Served(tmp_path / "journal.sqlite3").start()
    yield s
    s.stop()


def open_tv(browser, url, size, chart="visible"):  # noqa: F811
    width, height = size
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_selector(".status:text('live')", timeout=WAIT)
    page.wait_for_selector("#swatch.c-yellow", timeout=WAIT)
    page.wait_for_selector("#chart svg polyline", state=chart, timeout=WAIT)
    page.wait_for_timeout(200)  # the chart redrawn to its room
    return page, errors


BOXES = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const parts = [...document.querySelectorAll(
    '.score, #chart svg, #elitebox, .pick, #meanings li')];
  return {
    scroll: document.scrollingElement.scrollHeight, width: document.scrollingElement.scrollWidth,
    banner: box(document.getElementById('banner')), parts: parts.map(box),
    rows: [...document.querySelectorAll('.score')].map(box),
    names: [...document.querySelectorAll('.score .who')].map(
      (e) => e.getBoundingClientRect().height),
  };
}"""


def overlaps(a: dict, b: dict) -> bool:
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and (b["top"] < a["bottom"])
    )


@pytest.mark.parametrize("players", [2, 7, 10])
@pytest.mark.parametrize("size", TV, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_finished_game_fits_the_tv_without_scrolling(served, browser, size, players):  # noqa: F811
    finished_game(served, players)
    page, errors = open_tv(browser, served.url + "/", size)
    try:
        assert page.locator(".score").count() == players
        assert page.is_visible("#banner") and "Annabelle-Marie wins" in page.inner_text("#banner")
        assert page.is_visible("#elitebox")
        got = page.evaluate(BOXES)
        width, height = size
        assert got["scroll"] <= height, f"{got['scroll']} px tall on a {height} px screen"
        assert got["width"] <= width
        # every row, the chart, the tally: on screen, and not under the banner
        for n, part in enumerate(got["parts"]):
            assert part["top"] >= 0 and part["bottom"] <= height, part
            assert not overlaps(part, got["banner"]), part
            assert not any(overlaps(part, other) for other in got["parts"][n + 1 :]), part
        assert min(got["names"]) >= 16, "a name readable across the room"
        assert errors == []
    finally:
        page.context.close()


def test_the_banner_goes_once_a_later_game_has_finished(served, browser):  # noqa: F811
    finished_game(served, 3)
    page, _ = open_tv(browser, served.url + "/", TV[0])
    try:
        assert page.is_visible("#banner")
        served.app.state.session.game_won(None, ["Ann", "Bot Bea", "Bot Cy"], 0, "elite")  # later
        page.wait_for_selector("#elitewins li[data-name='Ann']:has-text('1 win')", timeout=WAIT)
        assert not page.is_visible("#banner")
        assert page.inner_text(".score[data-seat='0'] .name").count("WINNER") == 1  # still said
        page.reload()  # and it does not come back with the page
        page.wait_for_selector("#swatch.c-yellow", timeout=WAIT)
        assert not page.is_visible("#banner")
        # a new table game has no winner; its own end brings its own banner
        served.post("/api/new-game", {"players": ["Di", "Ed"], "options": {"target": 10}})
        page.wait_for_selector(".score[data-seat='1']:has-text('Ed')", timeout=WAIT)
        assert not page.is_visible("#banner")
        served.post("/api/entry", {"kind": "hand", "winner": 1, "held": [["R7", "B5"], None]})
        page.wait_for_selector("#banner:has-text('Ed wins')", timeout=WAIT)
    finally:
        page.context.close()


@pytest.mark.parametrize("size", [*TV, (360, 740)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_yellow_fits_its_swatch(served, browser, size):  # noqa: F811
    finished_game(served, 4)
    page, _ = open_tv(browser, served.url + "/", size)
    try:
        inner, text = page.evaluate(
            """() => { const sw = document.getElementById('swatch');
              const label = sw.lastElementChild.getBoundingClientRect();
              return [sw.clientWidth, label.width]; }"""
        )
        assert text <= inner, f"YELLOW is {text} px wide in a {inner} px swatch"
    finally:
        page.context.close()


@pytest.mark.parametrize("size", TV, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_pairing_window_fits_the_tv_too(tmp_path, browser, size):  # noqa: F811
    """The host's screen of an emulator (the Tinker Bell button on the board, the entry page's
    QR code), 10 players, and the minute the pairing window is open: still one screen, the
    pairing QR code over nothing."""
    from tests.helpers.web import TOKEN
    from tray.events import LinkHeld

    s = Served(tmp_path / "journal.sqlite3", press=lambda: None).start()
    try:
        finished_game(s, 10)
        s.app.state.pairing.held(LinkHeld(t=0.0, seconds=3.0, source="gpio"))
        page, errors = open_tv(browser, f"{s.url}/?token={TOKEN}", size, chart="attached")
        page.wait_for_selector("#pairing:not(.hidden) img[src]", timeout=WAIT)
        page.wait_for_selector("#pressrow:not(.hidden)", timeout=WAIT)
        got = page.evaluate(BOXES)
        pairing = page.evaluate(
            "(() => { const r = document.getElementById('pairing').getBoundingClientRect();"
            " return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; })()"
        )
        assert got["scroll"] <= size[1], f"{got['scroll']} px tall on a {size[1]} px screen"
        shown = [part for part in got["parts"] if part["bottom"] > part["top"]]
        assert len([p for p in shown if p in got["rows"]]) == 10  # every player's row
        for n, part in enumerate(shown):  # (the chart and the tally step aside for the minute)
            assert part["top"] >= 0 and part["bottom"] <= size[1], part
            assert not overlaps(part, pairing), part
            assert not any(overlaps(part, other) for other in shown[n + 1 :]), part
        assert errors == []
        page.context.close()
    finally:
        s.stop()


def test_a_page_first_opened_after_a_later_game_shows_no_banner(served, browser):  # noqa: F811
    finished_game(served, 3)
    session = served.app.state.session
    assert not session.view()["winner"]["superseded"]
    session.game_won(None, ["Ann", "Bot Bea", "Bot Cy"], 0, "elite")  # ended after the table's
    assert session.view()["winner"]["superseded"]
    page, _ = open_tv(browser, served.url + "/", TV[0])  # a fresh browser: nothing remembered
    try:
        page.wait_for_selector("#elitewins li[data-name='Ann']:has-text('1 win')", timeout=WAIT)
        assert not page.is_visible("#banner")
        assert page.inner_text(".score[data-seat='0'] .name").count("WINNER") == 1
    finally:
        page.context.close()


@pytest.mark.parametrize("size", [(360, 740), *TV], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_banner_stays_retired_after_a_press_and_a_restart(tmp_path, browser, size):  # noqa: F811
    """Issue 32: a game won, then an UNO Elite game finished, then the Tinker Bell button pressed
    (the pick is journaled in the table's game, after the Elite game's end): after a restart, a
    fresh browser (the kiosk's --incognito) shows the Elite tally and no old winner banner. The
    win dates from the hand that ended the game, not from the game's last entry."""
    s = Served(tmp_path / "journal.sqlite3").start()
    finished_game(s, 3)
    s.app.state.session.game_won(None, ["Ann", "Bot Bea", "Bot Cy"], 1, "elite")  # after the win
    s.bus.publish(Pick(seq=2, colour="yellow", t=1.0))  # the button pressed after it
    s.stop()
    s.start()  # the restart: nothing remembered but the journal
    try:
        assert httpx.get(s.url + "/api/view").json()["winner"]["superseded"] is True
        page, errors = open_tv(browser, s.url + "/", size)
        try:
            page.wait_for_selector("#elitewins li[data-name='Bot Bea']", timeout=WAIT)
            assert not page.is_visible("#banner")
            assert "wins!" not in page.inner_text("body")
            assert errors == []
        finally:
            page.context.close()
    finally:
        s.stop()
