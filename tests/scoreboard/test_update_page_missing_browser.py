"""Issue 50, on a 360x740 phone in real Chromium: the update panel says in one sentence what is
missing. No allowed-signers file: tests/scoreboard/test_update_page_says_browser.py. No newer
signed release: said as that (not the check's bare "nothing newer than"), with the refused
tags' reasons on the lines below when there were some. Too little room on the card: the
update's own sentence, with both figures."""

from __future__ import annotations

import pytest

from scoreboard.update_page import installed_not_running
from tests.helpers.browser import WAIT, chromium
from tests.scoreboard.test_update_page_says_browser import panel

pytestmark = pytest.mark.browser
RUNNING = "v1.2.0 (0123456789ab)"
LOOKING = "looking for signed releases on origin ..."
NOTHING_NEWER = {
    "state": "done",
    "lines": [LOOKING, f"tinker-tray update: nothing newer than {RUNNING}."],
    "last": f"tinker-tray update: nothing newer than {RUNNING}.",
    "running": RUNNING,
    "available": None,
    "action": "check",
    "at": 1_700_000_000.0,
}


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def said(page) -> str:
    page.wait_for_selector("#updsays:not(:empty)", timeout=WAIT)
    return page.inner_text("#updsays")


def test_no_newer_signed_release_is_said_as_that(browser, tmp_path):
    with panel(browser, tmp_path, signers=True, status=NOTHING_NEWER) as page:
        assert said(page) == (
            f"There is no newer signed release than {RUNNING}: this tray runs the newest."
        )
        assert page.locator("#updcheck").is_visible()  # a check again, later


def test_a_newer_tag_refused_for_its_signature_is_pointed_at(browser, tmp_path):
    refusal = "refused: v1.3.0 is not signed by a key this tray trusts (the keys in FILE)"
    status = {**NOTHING_NEWER, "lines": [LOOKING, refusal, NOTHING_NEWER["last"]]}
    with panel(browser, tmp_path, signers=True, status=status) as page:
        assert said(page) == (
            f"There is no newer signed release than {RUNNING}: a newer tag was refused, and "
            "the lines below say why."
        )
        assert refusal in page.inner_text("#updlines")


def test_too_little_room_is_one_sentence_with_the_figures(browser, tmp_path):
    last = (
        "tinker-tray update: not enough room on the card for v1.3.0 (89abcdef0123): it needs "
        "about 130 MB, 20 MB free (nothing was changed)"
    )
    status = {**NOTHING_NEWER, "state": "failed", "action": "install", "last": last,
              "lines": [LOOKING, last]}  # fmt: skip
    with panel(browser, tmp_path, signers=True, status=status) as page:
        page.wait_for_selector("#updsays.error", timeout=WAIT)
        assert page.inner_text("#updsays") == (
            "The update stopped: not enough room on the card for v1.3.0 (89abcdef0123): it "
            "needs about 130 MB, 20 MB free (nothing was changed)"
        )


def test_a_check_is_never_taken_for_an_installed_release():
    """The check's `running` is what ran when it looked, whatever this service names itself."""
    assert installed_not_running(NOTHING_NEWER, "the commit 0123456789ab") is None
    assert installed_not_running({**NOTHING_NEWER, "action": "install"}, None) == RUNNING
