"""Every page the TV shows fits it (issue 52, point 6): a kiosk cannot scroll. The scoreboard
(`/`, the kiosk's page: image/, docs/install.md) and digital play's watch view (`/play`, a
screen with no seat), at 1280x800 and 1920x1080, in every state: before a game (the new game's
form with each ruleset, its most seats and its rules unfolded), in play with the most seats a
ruleset has and 24-character names with emoji, a pick awaited and shown, a game won; for every
ruleset digital play offers (and Colour Match, the test ruleset, while it is registered). Real
Chromium: the document's own height and width against the window's (no scroll), and no column
holding more than it shows. Also the 'live' badge over no text."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from engine import registry
from tests.colour_match import ENTRY as COLOUR_MATCH
from tests.helpers.browser import WAIT
from tests.scoreboard.test_browser import Served, browser  # noqa: F401 (fixture)
from tray.backend import COLOURS
from tray.events import Pick

pytestmark = pytest.mark.browser
TV = [(1280, 800), (1920, 1080)]
SIZES = pytest.mark.parametrize("size", TV, ids=lambda s: f"{s[0]}x{s[1]}")
RULESETS = ["disney", "classic", "official-2018", "elvis", "elite", COLOUR_MATCH.name]
EMOJI = ["🧚", "🦄", "🐉", "🌈", "👩‍🚀", "🏳️‍🌈", "🎉", "🐙", "🍕", "🚀", "👍🏽", "🦋"]
WORDS = [
    "Annabelle", "Bartholomew", "Christabel", "Dorothea", "Evangeline", "Fitzwilliam",
    "Guinevere", "Hildegarde", "Isambard", "Jacqueline", "Konstantin", "Leopoldine",
    "Maximilian", "Nebuchadnez", "Octavianus", "Persephone", "Quintilian", "Rosalinde",
    "Sebastiano", "Theodosius",
]  # fmt: skip
FITS = """() => {
  const e = document.documentElement;
  const cut = [...document.querySelectorAll('.play-main, .play-side, .left, .right')].filter(
    (c) => c.offsetParent && c.scrollHeight > c.clientHeight + 1).map((c) => c.className);
  return {height: e.scrollHeight, width: e.scrollWidth, room: innerHeight, across: innerWidth,
    cut};
}"""


def long_names(n: int) -> list[str]:
    """`n` names of the most a name may be (24 characters, `scoreboard.names`), each with an
    emoji (one a ZWJ sequence, one a skin tone): the widest a row or a seat gets."""
    names = []
    for i in range(n):
        name = f"{EMOJI[i % len(EMOJI)]} {WORDS[i]} " + "Wolfeschlegelstein"
        names.append(name[:24])
    return names


@pytest.fixture
def served(request, tmp_path) -> Iterator[Served]:
    """The display as the kiosk runs it, with a real tray; only `/tray`, the virtual tray's
    page, needs the display run with a virtual one (without, it is not there)."""
    virtual = (
        getattr(request.node, "callspec", None)
        and request.node.callspec.params.get("path") == "/tray"
    )
    s = Served(tmp_path / "journal.sqlite3", press=(lambda: None) if virtual else None).start()
    yield s
    s.stop()


@pytest.fixture
def offered(request) -> Iterator[None]:
    """Colour Match is offered while its case runs (as its own tests register it)."""
    ruleset = request.node.callspec.params.get("ruleset")
    if ruleset == COLOUR_MATCH.name:
        registry.register(COLOUR_MATCH)
    yield
    if ruleset == COLOUR_MATCH.name:
        registry.unregister(COLOUR_MATCH.name)


def tv(browser, size):  # noqa: F811
    width, height = size
    return browser.new_context(viewport={"width": width, "height": height}).new_page()


def assert_fits(page, what: str) -> None:
    page.wait_for_timeout(300)  # the last update drawn (the chart redraws to its room)
    got = page.evaluate(FITS)
    assert got["height"] <= got["room"], f"{what}: {got['height']} px tall on {got['room']} px"
    assert got["width"] <= got["across"], f"{what}: {got['width']} px wide on {got['across']} px"
    assert got["cut"] == [], f"{what}: a column holds more than it shows (scrolled within)"


def most_seats(ruleset: str) -> int:
    return registry.get(ruleset).seats[1]


def start_digital(
    served: Served, ruleset: str, humans: list[int], players: int, seed: int = 3
) -> dict:
    options = {"target": 30} if ruleset != "elite" and ruleset != COLOUR_MATCH.name else {}
    body = {"players": long_names(players), "humans": humans, "bots": "random", "seed": seed}
    body |= {"pace": 0, "ruleset": ruleset, "options": options, "confirm": True}
    return served.post("/api/digital/new", body)


def watched(served: Served) -> dict:
    res = httpx.get(served.url + "/api/digital/view")
    res.raise_for_status()
    return res.json()


def play_to_a_win(served: Served, ruleset: str, players: int) -> str:
    """A game of bots alone played to its end, the tray's picks published whenever it waits
    for Tinker Bell (this app has no tray); seed after seed until one has a winner (a game can
    end with nobody's winning, Colour Match's often). Returns the winner's name."""
    seq = 100
    for seed in range(3, 40):
        start_digital(served, ruleset, [], players, seed)
        deadline = time.monotonic() + 120  # generous: only a bound on a game that never ends
        while (view := watched(served))["awaiting"]["kind"] != "game_over":
            assert time.monotonic() < deadline, f"{ruleset}: the game did not end"
            if view["awaiting"]["kind"] == "tinker_bell":
                seq += 1
                served.bus.publish(Pick(seq=seq, colour=COLOURS[seq % 4], t=float(seq)))
            else:
                time.sleep(0.02)  # the bots' moves, in the link's own thread
        if view["winner"]:
            return view["winner"]
    raise AssertionError(f"{ruleset}: no seed's game had a winner")


SEATS_SHOWN = """(n) => document.querySelectorAll('#game:not(.hidden) #players .pl,'
  + ' #game:not(.hidden) #eseats:not(.hidden) .eseat').length === n"""


def test_the_rulesets_here_are_every_one_the_page_offers(served):
    """RULESETS is the list the cases below run over: none the page offers is left out."""
    res = httpx.get(served.url + "/api/digital/rulesets")
    res.raise_for_status()
    offered = [r["name"] for r in res.json()["rulesets"]]
    assert set(offered) | {COLOUR_MATCH.name} == set(RULESETS)


# ---------- the scoreboard, the kiosk's page ----------


def table_in_play(served: Served, players: int) -> None:
    """Ten seats of long names, a few hands, a pick on the swatch."""
    served.post("/api/new-game", {"players": long_names(players), "options": {"target": 500}})
    for hand in range(5):
        held = [None if x == hand else 5 + 3 * x for x in range(players)]
        served.post("/api/entry", {"kind": "hand", "winner": hand, "held": held})
    served.bus.publish(Pick(seq=1, colour="yellow", t=0.0))


@SIZES
def test_the_scoreboard_fits_before_a_game(served, browser, size):  # noqa: F811
    page = tv(browser, size)
    try:
        page.goto(served.url + "/")
        page.wait_for_selector(".status:text('live')", timeout=WAIT)
        assert_fits(page, "no game yet")
    finally:
        page.context.close()


@SIZES
def test_the_scoreboard_fits_ten_long_names_a_pick_and_the_win(served, browser, size):  # noqa: F811
    table_in_play(served, 10)
    page = tv(browser, size)
    try:
        page.goto(served.url + "/")
        page.wait_for_selector("#swatch.c-yellow", timeout=WAIT)
        assert page.locator(".score").count() == 10
        assert_fits(page, "in play, a pick showing")
        served.post(
            "/api/entry", {"kind": "hand", "winner": 0, "held": [None] + [520] * 9}
        )  # the game won: the banner
        page.wait_for_selector("#banner:not(.hidden)", timeout=WAIT)
        assert_fits(page, "won")
    finally:
        page.context.close()


@SIZES
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_scoreboard_fits_a_digital_game_of_each_ruleset(
    served,
    browser,  # noqa: F811
    offered,
    size,
    ruleset,
):
    start_digital(served, ruleset, [], most_seats(ruleset))
    page = tv(browser, size)
    try:
        page.goto(served.url + "/")
        page.wait_for_selector(".status:text('live')", timeout=WAIT)
        served.bus.publish(Pick(seq=1, colour="red", t=0.0))
        page.wait_for_selector("#swatch.c-red", timeout=WAIT)
        assert_fits(page, f"{ruleset}, the most seats")
    finally:
        page.context.close()


# ---------- digital play's watch view ----------


@SIZES
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_watch_view_fits_the_new_games_form(
    served,
    browser,  # noqa: F811
    offered,
    size,
    ruleset,
):
    """No game yet: the form, as it first shows, then with the ruleset chosen, a seat row for
    each seat it has room for, each a long name, and its "More of the rules" unfolded."""
    seats = most_seats(ruleset)
    page = tv(browser, size)
    try:
        page.goto(served.url + "/play")
        page.wait_for_selector("#setup:not(.hidden) #seatrows input", timeout=WAIT)
        page.wait_for_selector(f"#ruleset option[value='{ruleset}']", state="attached")
        assert_fits(page, "the new game's form, as it first shows")
        page.select_option("#ruleset", ruleset)
        while page.locator("#seatrows .seatrow").count() < seats:
            page.click("#addseat")
        assert page.locator("#seatrows .seatrow").count() == seats
        for i, name in enumerate(long_names(seats)):
            page.fill(f"#seatrows .seatrow:nth-child({i + 1}) input[type=text]", name)
        if page.is_visible("#morerules"):
            page.click("#morerules summary")
            page.wait_for_selector("#morerules[open] #moreoptions", timeout=WAIT)
        assert_fits(page, f"the new game's form, {ruleset}, {seats} seats")
    finally:
        page.context.close()


@SIZES
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_watch_view_fits_the_most_seats_in_play_and_won(
    served,
    browser,  # noqa: F811
    offered,
    size,
    ruleset,
):
    seats = most_seats(ruleset)
    start_digital(served, ruleset, [0], seats)  # a person's seat: the game waits for them
    page = tv(browser, size)
    try:
        page.goto(served.url + "/play")
        page.wait_for_function(SEATS_SHOWN, arg=seats, timeout=WAIT)
        assert_fits(page, f"{ruleset}, {seats} seats in play")
        winner = play_to_a_win(served, ruleset, seats)
        page.wait_for_selector("#over:not(.hidden)", timeout=WAIT)
        assert winner in page.inner_text("#banner")
        assert_fits(page, f"{ruleset}, {seats} seats, won")
    finally:
        page.context.close()


@SIZES
def test_the_watch_view_fits_a_pick_awaited_and_shown(served, browser, size):  # noqa: F811
    """Disney's Tinker Bell: the people press for the bots' cards, so the page asks for the
    press (its box) and then shows the pick."""
    body = {"players": long_names(10), "humans": [], "bots": "random", "seed": 3, "pace": 0}
    served.post("/api/digital/new", body | {"ruleset": "disney", "bots_press": False})
    page = tv(browser, size)
    try:
        page.goto(served.url + "/play")
        page.wait_for_selector("#pressbox:not(.hidden)", timeout=30_000)
        assert_fits(page, "the press awaited")
        served.bus.publish(Pick(seq=1, colour="green", t=0.0))
        # the pick in the log (the bots play on, so the press may be awaited again at once)
        page.wait_for_selector("#log li:text('Tinker Bell chose green')", timeout=WAIT)
        assert_fits(page, "the pick shown")
    finally:
        page.context.close()


# ---------- the 'live' badge ----------

BADGE = """() => {
  const box = (e) => e.getBoundingClientRect();
  const badge = box(document.querySelector('.status'));
  const over = [...document.querySelectorAll('body *')].filter((e) => {
    const shown = e.offsetParent || getComputedStyle(e).position === 'fixed';
    if (e.closest('.status') || !shown) return false;
    const text = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!text && !['INPUT', 'BUTTON', 'SELECT', 'IMG'].includes(e.tagName)) return false;
    const r = box(e);
    return r.width && r.left < badge.right && badge.left < r.right && r.top < badge.bottom
      && badge.top < r.bottom;
  });
  return over.map((e) => e.tagName + ' ' + (e.id || e.className) + ': ' + e.textContent.trim());
}"""


@pytest.mark.parametrize("path", ["/", "/play", "/enter", "/tray"])
@pytest.mark.parametrize("size", [*TV, (360, 740)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_live_badge_is_over_no_text(served, browser, path, size):  # noqa: F811
    served.post("/api/new-game", {"players": long_names(4), "options": {"target": 500}})
    page = tv(browser, size)
    try:
        page.goto(served.url + path)
        page.wait_for_selector(".status:text('live')", timeout=WAIT)
        assert page.evaluate(BADGE) == []
    finally:
        page.context.close()
