"""The pairing page's refusal (the tray is not pairing: nobody held the button) is seen on a
360 x 740 phone beside the button that was tapped, in Debian's chromium on a real uvicorn."""

from __future__ import annotations

import pytest

from tests.helpers.browser import WAIT, chromium
from tests.helpers.seen import PHONE, seen_beside
from tests.scoreboard.test_backup_browser import Served

pytestmark = pytest.mark.browser


def test_outside_a_pairing_window_the_refusal_is_seen_beside_the_button(tmp_path):
    tray = Served(tmp_path / "journal.sqlite3")
    try:
        with chromium() as browser:
            context = browser.new_context(viewport=PHONE)
            page = context.new_page()
            page.goto(f"{tray.url}/pair")
            button = page.locator("#pair")
            button.wait_for(state="visible", timeout=WAIT)
            button.click()
            said = seen_beside(page, page.locator("#message .error"), button)
            assert "hold" in said.lower() and "button" in said.lower(), said
            assert tray.call("GET", "/api/whoami", "").json()["host"] is False
            context.close()
    finally:
        tray.stop()
