"""Every page on a 360 px phone in real Chromium: nothing scrolls sideways, nothing fails to
load (no missing favicon), no script error; and what each role sees."""

from __future__ import annotations

import pytest

from tests.helpers.browser import WAIT
from tests.helpers.web import TOKEN
from tests.scoreboard.test_browser import Served, browser  # noqa: F401 (fixture)
from tray.pick import Picker

pytestmark = pytest.mark.browser
PHONE = {"width": 360, "height": 740}


@pytest.fixture
def table(tmp_path):
    picker = Picker(seed=3)
    s = Served(tmp_path / "journal.sqlite3", press=lambda: s.bus.publish(picker.pick("virtual")))
    s.start()
    s.post(
        "/api/new-game",
        {
            "players": ["Annabelle-Marie", "Bartholomew", "Cy", "Dorothea"],
            "options": {"target": 500},
        },
    )
    for winner in (0, 1, 2):
        s.post(
            "/api/entry",
            {
                "kind": "hand",
                "winner": winner,
                "held": [None if x == winner else 40 + x for x in range(4)],
            },
        )
    yield s
    s.stop()


def open_phone(browser, url):  # noqa: F811
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    page.on(
        "response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None
    )
    page.goto(url)
    page.wait_for_selector(".status:text('live')", timeout=WAIT)
    page.wait_for_timeout(300)  # the first render and the whoami answer
    return page, problems


def width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


@pytest.mark.parametrize(
    "path",
    [
        "/",
        f"/enter?token={TOKEN}",
        "/enter",
        f"/tray?token={TOKEN}",
        f"/play?token={TOKEN}",
        "/play",
        "/pair",
    ],
)
def test_every_page_fits_a_360_px_phone(table, browser, path):  # noqa: F811
    page, problems = open_phone(browser, table.url + path)
    try:
        assert width(page) <= 360, f"{path} is {width(page)} px wide"
        assert problems == []
        assert "token=" not in page.url  # the token left the address bar
    finally:
        page.context.close()


def test_a_seat_link_alone_plays_on_a_phone_that_fits(table, browser):  # noqa: F811
    res = table.post(
        "/api/digital/new",
        {
            "players": ["Annabelle-Marie", "Bot Bartholomew", "Bot Cy"],
            "humans": [0],
            "seed": 17,
            "pace": 0,
            "confirm": True,
        },
    )
    page, problems = open_phone(browser, table.url + res["links"]["0"])
    try:
        page.wait_for_selector(".card[data-code='WDA']:not([disabled])", timeout=WAIT)
        assert "key=" not in page.url
        assert width(page) <= 360, f"/play (a seat) is {width(page)} px wide"
        assert "Your move" in page.inner_text("#says")
        page.click(".card[data-code='WDA']")  # no table token on this phone: the seat key acts
        page.wait_for_selector("#pressbox:not(.hidden)", timeout=WAIT)
        page.click("#press")  # the virtual Tinker Bell button, from the seat's own phone
        page.wait_for_function(
            "document.querySelector('#log').textContent.includes('Tinker')", timeout=WAIT
        )
        top = page.evaluate("document.querySelector('#says').getBoundingClientRect().top")
        assert 0 <= top < 740, "the table stays in view after an update"
        assert problems == []
    finally:
        page.context.close()


def test_a_reader_sees_no_write_control(table, browser):  # noqa: F811
    page, problems = open_phone(browser, table.url + "/enter")
    try:
        for control in ("#submit", "#undo", "#newgame", "[data-declare='RD2']", "#press"):
            assert not page.is_visible(control), control
        assert page.locator(".history button:visible").count() == 0
        assert page.is_visible("#notoken")
        page.fill("#tokenin", TOKEN)
        page.click("#tokensave")
        page.wait_for_selector("#newgame", state="visible", timeout=WAIT)
        assert problems == []
    finally:
        page.context.close()


def test_no_page_needs_an_emoji_font():
    """Debian's chromium (and a Pi kiosk) has no emoji font: 🏆 showed as an empty box. The
    pages use only characters DejaVu Sans has (▲ ■ ● ★ ◆ ✕ …): none outside the BMP, and no
    emoji presentation selector."""
    from pathlib import Path

    for folder in ("scoreboard/static", "digital/static"):
        for asset in Path(folder).iterdir():
            text = asset.read_text(encoding="utf-8")
            emoji = sorted({c for c in text if ord(c) > 0xFFFF or c == "\ufe0f"})
            assert not emoji, f"{asset.name} uses {emoji}"
