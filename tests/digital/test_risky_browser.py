"""A risky move on the /play page (issue 33: the engine's `confirm` of a move, never an action
number, decides what the page asks first): tapping Challenge asks, and only a yes challenges.
Debian's chromium, a real uvicorn, the real engine."""

from __future__ import annotations

import pytest

from tests.helpers.browser import WAIT
from tests.scoreboard.test_browser import browser, served  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def challenged(app_served) -> bool:
    return any(e.get("act") == "challenge" for e in app_served.app.state.digital.link.game.events)


@pytest.mark.parametrize("answer", [False, True])
def test_tapping_challenge_asks_first_and_only_a_yes_challenges(served, browser, answer):  # noqa: F811
    """The seeded game opens with Ann's Villain Draw 4 (as tests/digital/test_play_terminal.py
    plays it): its challenge is a button among the calls, which asks before it is sent."""
    res = served.post(
        "/api/digital/new",
        {
            "players": ["You", "Ann", "Bob", "Cy"],
            "humans": [0],
            "bots": "greedy",
            "seed": 3,
            "pace": 0,
            "options": {"target": 200},
            "bots_press": True,
        },
    )
    view = served.app.state.digital.link.game.observation(0)
    risky = [m for m in view["legal"] if m["confirm"]]
    assert [m["kind"] for m in risky] == ["challenge"]
    asked: list[str] = []

    def answer_it(dialog):
        asked.append(dialog.message)
        dialog.accept() if answer else dialog.dismiss()

    page = browser.new_page()
    try:
        page.on("dialog", answer_it)
        page.goto(served.url + res["links"]["0"])
        button = page.locator(f"#calls button[data-action='{risky[0]['action']}']")
        button.wait_for(timeout=WAIT)
        button.click()
        if answer:
            page.wait_for_function("() => !document.querySelector('#calls button')", timeout=WAIT)
        else:
            page.wait_for_timeout(300)  # (a dismissed question sends nothing: nothing to wait for)
        words = risky[0]["words"]
        assert asked == [f"{words[0].upper()}{words[1:]}? {risky[0]['confirm']}."]
        assert challenged(served) is answer
    finally:
        page.close()
