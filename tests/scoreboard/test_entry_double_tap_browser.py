"""Issue 52 on a 360 x 740 phone in real Chromium: a double tap of Enter hand, Undo or New game
writes once (the button is busy while its request runs, and a try again after a lost answer
carries the same Idempotency-Key, which the display answers without writing again); Redo brings
back what Undo took; and every refusal of the entry page's forms is seen beside its button.

A request the test holds (Playwright's `route`) stays unanswered for as long as the test
wishes, so "the second tap comes while the first is under way" is a fact here, not a race."""

from __future__ import annotations

import pytest

from tests.helpers.browser import WAIT
from tests.helpers.seen import PHONE, seen_beside
from tests.helpers.web import TOKEN
from tests.scoreboard.test_browser import Served, browser  # noqa: F401 (fixture)

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bea", "Cy"]


@pytest.fixture
def table(tmp_path):
    s = Served(tmp_path / "journal.sqlite3").start()
    s.post("/api/new-game", {"players": PLAYERS})
    yield s
    s.stop()


@pytest.fixture
def phone(browser, table):  # noqa: F811
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.dialogs = []  # type: ignore[attr-defined]

    def answer(dialog):
        page.dialogs.append(dialog.message)  # type: ignore[attr-defined]
        dialog.accept()

    page.on("dialog", answer)
    page.goto(f"{table.url}/enter?token={TOKEN}")
    page.wait_for_selector(".status:text('live')", timeout=WAIT)
    page.wait_for_selector("#winners button[data-seat='0']", timeout=WAIT)
    yield page
    context.close()


class Held:
    """The page's requests to `path`, held unanswered until `release()` (then let through)."""

    def __init__(self, page, path):
        self.page, self.routes, self.keys, self.released = page, [], [], False
        page.route(f"**{path}", self._held)

    def _held(self, route):
        self.keys.append(route.request.headers.get("idempotency-key"))
        if self.released:
            route.continue_()
        else:
            self.routes.append(route)

    def wait(self, count=1):
        while len(self.routes) < count:
            self.page.wait_for_timeout(20)  # Playwright delivers the route meanwhile

    def release(self):
        self.released = True
        for route in self.routes:
            route.continue_()


def hands(table):
    return [x.entry for x in table.journal.entries(table.journal.latest_game())]


def scoring(table):
    return [e["kind"] for e in hands(table) if e["kind"] != "start"]


def totals(table):
    return [p["total"] for p in table.journal and table.app.state.session.view()["players"]]


def fill_hand(page, bea=27):
    page.click("#winners button[data-seat='0']")  # Ann went out
    page.fill(".seat[data-seat='1'] input", str(bea))
    page.fill(".seat[data-seat='2'] input", "0")


def double(page, selector, how):
    if how == "dblclick":
        page.dblclick(selector)
    else:  # two taps in one go, the second before anything could answer the first
        page.eval_on_selector(selector, "(b) => { b.click(); b.click(); }")


def wait_said(page, text):
    page.wait_for_selector(f"#message .ok:text('{text}')", timeout=WAIT)


@pytest.mark.parametrize("how", ["dblclick", "two clicks"])
def test_a_double_tap_of_enter_hand_enters_it_once(table, phone, how):
    fill_hand(phone)
    held = Held(phone, "/api/entry")
    double(phone, "#submit", how)
    held.wait()
    assert phone.get_attribute("#submit", "aria-busy") == "true"
    assert phone.is_disabled("#submit")
    held.release()
    wait_said(phone, "Hand entered.")
    assert len(held.keys) == 1 and scoring(table) == ["hand"]
    assert totals(table) == [27, 0, 0]  # Ann's 27, not 54
    assert phone.get_attribute("#submit", "aria-busy") is None and phone.is_enabled("#submit")


def test_a_double_tap_unheld_enters_the_hand_once(table, phone):
    fill_hand(phone)
    phone.dblclick("#submit")
    wait_said(phone, "Hand entered.")
    phone.wait_for_selector(".history tbody tr", timeout=WAIT)
    assert scoring(table) == ["hand"]


def test_a_lost_answer_is_sent_again_with_its_key_and_written_once(table, phone):
    fill_hand(phone)
    keys = []

    def lose_the_first_answer(route):
        keys.append(route.request.headers.get("idempotency-key"))
        if len(keys) == 1:
            route.fetch()  # the display gets it, and writes...
            route.abort("connectionreset")  # ...and the phone never hears back
        else:
            route.continue_()

    phone.route("**/api/entry", lose_the_first_answer)
    phone.click("#submit")
    wait_said(phone, "Hand entered.")
    assert len(keys) == 2 and keys[0] == keys[1] and len(keys[0]) == 32
    assert scoring(table) == ["hand"]


@pytest.mark.parametrize("how", ["dblclick", "two clicks"])
def test_a_double_tap_of_undo_takes_back_one_hand_and_redo_brings_it_back(table, phone, how):
    table.post("/api/entry", {"kind": "hand", "winner": 0, "held": [None, 27, 0]})
    table.post("/api/entry", {"kind": "hand", "winner": 1, "held": [9, None, 0]})
    phone.wait_for_selector(".history tbody tr:nth-child(2)", timeout=WAIT)
    held = Held(phone, "/api/entry")
    double(phone, "#undo", how)
    held.wait()
    assert phone.get_attribute("#undo", "aria-busy") == "true"
    held.release()
    wait_said(phone, "Undone")
    assert len(held.keys) == 1 and scoring(table) == ["hand", "hand", "undo"]
    assert totals(table) == [27, 0, 0]
    phone.wait_for_selector("#redo:visible", timeout=WAIT)
    double(phone, "#redo", how)  # Redo too counts once
    wait_said(phone, "Redone.")
    phone.wait_for_selector("#redo", state="hidden", timeout=WAIT)
    assert totals(table) == [27, 9, 0]
    assert scoring(table) == ["hand", "hand", "undo", "hand"]


def test_redo_goes_once_a_new_hand_is_entered(table, phone):
    table.post("/api/entry", {"kind": "hand", "winner": 0, "held": [None, 27, 0]})
    phone.wait_for_selector(".history tbody tr", timeout=WAIT)
    phone.click("#undo")
    phone.wait_for_selector("#redo:visible", timeout=WAIT)
    fill_hand(phone, bea=5)
    phone.click("#submit")
    wait_said(phone, "Hand entered.")
    phone.wait_for_selector("#redo", state="hidden", timeout=WAIT)
    assert totals(table) == [5, 0, 0]


def test_redo_survives_a_restart_of_the_display(table, phone):
    table.post("/api/entry", {"kind": "hand", "winner": 0, "held": [None, 27, 0]})
    table.post("/api/entry", {"kind": "undo"})
    table.stop()
    table.start()
    phone.reload()
    phone.wait_for_selector("#redo:visible", timeout=WAIT)
    phone.click("#redo")
    wait_said(phone, "Redone.")
    assert totals(table) == [27, 0, 0]


@pytest.mark.parametrize("how", ["dblclick", "two clicks"])
def test_a_double_tap_of_new_game_starts_one_game(table, phone, how):
    table.post("/api/entry", {"kind": "hand", "winner": 0, "held": [None, 27, 0]})
    phone.wait_for_selector(".history tbody tr", timeout=WAIT)
    before = len(table.journal.games())
    phone.fill("#names", "Dot, Eve")
    held = Held(phone, "/api/new-game")
    double(phone, "#newgame", how)
    held.wait()
    assert phone.get_attribute("#newgame", "aria-busy") == "true"
    held.release()
    wait_said(phone, "New game started.")
    assert len(table.journal.games()) == before + 1
    assert len(phone.dialogs) == 1 and "not finished" in phone.dialogs[0]
    assert len(held.keys) == 2 and held.keys[0] != held.keys[1]  # the ask, then the yes
    assert [p["name"] for p in table.app.state.session.view()["players"]] == ["Dot", "Eve"]


def test_a_new_game_with_nothing_in_play_asks_nothing(table, phone):
    phone.fill("#names", "Dot, Eve")
    phone.click("#newgame")
    wait_said(phone, "New game started.")
    assert phone.dialogs == []


# ---------------------------------------------------------------- every refusal, seen
@pytest.mark.parametrize(
    ("names", "dealer", "says"),
    [
        ("Grandma" + "a" * 30 + ", Bea", "", "at most 24 characters"),
        ("Ann, Bea, ann", "", "same name"),
        ("Ann", "", "2 to 10 players, not 1"),
        (", ".join(f"P{i}" for i in range(11)), "", "2 to 10 players, not 11"),
        ("", "", "2 to 10 players, not 0"),
        ("Ann, Bea", "Zed", "The dealer Zed is not one of the players"),
    ],
)
def test_every_refusal_of_the_new_game_form_is_seen_before_any_question(
    table, phone, names, dealer, says
):
    table.post("/api/entry", {"kind": "hand", "winner": 0, "held": [None, 27, 0]})  # in play
    phone.wait_for_selector(".history tbody tr", timeout=WAIT)
    games = len(table.journal.games())
    phone.fill("#names", names)
    phone.fill("#dealer", dealer)
    phone.click("#newgame")
    said = seen_beside(phone, phone.locator("#message .error"), phone.locator("#newgame"))
    assert says in said
    assert phone.dialogs == []  # refused before anyone was asked to confirm
    assert len(table.journal.games()) == games


@pytest.mark.parametrize(
    ("enter", "says"),
    [
        ("nobody out", "Tap who went out first."),
        ("a total too large", "a total is from 0 to 10000, not 99999"),
        ("more cards than the deck", "the deck has only 4"),
    ],
)
def test_every_refusal_of_the_hand_form_is_seen_beside_enter_hand(table, phone, enter, says):
    if enter == "a total too large":
        fill_hand(phone, bea=99999)
    elif enter == "more cards than the deck":
        phone.click("#winners button[data-seat='0']")
        phone.click(".seat[data-seat='1']")
        phone.click(".keytab[data-colour='wild']")
        for _ in range(5):
            phone.click("[data-code='VD4']")
    phone.click("#submit")
    said = seen_beside(phone, phone.locator("#message .error"), phone.locator("#submit"))
    assert says in said
    assert scoring(table) == []


def test_a_key_tapped_before_anyone_went_out_is_said_beside_the_keyboard(table, phone):
    phone.click(".keytab[data-colour='red']")
    phone.click("[data-code='R7']")
    seen_beside(phone, phone.locator("#message .error"), phone.locator("#keys"))
