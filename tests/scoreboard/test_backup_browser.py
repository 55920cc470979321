"""The host's backup panel on the entry page, in Debian's chromium at a 360 px phone's width,
on a real uvicorn: "Back up" downloads the file; "Restore" over a tray that holds a game asks
first ("Keep them" changes nothing), and "Replace them" brings the old tray's games and token.
Skipped where /usr/bin/chromium is missing, except under CI=true where that fails."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from cli.app import create_app
from scoreboard.journal import Journal
from scoreboard.server import ServerThread, bind
from tests.browser_audit.axe import serious_violations
from tests.helpers.browser import WAIT, chromium
from tray.bus import Bus

pytestmark = pytest.mark.browser
PHONE = {"width": 360, "height": 740}


class Served:
    """A tray's app on a real uvicorn, with the token its journal keeps (as the service)."""

    def __init__(self, path: Path):
        self.journal = Journal(path)
        self.token = self.journal.token()
        self.app = create_app(self.journal, Bus(), self.token)
        self.server = ServerThread(self.app, bind("127.0.0.1", 0)).start()
        self.url = f"http://127.0.0.1:{self.server.port}"

    def call(self, method: str, path: str, token: str | None = None, **kw):
        headers = {"X-Table-Token": self.token if token is None else token}
        return httpx.request(method, self.url + path, headers=headers, **kw)

    def play(self, players: list[str], name: str) -> None:
        res = self.call("POST", "/api/new-game", json={"players": players, "name": name})
        assert res.status_code == 200, res.text
        held = [None] + [7] * (len(players) - 1)
        assert self.call("POST", "/api/entry", json={"kind": "hand", "winner": 0, "held": held})

    def stop(self) -> None:
        self.server.stop()
        self.journal.close()


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture
def trays(tmp_path):
    old, new = Served(tmp_path / "old.sqlite3"), Served(tmp_path / "new.sqlite3")
    yield old, new
    old.stop()
    new.stop()


def host_page(browser, tray: Served):
    context = browser.new_context(viewport=PHONE, accept_downloads=True)
    page = context.new_page()
    page.goto(f"{tray.url}/enter?token={tray.token}")
    page.wait_for_selector("#backup", state="visible", timeout=WAIT)
    return context, page


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_back_up_on_one_tray_and_restore_on_another_after_the_confirm_step(
    browser, trays, tmp_path
):
    old, new = trays
    old.play(["Ann", "Bea", "Cy"], "Friday night")
    new.play(["Di", "Ed"], "On the new card")
    context, page = host_page(browser, old)
    try:
        page.locator("#backup").scroll_into_view_if_needed()
        assert fits(page)
        with page.expect_download(timeout=WAIT) as download:
            page.click("#backup")
        assert download.value.suggested_filename.startswith("tinker-tray-backup-")
        saved = tmp_path / download.value.suggested_filename
        download.value.save_as(saved)
    finally:
        context.close()
    assert saved.read_bytes().startswith(b"tinker-tray backup 1 ")

    context, page = host_page(browser, new)
    try:
        page.set_input_files("#restorefile", str(saved))
        page.click("#restore")
        page.wait_for_selector("#restoreask:not(.hidden)", timeout=WAIT)
        assert "holds 1 game" in page.text_content("#restorewhy")
        assert fits(page)
        assert page.evaluate("document.activeElement.id") == "restoreno"
        assert serious_violations(page) == []
        page.click("#restoreno")  # keep them: nothing changes
        page.wait_for_selector("#backupmessage .ok:text('Nothing was changed')", timeout=WAIT)
        assert new.call("GET", "/api/games").json()["games"][0]["name"] == "On the new card"

        page.click("#restore")
        page.wait_for_selector("#restoreask:not(.hidden)", timeout=WAIT)
        page.click("#restoreyes")
        page.wait_for_selector("#backupmessage .ok:text('Restored 1 game from')", timeout=WAIT)
        page.wait_for_selector("#games .gamename:text('Friday night')", timeout=WAIT)
        assert fits(page)
        assert page.evaluate("fetch('/api/whoami').then(r => r.json())")["host"] is True
    finally:
        context.close()
    assert new.call("GET", "/api/games/1.json", old.token).content == (
        old.call("GET", "/api/games/1.json").content
    )


def test_a_damaged_file_is_refused_on_the_page_in_a_sentence(browser, trays, tmp_path):
    old, new = trays
    old.play(["Ann", "Bea"], "Kept")
    data = bytearray(old.call("GET", "/api/backup").content)
    data[-10] ^= 0x08
    damaged = tmp_path / "tinker-tray-backup-damaged.ttb"
    damaged.write_bytes(bytes(data))
    context, page = host_page(browser, new)
    try:
        page.set_input_files("#restorefile", str(damaged))
        page.click("#restore")
        page.wait_for_selector("#backupmessage .error", timeout=WAIT)
        said = page.text_content("#backupmessage")
        assert "damaged" in said and "Nothing was changed" in said
    finally:
        context.close()
    assert new.call("GET", "/api/games").json()["games"] == []


def test_every_refusal_of_the_restore_is_seen_beside_its_button(browser, trays, tmp_path):
    """Each refusal the restore form can meet (no file chosen, not a backup, a damaged one, a
    journal that holds games, a hostile journal) is in the viewport of a 360 x 740 phone, next
    to the button that was pressed."""
    from tests.helpers.seen import seen_beside

    old, new = trays
    old.play(["Ann", "Bea"], "Kept")
    good = tmp_path / "tinker-tray-backup-good.ttb"
    good.write_bytes(old.call("GET", "/api/backup").content)
    text = tmp_path / "notes.ttb"
    text.write_text("not a backup\n")
    damaged = tmp_path / "damaged.ttb"
    damaged.write_bytes(good.read_bytes()[:-5] + b"xxxxx")
    context, page = host_page(browser, new)
    message, button = page.locator("#backupmessage"), page.locator("#restore")
    try:
        button.scroll_into_view_if_needed()
        button.click()
        assert "Choose the backup file" in seen_beside(page, message, button)
        for file, says in ((text, "not a tinker-tray backup"), (damaged, "damaged")):
            page.set_input_files("#restorefile", str(file))
            button.click()
            page.wait_for_selector("#backupmessage .error", timeout=WAIT)
            said = seen_beside(page, message.locator(".error"), button)
            assert says in said and "Nothing was changed" in said, said
        new.play(["Di", "Ed"], "On the new card")
        page.set_input_files("#restorefile", str(good))
        button.click()
        assert "holds 1 game" in seen_beside(page, page.locator("#restorewhy"), button)
    finally:
        context.close()


def test_a_double_tap_on_restore_sends_the_file_once(browser, trays, tmp_path):
    old, new = trays
    old.play(["Ann", "Bea"], "Kept")
    good = tmp_path / "tinker-tray-backup-good.ttb"
    good.write_bytes(old.call("GET", "/api/backup").content)
    context, page = host_page(browser, new)
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if "/api/restore" in r.url else None)
    try:
        page.set_input_files("#restorefile", str(good))
        page.locator("#restore").dblclick()
        page.wait_for_selector("#backupmessage .ok:text('Restored 1 game from')", timeout=WAIT)
        page.wait_for_timeout(300)  # a second request would have left by now
    finally:
        context.close()
    assert len(sent) == 1, sent
