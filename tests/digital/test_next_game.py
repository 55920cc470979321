"""The end of a digital game and the start of the next (issue 41, items 8 and 9), in Debian's
Chromium on a real uvicorn: the host who played a seat starts the next game; on a 360x640 phone
the winner is on the first screen however far down the page was, and after "Start the game" the
first screen says the game started with the seat links under it; the TV's /play after a game
uses its 1920 px and says what comes next; a seat's link of the last game shows no hand of the
next one. The pages stay clean under axe's audit."""

from __future__ import annotations

import json
import random
import threading

import httpx
import pytest

from tests.browser_audit.axe import require_axe, serious_violations
from tests.digital.test_elite_browser import browser, served  # noqa: F401 (fixtures)
from tests.helpers.browser import WAIT
from tests.helpers.digital import Picks, play_out
from tests.helpers.web import TOKEN

pytestmark = pytest.mark.browser
PHONE = {"width": 360, "height": 640}
TV = {"width": 1920, "height": 1080}


def new_game(server, humans, ruleset="elite", players=("Ann", "Bo", "Cy"), confirm=False):
    return server.post(
        "/api/digital/new",
        {"players": list(players), "humans": list(humans), "bots": "greedy", "seed": 5,
         "pace": 0, "ruleset": ruleset, "confirm": confirm},
    )  # fmt: skip


def finish(server, key, seat=0):
    """Seat `seat` plays from its own view (the button pressed when asked) until the end."""
    session = server.app.state.digital
    play_out(session, Picks(server.bus, random.Random(1)), seat, key, random.Random(2))
    assert session.over


def on_screen(page, selector: str) -> bool:
    """The element is visible and wholly inside the viewport as the page stands (scrolled)."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return (
        page.is_visible(selector)
        and box is not None
        and box["y"] >= 0
        and box["y"] + box["height"] <= size["height"]
        and box["x"] >= 0
        and box["x"] + box["width"] <= size["width"]
    )


@pytest.fixture
def at(served, browser):  # noqa: F811
    """`at(viewport, *paths, host=True)`: a page of this server, closed after the test."""
    pages = []

    def make(viewport, *paths, host=True):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        pages.append(page)
        for path in [f"/play?token={TOKEN}"] * host + list(paths):
            page.goto(served.url + path)
            page.wait_for_selector(".status:text('live')", timeout=WAIT)
        return page

    yield make
    for page in pages:
        page.context.close()


# ---------------------------------------------------------------------- item 8
def test_the_host_who_played_a_seat_starts_the_next_game(served, at):  # noqa: F811
    """Once the host's phone held a seat, New game (/play?new=1) and the scoreboard's "play
    against bots" (/play) showed the finished game again; now both lead to the form."""
    first = new_game(served, [0])
    phone = at(PHONE, first["links"]["0"])
    phone.wait_for_selector("#hand .card", timeout=WAIT)
    finish(served, first["keys"]["0"])
    phone.wait_for_selector("#banner", timeout=WAIT)
    assert phone.evaluate("(async () => (await Tinker.whoami(true)).seats)()") == [0]

    phone.goto(served.url + "/play?new=1")  # the game's own "New game" link
    phone.wait_for_selector("#start:not([disabled])", timeout=WAIT)
    assert phone.is_visible("#setup") and not phone.is_visible("#game")

    phone.goto(served.url + "/play")  # "play against bots", from the scoreboard
    phone.wait_for_selector("#nextgame", timeout=WAIT)
    assert on_screen(phone, "#nextgame")
    phone.click("#nextgame")
    phone.wait_for_selector("#start:not([disabled])", timeout=WAIT)
    phone.select_option("#ruleset", "elite")
    phone.click("#start")  # one person: straight to the new seat
    phone.wait_for_selector("#hand .card", timeout=WAIT)
    session = served.app.state.digital
    assert not session.over and session.keys[0] != first["keys"]["0"]
    assert phone.inner_text("#who").startswith("Player 1, seat 1")


def test_a_seat_link_of_the_last_game_shows_no_hand_of_the_next(served, at):  # noqa: F811
    """A guest's phone still open on seat 2 of the last game, when the host starts the next:
    it says so and shows no hand (the stream went on sending that seat's new hand before)."""
    first = new_game(served, [0, 1])
    guest = at(PHONE, first["links"]["1"], host=False)
    guest.wait_for_selector("#hand .card", timeout=WAIT)
    new_game(served, [0, 1], players=("Zed", "Yu", "Cy"), confirm=True)
    guest.wait_for_selector("#message:has-text('this seat\\'s link was for the last one')",
                            timeout=WAIT)  # fmt: skip
    assert guest.locator("#hand .card").count() == 0
    assert guest.inner_text("#who") == "watching (no hand shown)"


def test_a_stream_opened_with_the_last_games_key_gets_no_hand_of_the_next(served):  # noqa: F811
    first = new_game(served, [0])
    views: list[dict] = []
    arrived = threading.Condition()

    def listen():
        headers = {"X-Seat-Key": first["keys"]["0"]}
        with httpx.stream("GET", f"{served.url}/api/digital/events", headers=headers,
                          timeout=30) as reply:  # fmt: skip
            for line in reply.iter_lines():
                if line.startswith("data:"):
                    with arrived:
                        views.append(json.loads(line[5:]))
                        arrived.notify_all()
                    if views[-1]["players"][0]["name"] == "Zed":
                        return

    reader = threading.Thread(target=listen, daemon=True)
    reader.start()
    with arrived:
        assert arrived.wait_for(lambda: views, timeout=WAIT / 1000)
    assert views[0]["seat"] == 0 and views[0]["hand"]
    new_game(served, [0], players=("Zed", "Yu", "Cy"), confirm=True)
    with arrived:
        assert arrived.wait_for(lambda: views[-1]["players"][0]["name"] == "Zed", WAIT / 1000)
    assert views[-1]["seat"] is None and not views[-1].get("hand")
    reader.join(WAIT / 1000)


# ---------------------------------------------------------------------- item 9
@pytest.mark.parametrize(("ruleset", "host"), [("disney", False), ("elite", True)])
def test_the_end_of_a_game_is_on_a_phones_first_screen(served, at, ruleset, host):  # noqa: F811
    """The winner was at y=1535 of a 1626 px page; now at the top, scrolled to from wherever
    the page was, with the next step: the host's button, or who starts the next game."""
    first = new_game(served, [0], ruleset=ruleset)
    phone = at(PHONE, first["links"]["0"], host=host)
    phone.wait_for_selector("#hand .card", timeout=WAIT)
    phone.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert phone.evaluate("window.scrollY") > 0  # down at the log
    finish(served, first["keys"]["0"])
    phone.wait_for_selector("#banner", timeout=WAIT)
    assert on_screen(phone, "#banner")
    winner = served.app.state.digital.view_for(None)["winner"]
    assert winner in phone.inner_text("#banner")
    assert phone.evaluate("document.activeElement.id") == "over"
    if host:
        assert on_screen(phone, "#nextgame")
    else:
        assert not phone.is_visible("#nextgame")
        assert "The host starts the next game" in phone.inner_text("#over")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_after_start_the_first_screen_says_the_game_started_with_its_links(served, at):  # noqa: F811
    """Several people: the seat links and QR codes came below the form, and nothing on the
    first screen said the game had started."""
    phone = at(PHONE, "/play?new=1")
    phone.wait_for_selector("#start:not([disabled])", timeout=WAIT)
    phone.check(".seatrow:nth-child(2) input[type=checkbox]")  # Bot Bea is a person too
    phone.click("#start")
    phone.wait_for_selector("#started", timeout=WAIT)
    assert on_screen(phone, "#startedtitle")
    assert phone.inner_text("#startedtitle").lower() == "the game has started"
    assert "Player 1, Bot Bea" in phone.inner_text("#startedsays")
    assert on_screen(phone, "#links .seatlink:first-child a")
    assert on_screen(phone, "#links .seatlink:first-child img")
    assert not phone.is_visible("#setup")
    hrefs = phone.eval_on_selector_all("#links .seatlink a", "as => as.map((a) => a.href)")
    keys = served.app.state.digital.keys
    assert hrefs == [f"{served.url}/play?key={keys[s]}" for s in (0, 1)]


def test_the_tv_after_a_game_uses_its_width_and_says_what_comes_next(served, at):  # noqa: F811
    """It said "Open your seat's link to play." in a phone's column in the middle of 1920 px."""
    first = new_game(served, [0])
    finish(served, first["keys"]["0"])
    tv = at(TV, "/play")
    tv.wait_for_selector("#banner", timeout=WAIT)
    assert on_screen(tv, "#banner") and on_screen(tv, "#nextgame")
    says = tv.inner_text("#actions")
    assert "Open your seat's link" not in says and "start the next one" in says
    game = tv.locator("#game").bounding_box()
    table = tv.locator(".play-main").bounding_box()
    side = tv.locator(".play-side").bounding_box()
    assert game["width"] >= 0.9 * (TV["width"] - 60), game  # (less the page's margins)
    assert side["x"] >= table["x"] + table["width"], (table, side)  # beside it, not below
    assert side["y"] < TV["height"] / 2


@pytest.mark.parametrize("viewport", [PHONE, TV], ids=["phone", "tv"])
def test_the_end_and_the_start_pass_the_accessibility_audit(served, at, viewport):  # noqa: F811
    require_axe()
    first = new_game(served, [0])
    finish(served, first["keys"]["0"])
    page = at(viewport, "/play")
    page.wait_for_selector("#banner", timeout=WAIT)
    assert serious_violations(page) == []
    page.goto(served.url + "/play?new=1")
    page.wait_for_selector("#start:not([disabled])", timeout=WAIT)
    page.check(".seatrow:nth-child(2) input[type=checkbox]")
    page.click("#start")
    page.wait_for_selector("#started", timeout=WAIT)
    assert serious_violations(page) == []
