"""Issue 52 on /play, in real Chromium at 360x740: a double tap on "Start the game" starts one
game; every refusal of the set-up form and of the play page is seen where the person is looking
(`seen_beside`); every option of every ruleset is on the form, and a game started with two of
them plays by them; the host ends a game; the last names are offered again; the engine's words
on a button read as a person writes them."""

from __future__ import annotations

import pytest

from engine import registry
from engine.disney.rulesets import RULESETS
from engine.elite.setup import OPTIONS as ELITE_OPTIONS
from tests.digital.test_elite_browser import PHONE, browser, served  # noqa: F401 (fixtures)
from tests.helpers.browser import WAIT
from tests.helpers.seen import seen_beside
from tests.helpers.web import TOKEN

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(browser):  # noqa: F811
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    page = context.new_page()
    page.dialogs = []
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.accept()))
    yield page
    context.close()


def setup_form(served, page):  # noqa: F811
    page.goto(f"{served.url}/play?new=1&token={TOKEN}")
    page.wait_for_selector("#start:not([disabled])", timeout=WAIT)


def digital_games(served):  # noqa: F811
    return [g for g in served.journal.games() if g.digital]


def test_a_double_tap_on_start_starts_one_game(served, phone):  # noqa: F811
    setup_form(served, phone)
    phone.dblclick("#start")
    phone.wait_for_selector("#hand .card", timeout=WAIT)
    assert len(digital_games(served)) == 1
    assert phone.dialogs == []  # nobody was asked to throw away the game just started


def test_start_is_busy_while_its_request_runs(served, phone):  # noqa: F811
    """Held by the test, the request leaves Start disabled and aria-busy, with its key."""
    setup_form(served, phone)
    held = []
    phone.route("**/api/digital/new", lambda route: held.append(route))
    with phone.expect_request("**/api/digital/new") as asked:
        phone.click("#start")
    phone.wait_for_selector("#start[aria-busy='true'][disabled]", timeout=WAIT)
    key = asked.value.headers.get("idempotency-key", "")
    assert len(key) == 32 and int(key, 16) >= 0
    while not held:  # the route's handler runs while Playwright waits
        phone.wait_for_timeout(20)
    held[0].continue_()
    phone.wait_for_selector("#hand .card", timeout=WAIT)
    assert len(digital_games(served)) == 1


SETUP_REFUSALS = [
    (
        "a name of 200 letters",
        lambda p: p.fill("[aria-label='name of seat 1']", "A" * 200),
        "at most 24 characters, not 200",
    ),
    ("an empty name", lambda p: p.fill("[aria-label='name of seat 2']", ""), "is empty"),
    (
        "the same name twice",
        lambda p: p.fill("[aria-label='name of seat 3']", "Bot Bea"),
        "same name",
    ),
    ("a target of 0", lambda p: p.fill("#target", "0"), "target"),
    (
        "partners with three players",
        lambda p: (p.click("#morerules summary"), p.check("#rule-partners")),
        "four",
    ),
]


@pytest.mark.parametrize(
    ("why", "make", "said"), SETUP_REFUSALS, ids=[r[0] for r in SETUP_REFUSALS]
)
def test_each_refusal_of_the_setup_form_is_seen_beside_start(served, phone, why, make, said):  # noqa: F811
    setup_form(served, phone)
    make(phone)
    phone.click("#start")
    text = seen_beside(phone, phone.locator("#message .error"), phone.locator("#start"))
    assert said.lower() in text.lower(), text
    assert digital_games(served) == []


def test_a_wrong_token_is_seen_beside_its_box(served, phone):  # noqa: F811
    phone.goto(f"{served.url}/play?new=1")
    phone.wait_for_selector("#tokenin", state="visible", timeout=WAIT)
    phone.fill("#tokenin", "not-the-token")
    phone.click("#tokensave")
    seen_beside(phone, phone.locator("#message .error"), phone.locator("#tokensave"))


def test_an_illegal_move_is_seen_beside_the_moves(served, phone):  # noqa: F811
    res = served.post(
        "/api/digital/new",
        {"players": ["Ann", "Bo"], "humans": [0], "seed": 4, "pace": 0, "ruleset": "elite"},
    )
    phone.goto(served.url + res["links"]["0"])
    phone.wait_for_selector("#actions button[data-action]", timeout=WAIT)
    # the page's moves gone stale: what it sends is no longer a move of the game
    phone.route(
        "**/api/digital/act",
        lambda route: route.continue_(post_data='{"seat": 0, "action": 999999}'),
    )
    button = phone.locator("#actions button[data-action]").first
    button.click()
    text = seen_beside(phone, phone.locator("#message .error"), phone.locator("#actions"))
    assert "999999" in text and "(play)" not in text


def test_a_stale_seat_link_is_said_at_the_top(served, phone):  # noqa: F811
    first = served.post("/api/digital/new", {"players": ["Ann", "Bo"], "humans": [0], "pace": 0})
    served.post(
        "/api/digital/new",
        {"players": ["Ann", "Bo"], "humans": [0], "pace": 0, "confirm": True},
    )
    phone.goto(served.url + first["links"]["0"])
    text = seen_beside(phone, phone.locator("#message .error"), phone.locator("#who"))
    assert "ask the host for the new one" in text


def declared(name):
    options = RULESETS[name].options if name in RULESETS else ELITE_OPTIONS
    return [n for n in options if n not in ("mode", "target")]


def test_the_setup_offers_every_option_of_every_ruleset(served, phone):  # noqa: F811
    setup_form(served, phone)
    for name in registry.names():
        phone.select_option("#ruleset", name)
        for option in declared(name):
            assert phone.locator(f"#setup [data-option='{option}']").count() == 1, (name, option)
        offered = phone.eval_on_selector_all("#setup [data-option]", "els => els.length")
        assert offered == len(declared(name)), name
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_game_started_with_seven_o_and_stacking_plays_by_them(served, phone):  # noqa: F811
    setup_form(served, phone)
    phone.select_option("#ruleset", "classic")
    phone.check("#rule-seven_o")
    phone.select_option("#rule-stacking", label="mixed")
    phone.click("#start")
    phone.wait_for_selector("#hand .card", timeout=WAIT)
    game = served.app.state.digital.link.game
    assert game.options["seven_o"] is True and game.options["stacking"] == "mixed"
    header = served.app.state.digital.link.game.header()
    assert header["options"]["seven_o"] is True and header["options"]["stacking"] == "mixed"
    assert "jump_in" not in game.given_options  # the defaults are not written in


def test_the_host_ends_the_game_in_play(served, phone):  # noqa: F811
    served.post("/api/digital/new", {"players": ["Ann", "Bo"], "humans": [], "pace": 0.5})
    phone.goto(f"{served.url}/play?token={TOKEN}")
    phone.wait_for_selector("#endgame", state="visible", timeout=WAIT)
    phone.click("#endgame")
    phone.wait_for_selector("#endedsays", state="visible", timeout=WAIT)
    assert "ended the game of Ann, Bo unfinished" in phone.inner_text("#endedsays")
    assert phone.dialogs and "End this game unfinished?" in phone.dialogs[0]
    assert served.app.state.digital.link is None
    assert phone.is_visible("#start")


def test_the_last_names_are_offered_again(served, phone):  # noqa: F811
    setup_form(served, phone)
    phone.fill("[aria-label='name of seat 1']", "Annabel")
    phone.fill("[aria-label='name of seat 2']", "Grandpa")
    phone.click("#start")
    phone.wait_for_selector("#hand .card", timeout=WAIT)
    setup_form(served, phone)
    assert phone.input_value("[aria-label='name of seat 1']") == "Annabel"
    assert phone.input_value("[aria-label='name of seat 2']") == "Grandpa"


def test_the_engines_words_on_buttons_read_as_written(served, phone):  # noqa: F811
    res = served.post(
        "/api/digital/new",
        {"players": ["Ann", "Bo"], "humans": [0], "seed": 4, "pace": 0, "ruleset": "elite"},
    )
    phone.goto(served.url + res["links"]["0"])
    phone.wait_for_selector("#actions button[data-action]", timeout=WAIT)
    words = phone.eval_on_selector_all(
        "#actions .words, #calls button", "b => b.map(x => x.textContent)"
    )
    assert words and all(w[0] == w[0].upper() for w in words), words
