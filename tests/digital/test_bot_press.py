"""Issue 32: bots press Tinker Bell for their own cards, as each player does at a real table (a
person against two bots pressed 39 times in 8 hands, most of them for the bots). The bot's
press is the tray's own (its lights spin); a table that likes to press for its bots says so
when it starts the game, and a restart keeps that."""

from __future__ import annotations

import random
import threading
import time

import pytest

from digital.errors import SetupError
from digital.session import DigitalSession
from digital.view import ASK_PRESS, CHOOSING
from scoreboard.journal import Journal
from scoreboard.session import TableSession
from tests.helpers.browser import WAIT
from tests.helpers.digital import Picks, Table, offered
from tests.helpers.web import TOKEN
from tests.scoreboard.test_browser import Served, browser  # noqa: F401 (fixture)
from tray.bus import Bus

NAMES = ["Ann", "Bot Bea", "Bot Cy"]
SIZES = [(360, 740), (1280, 800), (1920, 1080)]


def play(session, key, picks, rng, hands=3, limit=4000):
    """Seat 0 plays from its view until `hands` hands are over; it presses the button only
    when its view does not say a bot presses. Returns [whose card, for each of its presses]."""
    link = session.link
    mine: list[int] = []
    deadline = time.monotonic() + 60  # a game waiting for a press nobody makes: a failure
    for _ in range(limit):
        assert time.monotonic() < deadline, "the game waits for a press that never comes"
        with link.lock:
            game = link.game
            if game.is_terminal() or len(game.finished_hands()) >= hands:
                return mine
            waiting, card, turn = (
                link.waiting_for_tinker_bell and not link.choosing,
                game.tinker_bell_card(),
                game.current_player(),
            )
            view = session.view(0, key)
        if waiting and view["bot_presses"] is None:
            mine.append(card[1])
            picks()
        elif waiting:
            assert view["bot_presses"] == NAMES[card[1]]
            session.changed.wait(5)  # the bot's press (on the link's timer thread)
            session.changed.clear()
        elif turn == 0:
            session.act(0, key, rng.choice(offered(view)))
        else:
            session.changed.wait(5)
            session.changed.clear()
    raise AssertionError("the hands did not end")


def a_session(tmp_path, press_for_bot=None, **options):
    bus = Bus()
    journal = Journal(tmp_path / "journal.sqlite3")
    table = TableSession(journal, bus)
    changed = threading.Event()
    session = DigitalSession(
        bus, table=table, pace=0, on_change=changed.set, press=press_for_bot, **options
    )
    session.changed = changed
    return session, bus, journal, table


def test_a_person_presses_for_their_own_cards_and_each_bot_for_its_own(tmp_path):
    pressed_for: list[int] = []
    holder: dict[str, DigitalSession] = {}

    def tray_press():  # the tray's button, pressed by a bot: who played the card it answers
        link = holder["s"].link
        with link.lock:
            pressed_for.append(link.game.tinker_bell_card()[1])
        picks()

    session, bus, journal, table = a_session(tmp_path, tray_press)
    holder["s"] = session
    picks = Picks(bus, random.Random(5))
    try:
        keys = session.new_game(NAMES, [0], "greedy", options={"target": 500}, seed=4)
        mine = play(session, keys[0], picks, random.Random(2))
        assert pressed_for and set(pressed_for) <= {1, 2}, pressed_for  # the bots, for theirs
        assert set(mine) <= {0}  # the person, only for their own cards
        assert len(session.link.consumed) == len(mine) + len(pressed_for)  # every pick taken
    finally:
        session.close()
        table.close()
        journal.close()


def test_a_table_that_presses_for_its_bots_keeps_that_after_a_restart(tmp_path):
    pressed: list[int] = []
    session, bus, journal, table = a_session(tmp_path, lambda: pressed.append(1))
    picks = Picks(bus, random.Random(5))
    try:
        keys = session.new_game(
            NAMES, [0], "greedy", options={"target": 500}, seed=4, bots_press=False
        )
        mine = play(session, keys[0], picks, random.Random(2), hands=1)
        assert pressed == [] and set(mine) & {1, 2}  # the person pressed for the bots too
    finally:
        session.close()
        table.close()
        journal.close()
    again = Table(tmp_path / "journal.sqlite3")
    try:
        assert again.digital.bots_press is False
    finally:
        again.stop()


@pytest.mark.parametrize("wrong", ["yes", 1, [True]])
def test_bots_press_is_true_or_false(tmp_path, wrong):
    session, _bus, journal, table = a_session(tmp_path)
    try:
        with pytest.raises(SetupError, match=r"bots_press is true .* or false"):
            session.new_game(NAMES, [0], "greedy", bots_press=wrong)
        assert session.link is None  # nothing started
    finally:
        session.close()
        table.close()
        journal.close()


def until_a_bot_card_waits(session, key, picks, rng, limit=4000):
    """Seat 0 plays (pressing for its own cards) until a bot's card waits for Tinker Bell."""
    link = session.link
    for _ in range(limit):
        with link.lock:
            waiting = link.waiting_for_tinker_bell
            card, turn = link.game.tinker_bell_card(), link.game.current_player()
        if waiting and card[1] != 0:
            return NAMES[card[1]]
        if waiting:
            picks()
        elif turn == 0:
            session.act(0, key, rng.choice(offered(session.view(0, key))))
    raise AssertionError("no bot played a Tinker Bell card")


@pytest.mark.browser
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_page_says_the_bot_presses_and_offers_no_button_for_its_card(
    tmp_path,
    browser,  # noqa: F811
    size,
):
    pressed = threading.Event()
    s = Served(tmp_path / "journal.sqlite3", press=pressed.set).start()
    try:
        session = s.app.state.digital
        keys = session.new_game(NAMES, [0], "greedy", options={"target": 500}, seed=4, pace=0)
        name = until_a_bot_card_waits(
            session, keys[0], Picks(s.bus, random.Random(5)), random.Random(2)
        )
        assert pressed.wait(10)  # the bot pressed the tray's button (here: the virtual one)
        width, height = size
        page = browser.new_context(viewport={"width": width, "height": height}).new_page()
        try:
            page.goto(f"{s.url}/play?key={keys[0]}")
            page.wait_for_selector(f"#presstext:text('{name} presses Tinker Bell')", timeout=WAIT)
            assert page.is_visible("#pressbox") and not page.is_visible("#press")
            says = page.inner_text("#says")  # the table's words agree: nobody is asked to press
            assert says.endswith(f"{name} presses Tinker Bell.") and "press the" not in says
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        finally:
            page.context.close()
    finally:
        s.stop()


def test_the_new_game_form_sends_the_tables_choice(tmp_path):
    """The web's new game takes `bots_press` (and refuses a value that is not true or false)."""
    import httpx

    s = Served(tmp_path / "journal.sqlite3", press=lambda: None).start()
    try:
        headers = {"X-Table-Token": TOKEN}
        body = {"players": NAMES, "humans": [0], "seed": 4, "bots_press": "no"}
        res = httpx.post(s.url + "/api/digital/new", json=body, headers=headers)
        assert res.status_code == 422 and "bots_press" in res.json()["error"]
        res = httpx.post(
            s.url + "/api/digital/new", json={**body, "bots_press": False}, headers=headers
        )
        assert res.status_code == 200 and s.app.state.digital.bots_press is False
    finally:
        s.stop()


def test_a_press_the_tray_ignored_is_pressed_again(tmp_path):
    """A tray ignores a press while its lights still spin for another pick: the bot presses
    again (after `again_s`) until a pick comes, so the game never waits for nobody."""
    presses: list[int] = []

    def tray_press():  # the first press of each wait is ignored, as during a light show
        presses.append(1)
        if len(presses) % 2 == 0:
            picks()

    session, bus, journal, table = a_session(tmp_path, tray_press)
    session.bot_press.again_s = 0.05
    picks = Picks(bus, random.Random(5))
    try:
        keys = session.new_game(NAMES, [0], "greedy", options={"target": 500}, seed=4)
        play(session, keys[0], picks, random.Random(2), hands=1)
        assert presses and len(presses) % 2 == 0  # each wait: ignored once, then taken
    finally:
        session.close()
        table.close()
        journal.close()


def test_the_prompt_is_the_observations_with_only_digital_plays_own_words(tmp_path):
    """Issue 33: what the game says now is the engine's observation's `prompt`; digital play
    adds only its own (the lights spinning, the bot pressing for its own card), in one place
    (`digital.view`), and no `says` beside it."""
    session, bus, journal, table = a_session(tmp_path, lambda: picks())  # a bot presses
    picks = Picks(bus, random.Random(5))
    seen = {"engine's": 0, "bot's": 0}
    own_view = session.view

    def view(seat=None, key=None):
        with session.link.lock:
            out = own_view(seat, key)
            said = session.link.game.observation(seat)["prompt"]
        assert "says" not in out
        if out["choosing"]:
            assert out["prompt"] == CHOOSING
        elif out["bot_presses"] is not None:
            assert said.endswith(ASK_PRESS)
            assert out["prompt"] == said.replace(
                ASK_PRESS, f"{out['bot_presses']} presses Tinker Bell."
            )
            seen["bot's"] += 1
        else:
            assert out["prompt"] == said
            seen["engine's"] += 1
        return out

    session.view = view
    try:
        keys = session.new_game(NAMES, [0], "greedy", options={"target": 500}, seed=4)
        play(session, keys[0], picks, random.Random(2), hands=2)
        assert seen["engine's"] and seen["bot's"], seen
    finally:
        session.close()
        table.close()
        journal.close()
