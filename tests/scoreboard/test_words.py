"""Issue 32's words, on the pages a family opens, in real Chromium at 360x740, 1280x800 and
1920x1080: the virtual tray shows what a pick means for each card (it said "see what it means
for each card" and showed none); the emulator's scoreboard does not say "No tray here"; every
kept digital game is named by its rules and players, with its date and winner; /play is linked
from /enter and /tray."""

from __future__ import annotations

import pytest

from cli.app import create_app
from scoreboard.journal import Journal
from scoreboard.server import ServerThread, bind
from tests.helpers.browser import WAIT
from tests.helpers.web import TOKEN
from tests.scoreboard.test_browser import browser  # noqa: F401 (fixture)
from tray.bus import Bus
from tray.events import Pick

pytestmark = pytest.mark.browser
SIZES = [(360, 740), (1280, 800), (1920, 1080)]


class App:
    """The display app on a real server; `tray`: a tray runs beside it (the emulator's)."""

    def __init__(self, path, *, tray: bool):
        self.bus, self.journal, self.tray = Bus(), Journal(path), tray
        self.presses: list[int] = []
        press = lambda: self.presses.append(1)  # noqa: E731
        self.app = create_app(
            self.journal, self.bus, TOKEN, press=press, tray_press=press if tray else None
        )
        self.server = ServerThread(self.app, bind()).start()
        self.url = f"http://127.0.0.1:{self.server.port}"

    def stop(self):
        self.server.stop()
        self.journal.close()


@pytest.fixture(params=[True, False], ids=["emulator", "display"])
def served(request, tmp_path):
    s = App(tmp_path / "journal.sqlite3", tray=request.param)
    yield s
    s.stop()


def opened(browser, url, size):  # noqa: F811
    page = browser.new_context(viewport={"width": size[0], "height": size[1]}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_selector(".status:text('live')", timeout=WAIT)
    return page, errors


def fits_and_links_to_play(page, errors):
    """Nothing scrolls sideways, no script error, and its /play link leads there."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.click("a[href='/play']")
    page.wait_for_url("**/play", timeout=WAIT)
    assert errors == []


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_virtual_tray_shows_what_the_pick_means_for_each_card(served, browser, size):  # noqa: F811
    served.bus.publish(Pick(seq=1, colour="green", t=0.0))
    page, errors = opened(browser, f"{served.url}/tray?token={TOKEN}", size)
    try:
        page.wait_for_selector("#says:has-text('see what it means for each card')", timeout=WAIT)
        items = page.locator("#meanings li")
        assert items.count() >= 3
        assert "Villain Draw 4" in page.inner_text("#meanings")
        assert all(items.nth(i).is_visible() for i in range(items.count()))
        fits_and_links_to_play(page, errors)
    finally:
        page.context.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_scoreboard_names_the_button_it_presses(served, browser, size):  # noqa: F811
    page, errors = opened(browser, f"{served.url}/?token={TOKEN}", size)
    try:
        page.wait_for_selector("#pressrow:not(.hidden)", timeout=WAIT)
        says = page.inner_text("#presswhat")
        if served.tray:  # the emulator: its tray runs
            assert says == "The emulator's tray: this presses its Tinker Bell button."
        else:  # a display with no tray: the page's button is the only one
            assert says == "No tray here: this is the Tinker Bell button."
        assert errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_kept_games_say_their_rules_players_date_and_winner(served, browser, size):  # noqa: F811
    digital = served.app.state.digital
    digital.new_game(["Ann", "Bot Bea", "Bot Cy"], [], "greedy", ruleset="elite", seed=5, pace=0)
    assert digital.over  # bots only, at once
    winner = digital.view()["winner"]
    page, errors = opened(browser, f"{served.url}/enter?token={TOKEN}", size)
    try:
        row = page.locator("#games .gamename").first
        row.wait_for(timeout=WAIT)
        text = row.inner_text()
        assert text.startswith("UNO Elite: Ann, Bot Bea, Bot Cy · ")
        assert text.endswith(f" · won by {winner}") and "digital game" not in text
        fits_and_links_to_play(page, errors)
    finally:
        page.context.close()
