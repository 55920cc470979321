"""Digital play started as docs/display.md says, on a phone (issue 22, point 3): from
`/play?new=1` the host taps Start with one person, and the page lands on that person's seat with
the hand on the first screen; the seat nobody named has a name fit for a shared screen. For
every ruleset, in real Chromium at 360x740."""

from __future__ import annotations

import pytest

from tests.digital.test_elite_browser import PHONE, browser, served  # noqa: F401 (fixtures)
from tests.helpers.browser import WAIT
from tests.helpers.web import TOKEN

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("ruleset", ["disney", "elite"])
def test_one_person_started_from_new_lands_on_the_seat_with_the_hand_on_screen(
    served,  # noqa: F811
    browser,  # noqa: F811
    ruleset,
):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(f"{served.url}/play?new=1&token={TOKEN}")
        page.wait_for_selector("#start:not([disabled])", timeout=WAIT)
        page.select_option("#ruleset", ruleset)
        page.click("#start")
        page.wait_for_selector("#hand .card", timeout=WAIT)
        assert "new=1" not in page.url and page.is_hidden("#setup")
        assert page.inner_text("#who").startswith("Player 1, seat 1")
        first = page.locator("#hand .card").first.bounding_box()
        assert first is not None and first["y"] >= 0 and first["y"] + first["height"] <= 740, first
        assert "You" not in served.app.state.digital.link.game.players
    finally:
        context.close()


def test_the_page_says_when_moves_are_not_saved(served, browser, mocker):  # noqa: F811
    import sqlite3

    from scoreboard.journal import Journal, JournalWriteError

    res = served.post(
        "/api/digital/new",
        {"players": ["Ann", "Bo"], "humans": [0], "seed": 4, "pace": 0, "ruleset": "elite"},
    )
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(served.url + res["links"]["0"])
        page.wait_for_selector("#actions button[data-action]", timeout=WAIT)
        full = JournalWriteError(sqlite3.OperationalError("database or disk is full"))
        mocker.patch.object(Journal, "append_moves", side_effect=full)
        page.locator("#actions button[data-action]").first.click()
        page.wait_for_selector("#journalerr:not(.hidden)", timeout=WAIT)
        assert "not being saved (the disk is full" in page.inner_text("#journalerr")
        assert "Your move was not taken" in page.inner_text("#message")
    finally:
        context.close()


@pytest.mark.parametrize("ruleset", ["disney", "elite"])
def test_log_numbers_from_10_up_are_whole_on_a_phone(served, browser, ruleset):  # noqa: F811
    res = served.post(
        "/api/digital/new",
        {"players": ["Ann", "Bo", "Cy"], "humans": [], "seed": 2, "pace": 0, "ruleset": ruleset},
    )
    assert res["keys"] == {}  # bots only: the log fills at once
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(served.url + "/play")
        page.wait_for_selector("#log li:nth-child(10)", timeout=WAIT)
        room, needed = page.evaluate(
            """() => {
                const log = document.querySelector('#log');
                const probe = document.createElement('span');
                probe.textContent = `${log.children.length}. `;
                probe.style.font = getComputedStyle(log.children[0]).font;
                document.body.append(probe);
                const width = probe.getBoundingClientRect().width;
                probe.remove();
                return [parseFloat(getComputedStyle(log).paddingLeft), width];
            }"""
        )
        assert room >= needed, f"the log's numbers need {needed:.1f} px, have {room:.1f}"
    finally:
        context.close()


@pytest.mark.parametrize("size", [(360, 740), (1280, 800), (1920, 1080)], ids=str)
def test_the_new_game_form_has_start_on_the_first_screen_and_says_what_to_do(
    served,  # noqa: F811
    browser,  # noqa: F811
    size,
):
    """Issue 32: on a phone Start was below the fold, and the form opened with "The tray holds
    every hand". Now: what to do first, each seat on one line, Start without scrolling; the
    choice to press Tinker Bell for the bots only where the rules have her."""
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.goto(f"{served.url}/play?new=1&token={TOKEN}")
        page.wait_for_selector("#start:not([disabled])", timeout=WAIT)
        intro = page.inner_text("#setup p")
        assert intro.startswith("Name the players") and "tray holds" not in page.inner_text(
            "#setup"
        )
        start = page.locator("#start").bounding_box()
        assert start is not None and start["y"] + start["height"] <= height, start
        rows = page.eval_on_selector_all(
            ".seatrow",
            """rows => rows.map((r) => [...r.children].map((c) => {
                 const b = c.getBoundingClientRect(); return (b.top + b.bottom) / 2; }))""",
        )
        assert len(rows) == 3
        for middles in rows:  # each seat on one line: its parts side by side
            assert max(middles) - min(middles) < 12, middles
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert page.is_visible("#peoplepress")
        page.select_option("#ruleset", "elite")
        assert not page.is_visible("#peoplepress")  # UNO Elite has no Tinker Bell
    finally:
        context.close()


def test_classic_seats_up_to_twenty_and_deals_from_two_decks(served, browser):  # noqa: F811
    """Issue 41: "Classic with 11 to 20 players deals from two decks by itself": the setup's
    "+ player" goes up to 20 seats for classic (10 for the other rules), and a game of 12
    starts, dealt from the 216 cards; 6-Smackdown is a box to tick there."""
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(f"{served.url}/play?new=1&token={TOKEN}")
        page.wait_for_selector("#start:not([disabled])", timeout=WAIT)
        rows = page.locator("#seatrows .seatrow")
        for _ in range(12):
            page.click("#addseat")
        assert rows.count() == 10  # Disney: 2-10
        page.select_option("#ruleset", "classic")
        for _ in range(12):
            page.click("#addseat")
        assert rows.count() == 20
        for _ in range(8):
            page.locator("#seatrows button[aria-label^='remove seat']").last.click()
        assert rows.count() == 12
        page.check("#rule-six_smackdown")  # the house rule, offered for classic
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.click("#start")
        page.wait_for_selector("#hand .card", timeout=WAIT)
        game = served.app.state.digital.link.game
        assert game.rules.name == "classic" and len(game.players) == 12 and len(game.deck) == 216
        assert game.options["six_smackdown"] is True and "smackdown" in game.features
    finally:
        context.close()


def test_the_setup_offers_each_rulesets_own_seats_modes_and_house_rules():
    """The setup's list of rules is the registry's (`/api/digital/rulesets`, from
    `digital.games.choices`): each ruleset's own most players (`Ruleset.max_players`, UNO
    Elite's 10), its modes, the house rules it has (`Ruleset.options`), and whether Tinker Bell
    and a target score are offered; the page itself names no ruleset."""
    from pathlib import Path

    from digital.games import choices
    from engine.disney.rulesets import RULESETS

    offered = {c["name"]: c for c in choices({})}
    assert list(offered) == [*RULESETS, "elite"]
    assert {n: c["seats"][1] for n, c in offered.items()} == {
        **{name: r.max_players for name, r in RULESETS.items()},
        "elite": 10,
    }
    assert {n for n, c in offered.items() if c["house_rules"]} == {
        name for name, r in RULESETS.items() if "six_smackdown" in r.options
    }
    assert {n for n, c in offered.items() if c["tinker_bell"]} == {"disney"}
    assert {n for n, c in offered.items() if c["modes"]} == {"elite"}
    assert {n for n, c in offered.items() if c["points"]} == set(RULESETS)
    assert offered["elite"]["missing"]  # no cards handed to this session: it says which
    page = (Path(__file__).parents[2] / "digital/static").glob("play.*")
    for path in page:
        text = path.read_text()
        assert not any(f'"{name}"' in text for name in offered), path
