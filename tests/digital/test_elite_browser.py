"""UNO Elite on the /play page, in Debian's chromium at a 360 px phone's width: every Lineup,
the seat's own hand and Player Deck, every legal action as a button in the engine's words, and
the tally of wins on the page and the scoreboard. A real uvicorn, the real engine."""

from __future__ import annotations

import random

import pytest

from tests.helpers.browser import WAIT, chromium
from tests.helpers.web import TOKEN
from tests.scoreboard.test_browser import Served

pytestmark = pytest.mark.browser
PHONE = {"width": 360, "height": 740}


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture
def served(tmp_path):
    s = Served(tmp_path / "journal.sqlite3").start()
    yield s
    s.stop()


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    yield context.new_page()
    context.close()


def fits(page) -> bool:
    """Nothing wider than the screen: no sideways scrolling on the phone."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def start(served, mode="quick", seed=5, humans=(0,)):
    return served.post(
        "/api/digital/new",
        {
            "players": ["Ann", "Bo", "Cy"],
            "humans": list(humans),
            "bots": "greedy",
            "seed": seed,
            "pace": 0,
            "ruleset": "elite",
            "options": {"mode": mode},
        },
    )


@pytest.mark.parametrize("mode", ["quick", "draft"])
def test_a_person_plays_elite_on_a_phone_by_tapping_the_moves(served, phone, mode):
    res = start(served, mode)
    phone.goto(served.url + res["links"]["0"])
    phone.wait_for_selector("#actions button[data-action]", timeout=WAIT)
    session = served.app.state.digital
    game = session.link.game
    view = game.observation(0)
    assert phone.locator(".eseat").count() == 3
    for s, seat in enumerate(view["seats"]):
        box = phone.locator(f".eseat[data-seat='{s}']")
        assert f"Player Deck {seat['player_deck']}" in box.inner_text()
        assert box.locator(".elineup .ecard").count() == len(seat["lineup"])
    held = {c["code"] for c in view["hand"]}
    on_cards = [m for m in view["legal"] if m["card"] in held and not m["out_of_turn"]]
    words = [m["words"] for m in view["legal"] if m not in on_cards and not m["out_of_turn"]]
    written = [w[0].upper() + w[1:] for w in words]  # as a person writes them (issue 52)
    assert phone.locator("#actions button .words").all_inner_texts() == written
    for m in on_cards:  # a move naming a card of the hand is a tap on that card
        assert phone.locator(f"#hand .card[data-code='{m['card']}']:not([disabled])").count()
    assert phone.locator("#hand .card").count() == len(view["hand"])
    assert f"Player Deck {view['seats'][0]['player_deck']}" in phone.text_content("#handtitle")
    assert phone.is_visible("#notb") and "UNO Elite has no Tinker Bell" in phone.inner_text("#notb")
    assert phone.is_hidden("#handsbox") and phone.is_hidden("#pressbox")  # no points, no button
    assert fits(phone)
    if mode == "draft":
        assert phone.is_visible("#panels")
        assert "Draft: the cards showing" in phone.text_content("#panels")
    # a few moves by tapping, each one the engine takes
    for _ in range(4):
        if game.winner is not None or game.current_player() != 0:
            break
        before, shown = len(game.events), phone.evaluate("Number(document.body.dataset.version)")
        phone.locator("#actions button[data-action], #hand .card:not([disabled])").first.click()
        phone.wait_for_function(
            "(v) => Number(document.body.dataset.version) > v", arg=shown, timeout=WAIT
        )
        assert len(game.events) > before
        assert phone.inner_text("#message") == ""  # the engine took it: no refusal shown
        assert fits(phone)


def test_the_end_of_an_elite_game_shows_the_winner_and_the_tally(served, phone, browser):
    res = start(served, seed=9)
    phone.goto(served.url + res["links"]["0"])
    phone.wait_for_selector("#actions button[data-action]", timeout=WAIT)
    board = browser.new_context(viewport=PHONE).new_page()  # the scoreboard, open all along
    board.goto(served.url + "/")
    board.wait_for_selector(".status:text('live')", timeout=WAIT)
    assert board.is_hidden("#elitebox")
    session = served.app.state.digital
    key = res["keys"]["0"]
    rng = random.Random(3)
    while session.link.game.winner is None:  # the rest of the game, from the seat's view
        view = session.view(0, key)
        session.act(0, key, rng.choice(view["legal"])["action"])
    winner = session.view()["winner"]
    phone.wait_for_selector("#banner:not(.hidden)", timeout=WAIT)
    assert f"{winner} won UNO Elite" in phone.inner_text("#banner")
    phone.wait_for_selector(f"#tally li[data-name='{winner}']", timeout=WAIT)
    assert "1 win of 1" in phone.inner_text(f"#tally li[data-name='{winner}']")
    assert fits(phone)
    try:
        board.wait_for_selector("#elitebox:not(.hidden)", timeout=WAIT)  # live, no reload
        assert "1 win of 1" in board.inner_text(f"#elitewins li[data-name='{winner}']")
        assert board.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        board.context.close()


def test_a_spectator_sees_every_lineup_and_no_hand(served, browser):
    start(served, humans=(0, 1))
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(served.url + "/play")
        page.wait_for_selector(".eseat[data-seat='2']", timeout=WAIT)
        assert "watching" in page.inner_text("#who")
        assert page.locator("#hand .card").count() == 0
        assert page.locator("#actions button").count() == 0
        assert fits(page)
    finally:
        context.close()


def test_the_host_sets_up_elite_with_its_mode_and_no_target(served, browser):
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(f"{served.url}/play?new=1&token={TOKEN}")
        page.wait_for_selector("#start:not([disabled])", timeout=WAIT)
        page.select_option("#ruleset", "elite")
        assert page.is_visible("#modebox") and page.is_hidden("#targetbox")
        page.select_option("#mode", "draft")
        page.select_option("#bots", "random")
        assert fits(page)
        page.click("#start")
        # one person: the page goes straight to that seat's link (its hand and moves)
        page.wait_for_selector("#panels:not(.hidden)", timeout=WAIT)
        page.wait_for_selector("#actions button .words:text-matches('^Draft ')", timeout=WAIT)
        game = served.app.state.digital.link.game
        assert game.options["mode"] == "draft"
    finally:
        context.close()


def test_the_host_reopens_the_seat_links_of_an_elite_game(served, browser):
    res = start(served, humans=(0, 1))
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(f"{served.url}/play?token={TOKEN}")
        page.wait_for_selector("#showlinks:visible", timeout=WAIT)
        page.click("#showlinks")
        page.wait_for_selector("#seatlinksbox:not(.hidden) .seatlink img", timeout=WAIT)
        links = page.locator("#seatlinks a").evaluate_all(
            "els => els.map(a => a.getAttribute('href'))"
        )
        assert sorted(links) == sorted(res["links"].values())
        assert fits(page)
    finally:
        context.close()


@pytest.mark.parametrize("who", ["seat", "host", "reader"])
def test_long_names_fit_with_no_script_error_or_failed_request(served, browser, who):
    from tests.scoreboard.test_phone import open_phone

    res = served.post(
        "/api/digital/new",
        {
            "players": ["Annabelle-Marie", "Bot Bartholomew", "Bot Cy", "Dorothea-Wilhelmina"],
            "humans": [0],
            "seed": 21,
            "pace": 0,
            "ruleset": "elite",
            "options": {"mode": "draft"},
        },
    )
    url = {
        "seat": res["links"]["0"],
        "host": f"/play?token={TOKEN}",
        "reader": "/play",
    }[who]
    page, problems = open_phone(browser, served.url + url)
    try:
        page.wait_for_selector(".eseat[data-seat='3']", timeout=WAIT)
        assert fits(page), page.evaluate("document.documentElement.scrollWidth")
        assert problems == []
    finally:
        page.context.close()
