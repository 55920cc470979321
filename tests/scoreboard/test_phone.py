"""Every page on a 360 px phone in real Chromium: nothing scrolls sideways, nothing fails to
load (no missing favicon), no script error; and what each role sees."""

from __future__ import annotations

import httpx
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
        for part in ("#press", "#hand .card"):  # what to act on, and the hand, on the first screen
            box = page.locator(part).first.bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740, (
                part,
                box,
            )
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


def test_the_keyboard_and_enter_hand_are_on_the_first_screen_for_each_player(table, browser):  # noqa: F811
    """Bartholomew went out; for each of the three others in turn: tap them, tap a card. Before
    each player's first card, the keyboard and "Enter hand" are on the first screen, without a
    scroll; every key is at least 44 px and its label fits it."""
    page, problems = open_phone(browser, f"{table.url}/enter?token={TOKEN}")
    try:
        page.click("#winners button[data-seat='1']")
        for seat in (0, 2, 3):
            page.click(f".seat[data-seat='{seat}'] .who")
            got = page.evaluate(FIRST_SCREEN)
            assert got["scrollY"] == 0
            assert got["keys"] and max(got["keys"]) <= 740, f"a key below the fold: {got}"
            assert got["submit"] <= 740, f"Enter hand at {got['submit']}"
            assert min(got["sizes"]) >= 44, got["sizes"]
            assert got["overflowing"] == [], got["overflowing"]
            page.click("#keytabs [data-colour='blue']")
            page.click("[data-code='BS']")  # a blue Skip
            assert page.inner_text(f"[data-sum='{seat}']") == "20"
        assert problems == []
    finally:
        page.context.close()


FIRST_SCREEN = """() => {
  const shown = [...document.querySelectorAll('#keys .key, #keytabs button')]
    .filter((k) => k.offsetParent);
  return {
    scrollY: window.scrollY,
    keys: shown.map((k) => k.getBoundingClientRect().bottom),
    submit: document.getElementById('submit').getBoundingClientRect().bottom,
    sizes: shown.flatMap((k) => [k.getBoundingClientRect().width,
                                 k.getBoundingClientRect().height]),
    overflowing: shown.filter((k) => k.scrollWidth > k.clientWidth).map((k) => k.textContent),
  };
}"""


def test_the_hands_table_with_four_players_fits_with_whole_numbers(table, browser):  # noqa: F811
    for winner in (3, 0, 1, 2, 3, 0, 1):  # hands 4 to 10: two-digit numbers
        held = [None if x == winner else 3 for x in range(4)]
        table.post("/api/entry", {"kind": "hand", "winner": winner, "held": held})
    page, problems = open_phone(browser, f"{table.url}/enter?token={TOKEN}")
    try:
        page.wait_for_selector(".history tbody tr:nth-child(10)", timeout=WAIT)
        got = page.evaluate(
            """() => { const box = document.getElementById('history');
              const cut = [...box.querySelectorAll('td, th')]
                .filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent);
              const first = [...box.querySelectorAll('tbody tr td:first-child')];
              return {box: box.clientWidth, table: box.querySelector('table').scrollWidth, cut,
                      numbers: first.map((c) => c.firstChild.textContent)}; }"""
        )
        assert got["table"] <= got["box"], f"the table is {got['table']} px in {got['box']} px"
        assert got["cut"] == []
        assert got["numbers"] == [str(n) for n in range(1, 11)]
        assert width(page) <= 360
        assert problems == []
    finally:
        page.context.close()


def test_a_guest_sees_no_tinker_bell_button_that_would_refuse_the_tap(table, browser):  # noqa: F811
    guest, problems = open_phone(browser, table.url + "/tray")
    host, _ = open_phone(browser, f"{table.url}/tray?token={TOKEN}")
    try:
        assert not guest.is_visible("#tinker") and guest.is_visible("#guest")
        assert host.is_visible("#tinker") and not host.is_visible("#guest")
        assert problems == []
    finally:
        guest.context.close()
        host.context.close()


def test_labels_on_unlit_lights_are_readable(table, browser):  # noqa: F811
    page, _ = open_phone(browser, f"{table.url}/tray")
    try:
        ratios = page.evaluate(CONTRASTS)
        assert len(ratios) == 4
        assert min(ratios) >= 4.5, ratios  # WCAG AA for the unlit lights' labels
    finally:
        page.context.close()


CONTRASTS = """() => {
  // Chromium gives a color-mix() as color(srgb r g b) with 0..1 channels, others as rgb().
  const rgb = (css) => {
    const srgb = css.match(/color\\(srgb ([\\d.]+) ([\\d.]+) ([\\d.]+)/);
    if (srgb) return srgb.slice(1, 4).map(Number);
    return css.match(/[\\d.]+/g).slice(0, 3).map((v) => Number(v) / 255);
  };
  const lum = (c) => { const [r, g, b] = c.map((v) =>
    v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  // what shows through: the light's colours, faded by its opacity into the page's background
  const page = rgb(getComputedStyle(document.body).backgroundColor);
  return [...document.querySelectorAll('.light:not(.on)')].map((l) => {
    const s = getComputedStyle(l);
    const seen = (c) => rgb(c).map((v, i) => s.opacity * v + (1 - s.opacity) * page[i]);
    const [a, b] = [lum(seen(s.color)), lum(seen(s.backgroundColor))].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
  });
}"""


def test_the_scoreboard_links_to_digital_play(table, browser):  # noqa: F811
    page, _ = open_phone(browser, table.url + "/")
    try:
        page.click("a[href='/play']")
        page.wait_for_url("**/play", timeout=WAIT)
    finally:
        page.context.close()


WORDS_SPLIT = """() => [...document.querySelectorAll('#history th, #history .dealt-here')]
  .flatMap((cell) => {
    const text = cell.firstChild && cell.firstChild.nodeType === 3 ? cell.firstChild : null;
    if (!text) return [];
    const line = (i) => {  // the line character i is on
      const range = document.createRange();
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      const rects = [...range.getClientRects()];
      return rects.length ? Math.round(rects[rects.length - 1].top) : null;
    };
    const split = [];  // a line break inside a word: not after a space, a hyphen or a soft one
    for (let i = 1; i < text.length; i++) {
      const between = /[\\s\\u00ad-]/.test(text.data[i - 1]) || /\\s/.test(text.data[i]);
      if (!between && line(i) !== line(i - 1)) {
        split.push(text.data.slice(0, i) + "/" + text.data.slice(i));
      }
    }
    return split;
  })"""


@pytest.mark.parametrize(
    "players",
    [["Mum", "Dad", "Max", "Zoe"], ["Annabelle-Marie", "Bartholomew", "Cy", "Dorothea"]],
    ids=["short", "long"],
)
def test_no_name_in_the_hands_table_breaks_inside_a_word(table, browser, players):  # noqa: F811
    """Issue 32: at 360 px the 4-player hands table broke names mid-word ("Mu/m", "Da/d")."""
    table.post("/api/new-game", {"players": players, "confirm": True})
    for winner in (0, 1, 2, 3):
        held = [None if x == winner else 12 for x in range(4)]
        table.post("/api/entry", {"kind": "hand", "winner": winner, "held": held})
    page, problems = open_phone(browser, f"{table.url}/enter?token={TOKEN}")
    try:
        page.wait_for_selector(".history tbody tr:nth-child(4)", timeout=WAIT)
        assert page.evaluate(WORDS_SPLIT) == []
        box = page.evaluate(
            "(() => { const b = document.getElementById('history');"
            " return [b.clientWidth, b.querySelector('table').scrollWidth]; })()"
        )
        assert box[1] <= box[0], f"the table is {box[1]} px in {box[0]} px"
        assert width(page) <= 360 and problems == []
    finally:
        page.context.close()


def test_a_hand_a_player_scored_nothing_in_shows_only_their_total(table, browser):  # noqa: F811
    """The hands table on a phone: a cell is what the player scored over their running total;
    where they scored nothing it is the total alone, with no stray "·" above it (issue 41.13),
    and the one who went out keeps the star."""
    page, problems = open_phone(browser, f"{table.url}/enter?token={TOKEN}")
    try:
        page.wait_for_selector(".history tbody tr:nth-child(3)", timeout=WAIT)
        cells = page.evaluate(
            """() => [...document.querySelectorAll('.history tbody tr')].map((row) =>
                 [...row.querySelectorAll('td')].slice(2, 6).map((c) => c.innerText.trim()))"""
        )
        view = httpx.get(f"{table.url}/api/view", headers={"X-Table-Token": TOKEN}).json()
        for hand, row in zip(view["hands"], cells, strict=True):
            for seat, text in enumerate(row):
                total = str(hand["totals"][seat])
                if seat == hand["winner"]:
                    assert text.split() == ["★", f"+{hand['scored'][seat]}", total], text
                else:
                    assert text == total, f"hand {hand['number']}, seat {seat}: {text!r}"
        assert problems == []
    finally:
        page.context.close()
