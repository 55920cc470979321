"""The kiosk may say the pick aloud (the scoreboard's toggle, off by default, kept by the
browser): with the browser's own speech synthesis, once per pick, only once the lights have
settled. Real Chromium; speechSynthesis itself is replaced in the page by a recorder (our seam:
a headless browser has no voice to listen to)."""

from __future__ import annotations

import time

import pytest

from tests.helpers.browser import WAIT
from tests.scoreboard.test_browser import browser, emulated  # noqa: F401 (fixtures)
from tray.events import Pick

pytestmark = pytest.mark.browser
RECORD_SPEECH = """
window.spoken = [];
Object.defineProperty(window, 'speechSynthesis', { configurable: true, value: {
  speak: (utterance) => window.spoken.push(
    {text: utterance.text, pending: !!document.querySelector('#swatch.pending')}),
  cancel: () => {}, getVoices: () => [] } });
"""


@pytest.fixture
def kiosk(browser):  # noqa: F811
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(RECORD_SPEECH)
    yield context.new_page()
    context.close()


def opened(page, url):
    page.goto(url)
    page.wait_for_selector(".status:text('live')", timeout=WAIT)


def test_with_the_toggle_on_the_colour_is_said_once_after_the_lights_settle(emulated, kiosk):  # noqa: F811
    opened(kiosk, emulated.url + "/")
    assert not kiosk.is_checked("#speak")  # off by default
    kiosk.check("#speak")
    kiosk.reload()  # the browser keeps the choice
    kiosk.wait_for_selector(".status:text('live')", timeout=WAIT)
    assert kiosk.is_checked("#speak")
    emulated.tray.publish(Pick(seq=1, colour="green", t=time.time()))
    kiosk.wait_for_selector("#swatch.pending[data-seq='1']", timeout=WAIT)
    assert kiosk.evaluate("window.spoken") == []  # the lights still spin: nothing said
    kiosk.wait_for_selector("#swatch.c-green", timeout=WAIT)
    kiosk.wait_for_function("window.spoken.length > 0", timeout=WAIT)
    emulated.post("/api/new-game", {"players": ["Ann", "Bea"]})  # later views: not said again
    kiosk.wait_for_selector(".score[data-seat='1']", timeout=WAIT)
    assert kiosk.evaluate("window.spoken") == [
        {"text": "Tinker Bell chose green.", "pending": False}
    ]
    # a new pick is said in its turn; a page opened afterwards does not repeat an old one
    emulated.tray.publish(Pick(seq=2, colour="red", t=time.time()))
    kiosk.wait_for_function("window.spoken.length === 2", timeout=WAIT)
    assert kiosk.evaluate("window.spoken[1].text") == "Tinker Bell chose red."
    kiosk.reload()
    kiosk.wait_for_selector("#swatch.c-red", timeout=WAIT)
    kiosk.wait_for_timeout(300)
    assert kiosk.evaluate("window.spoken") == []


def test_with_the_toggle_off_nothing_is_said(emulated, kiosk):  # noqa: F811
    opened(kiosk, emulated.url + "/")
    emulated.tray.publish(Pick(seq=1, colour="blue", t=time.time()))
    kiosk.wait_for_selector("#swatch.c-blue", timeout=WAIT)
    kiosk.wait_for_timeout(300)
    assert kiosk.evaluate("window.spoken") == []
