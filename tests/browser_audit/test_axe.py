"""Every page of the display passes axe-core's audit in real Chromium with no serious or
critical violation: the scoreboard (a finished game on a TV, and on a phone), the entry page (the
host's with a hand begun, and a reader's), the virtual tray, the pairing page and digital play
(set up, and in play for Disney UNO and UNO Elite). (The club: tests/club/test_club_browser.py.)"""

from __future__ import annotations

import pytest

from tests.browser_audit.axe import require_axe, serious_violations
from tests.helpers.browser import WAIT
from tests.helpers.web import TOKEN
from tests.scoreboard.test_browser import Served, browser  # noqa: F401 (fixture)
from tests.scoreboard.test_tv import finished_game
from tray.pick import Picker

pytestmark = pytest.mark.browser
PHONE = {"width": 360, "height": 740}
TV = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    require_axe()
    picker = Picker(seed=3)
    path = tmp_path_factory.mktemp("audit") / "journal.sqlite3"
    s = Served(path, press=lambda: s.bus.publish(picker.pick("virtual")))
    s.start()
    finished_game(s, 4)
    yield s
    s.stop()


def opened(browser, url, viewport):  # noqa: F811
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(url)
    page.wait_for_selector(".status:text('live')", timeout=WAIT)
    page.wait_for_timeout(300)  # the first render and the whoami answer
    return page


@pytest.mark.parametrize(
    ("path", "viewport"),
    [
        ("/", TV),
        ("/", PHONE),
        (f"/enter?token={TOKEN}", PHONE),
        ("/enter", PHONE),
        (f"/tray?token={TOKEN}", PHONE),
        ("/tray", PHONE),
        ("/pair", PHONE),
        (f"/play?token={TOKEN}", PHONE),
    ],
    ids=["scoreboard-tv", "scoreboard-phone", "entry-host", "entry-reader", "tray-host",
         "tray-guest", "pair", "play-setup"],
)  # fmt: skip
def test_no_serious_accessibility_violation(table, browser, path, viewport):  # noqa: F811
    page = opened(browser, table.url + path, viewport)
    try:
        if path.startswith("/enter?"):  # a hand begun: who went out, a player's cards
            table.post("/api/new-game", {"players": ["Ann", "Bea", "Cy"], "confirm": True})
            page.click("#winners button[data-seat='1']", timeout=WAIT)
            page.click("[data-code='R7']")
        assert serious_violations(page) == []
    finally:
        page.context.close()


@pytest.mark.parametrize("ruleset", ["disney", "elite"])
def test_digital_play_in_play_has_no_serious_violation(table, browser, ruleset):  # noqa: F811
    """A person's seat in a game under way, on a phone: the hand, the moves, the log (and, for
    UNO Elite, the Lineups)."""
    keys = table.app.state.digital.new_game(
        ["Ann", "Bo", "Cy"], [0], "greedy", ruleset=ruleset, seed=5, pace=0, confirm=True
    )
    page = opened(browser, f"{table.url}/play?key={keys[0]}", PHONE)
    try:
        page.wait_for_selector("#hand .card", timeout=WAIT)
        page.wait_for_selector("#log li", timeout=WAIT)
        assert serious_violations(page) == []
    finally:
        page.context.close()


@pytest.mark.parametrize("viewport", [PHONE, TV], ids=["phone", "tv"])
def test_the_scoreboard_while_pairing_has_no_serious_violation(table, browser, viewport):  # noqa: F811
    """The minute the tray's button was held: the QR code, the pairing page's link and the
    button that makes this phone the host."""
    from tray.events import LinkHeld

    table.app.state.pairing.held(LinkHeld(t=0.0, seconds=3.0, source="gpio"))
    page = opened(browser, table.url + "/", viewport)
    try:
        page.wait_for_selector("#pairhere", state="visible", timeout=WAIT)
        assert serious_violations(page) == []
    finally:
        page.context.close()
