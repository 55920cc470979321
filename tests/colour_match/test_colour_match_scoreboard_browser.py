"""Issue 49 in real Chromium: a table starts a Colour Match game on a 360 x 740 phone, taps a
hand in with Colour Match's own keys (its forty cards, no Disney card among them, no empty
Wild tab), and the TV's scoreboard shows its totals and its rules, read through the core's
score-sheet protocol by pages that name no ruleset."""

from __future__ import annotations

import pytest

from tests.helpers.browser import WAIT
from tests.helpers.seen import PHONE
from tests.helpers.web import TOKEN
from tests.scoreboard.test_browser import Served, browser  # noqa: F401 (fixture)

pytestmark = pytest.mark.browser


@pytest.fixture
def table(tmp_path):
    s = Served(tmp_path / "journal.sqlite3").start()
    yield s
    s.stop()


def test_a_colour_match_game_is_entered_with_its_own_keys_and_shown_on_the_tv(table, browser):  # noqa: F811
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.goto(f"{table.url}/enter?token={TOKEN}")
    phone.wait_for_selector(".status:text('live')", timeout=WAIT)
    before = "#keys button[data-code='VD4']"  # the Disney tray's keys, shown before the game
    phone.wait_for_selector(before, state="attached", timeout=WAIT)
    phone.select_option("#ruleset", "colour-match")
    phone.fill("#names", "Ann, Bea")
    phone.click("#newgame")
    phone.wait_for_selector(before, state="detached", timeout=WAIT)
    codes = phone.eval_on_selector_all(
        "#keys button[data-code]", "(b) => b.map((k) => k.dataset.code)"
    )
    assert len(codes) == 40 and "VD4" not in codes and "R7" in codes, codes
    tabs = phone.eval_on_selector_all("#keytabs button", "(b) => b.map((t) => t.dataset.colour)")
    assert tabs == ["red", "blue", "green", "yellow"]

    phone.click("#winners button[data-seat='0']")  # Ann went out; Bea is selected
    phone.click("#keys button[data-code='R7']")
    phone.click(".keytab[data-colour='blue']")
    phone.click("#keys button[data-code='B2']")
    phone.click("#submit")
    phone.wait_for_function("() => document.body.dataset.version > '1'", timeout=WAIT)
    hand = [x.entry for x in table.journal.entries(table.journal.latest_game())][-1]
    assert hand == {"kind": "hand", "winner": 0, "held": [None, ["R7", "B2"]]}

    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(table.url)
    tv.wait_for_selector(".status:text('live')", timeout=WAIT)
    said = "() => document.body.innerText.includes('the numbers left in the others')"
    tv.wait_for_function(said, timeout=WAIT)  # Colour Match's rules, in its own words
    text = tv.inner_text("body")
    assert "Ann" in text and "9" in text and "the first to 500 wins" in text  # the form's target


def test_a_colour_match_game_played_for_points_shows_its_hands_and_asks_for_none(table, browser):  # noqa: F811
    """Played on /play, its hands arrive on the entry page and the TV from its record: the
    phone says where they come from, and offers no hand to enter, edit or strike."""
    new = {
        "players": ["Ann", "Bea"], "humans": [], "bots": "greedy", "ruleset": "colour-match",
        "options": {"target": 30}, "seed": 4, "pace": 0,
    }  # fmt: skip
    table.post("/api/digital/new", new)
    game = table.app.state.digital.link.game
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.goto(f"{table.url}/enter?token={TOKEN}")
    phone.wait_for_selector("#playednote:visible", timeout=WAIT)
    phone.wait_for_function("() => !!document.querySelector('#history table')", timeout=WAIT)
    assert phone.is_hidden("#handform")
    rows = phone.eval_on_selector_all("#history tbody tr", "(r) => r.length")
    assert rows == len(game.finished_hands()) >= 1
    assert phone.eval_on_selector_all("#history button", "(b) => b.length") == 0
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width  # nothing wider than the phone

    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(table.url)
    tv.wait_for_selector(".status:text('live')", timeout=WAIT)
    winner = ["Ann", "Bea"][game.winner]
    tv.wait_for_function(f"() => document.body.innerText.includes('{winner} wins')", timeout=WAIT)
    assert str(max(game.totals)) in tv.inner_text("body")
