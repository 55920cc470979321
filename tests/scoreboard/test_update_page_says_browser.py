"""Issue 52, item 5, on a 360x740 phone in real Chromium: the update panel says what this tray
can do. A tray with no allowed-signers file says how it is updated instead of offering a check
that must fail; a check that fails says the check stopped, not the update; a refused upload's
sentence stays beside its button, never drawn over by the older status the tray still holds."""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path

import pytest

from cli.app import create_app
from scoreboard.journal import Journal
from scoreboard.server import ServerThread, bind
from scoreboard.update_page import Updates
from tests.helpers.browser import WAIT, chromium
from tests.helpers.seen import PHONE, seen_beside
from tests.helpers.web import TOKEN
from tray.bus import Bus

pytestmark = pytest.mark.browser
OLD_FAILURE = {
    "state": "failed",
    "lines": ["looking for signed releases on origin ..."],
    "last": "tinker-tray update: no release can be verified: the keys are elsewhere",
    "at": 1_700_000_000.0,
    "action": "install",
}


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@contextlib.contextmanager
def panel(browser, folder: Path, *, signers: bool, root: bool = False, status=None):
    """The host's entry page, its update panel served by an `Updates` of the test's making."""
    (folder / "home").mkdir()
    unit = folder / "tinker-tray-update.path"
    if root:
        unit.touch()
    keys = folder / "allowed_signers"
    if signers:
        keys.write_text('maintainer@example namespaces="git" ssh-ed25519 AAAA\n')
    status_file = folder / "root-status.json"
    if status is not None:
        where = status_file if root else folder / "state" / "update" / "status.json"
        where.parent.mkdir(parents=True, exist_ok=True)
        where.write_text(json.dumps(status))
    (folder / "state").mkdir(exist_ok=True)
    updates = Updates(
        folder / "state", home=folder / "home", unit=unit, root_status=status_file,
        signers=keys, free=lambda where: 10**12,
    )  # fmt: skip
    journal = Journal(folder / "state" / "journal.sqlite3")
    app = create_app(journal, Bus(), TOKEN)
    app.state.updates = updates
    server = ServerThread(app, bind()).start()
    try:
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(f"http://127.0.0.1:{server.port}/enter?token={TOKEN}")
        page.wait_for_selector("#update #updversion:has-text('Running')", timeout=WAIT)
        yield page
    finally:
        server.stop()
        journal.close()


@pytest.mark.parametrize("root", [False, True], ids=["checkout", "image"])
def test_a_tray_without_the_maintainers_key_says_how_it_is_updated(browser, tmp_path, root):
    with panel(browser, tmp_path, signers=False, root=root, status=OLD_FAILURE) as page:
        page.locator("#update").scroll_into_view_if_needed()
        said = seen_beside(page, page.locator("#updsays"), page.locator("#updversion"))
        assert said == (
            "This card was made without the maintainers' key, so it cannot check that a "
            "release is theirs: it is updated by flashing a newer card."
            if root
            else "This tray runs from a copy of the project's code: it is updated with git pull "
            "where that copy is, not from this page (docs/release.md says how to update it "
            "from here)."
        )
        assert page.locator("#updcheck").is_hidden()
        assert page.locator("#update .update-file").is_hidden()
        assert "allowed-signers" not in page.inner_text("#update")


def test_with_the_key_the_check_is_offered(browser, tmp_path):
    with panel(browser, tmp_path, signers=True) as page:
        assert page.locator("#updcheck").is_visible()
        assert page.inner_text("#updsays") == ""


def test_a_check_that_failed_says_the_check_stopped(browser, tmp_path):
    failed_check = {**OLD_FAILURE, "action": "check", "last": "tinker-tray update: origin is gone"}
    with panel(browser, tmp_path, signers=True, status=failed_check) as page:
        page.wait_for_selector("#updsays.error", timeout=WAIT)
        assert page.inner_text("#updsays") == "The check stopped: origin is gone"


def test_a_refused_upload_is_not_drawn_over_by_the_older_status(browser, tmp_path):
    garbage = tmp_path / "photo.update"
    garbage.write_bytes(b"\xff\xd8\xff\xe0 not a tar at all " * 64)
    with panel(browser, tmp_path, signers=True, status=OLD_FAILURE) as page:
        page.wait_for_selector("#updsays:has-text('The update stopped')", timeout=WAIT)
        page.click("#update summary")
        page.set_input_files("#updfile", str(garbage))
        page.click("#updupload")
        refusal = "this is not an update file"
        page.wait_for_selector(f"#updsays:has-text({refusal!r})", timeout=WAIT)
        time.sleep(2)  # the page has polled the tray since: its status is the old one still
        said = seen_beside(page, page.locator("#updfilesays"), page.locator("#updupload"))
        assert said.startswith(refusal), said
        assert page.inner_text("#updsays").startswith(refusal)


def test_an_upload_without_a_file_is_said_beside_its_button(browser, tmp_path):
    with panel(browser, tmp_path, signers=True) as page:
        page.click("#update summary")
        page.click("#updupload")
        said = seen_beside(page, page.locator("#updfilesays"), page.locator("#updupload"))
        assert said == "Choose an update file first (tinker-tray-….update)."
