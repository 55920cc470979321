"""An update without a terminal, as a family meets it: the tray's service runs from the bench's
checkout (`./tinker run`), a maintainer publishes a signed release on the origin, and the host,
on a phone (real Chromium, 360x640), checks, sees it, taps Update, watches the progress and
sees the end. Both ways the service updates: in a checkout it runs the real `tinker update`
itself; on the image a root unit carries out the page's requests (here the test stands in for
systemd: it runs the real `tinker update --requests STATE --status FILE` when a request
appears, and restarts the service as the update's restart would). A guest sees none of it."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from cli.app import create_app
from scoreboard.journal import Journal
from scoreboard.server import ServerThread, bind
from scoreboard.update_page import Updates
from tests.browser_audit.axe import require_axe, serious_violations
from tests.helpers.browser import WAIT, chromium
from tests.helpers.service import free_port
from tests.helpers.web import TOKEN
from tests.update.helpers import Bench, git, make_bench
from tests.update.test_update_file import packed
from tray.bus import Bus
from updater import requests

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PHONE = {"width": 360, "height": 640}
UPDATE_MS = 240_000  # a whole update: fetch, verify, set up, trial start (a loaded 2-core box)


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


class Tray:
    """The family's service: `./tinker run` in the bench's checkout, on a journal in `state`
    (the service's state folder), with mock pins; restartable as systemd restarts it."""

    def __init__(self, bench: Bench, state: Path, **env: str) -> None:
        self.bench, self.state, self.env = bench, state, env
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.token = ""

    def start(self) -> Tray:
        self.state.mkdir(exist_ok=True)
        log = self.state / f"service-{time.monotonic_ns()}.log"
        with open(log, "wb") as out:
            self.proc = subprocess.Popen(
                [str(self.bench.tray / "tinker"), "run", "--host", "127.0.0.1",
                 "--port", str(self.port), "--journal", str(self.state / "journal.sqlite3"),
                 "--no-mdns"],
                cwd=self.bench.tray, stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                env=self.bench.env(GPIOZERO_PIN_FACTORY="mock", TINKER_TRAY_MDNS="0", **self.env),
                start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, log.read_text()
            with contextlib.suppress(OSError), urllib.request.urlopen(self.url, timeout=3):
                found = re.search(r"token:\s+(\S+)", log.read_text())
                if found:
                    self.token = found.group(1)
                    return self
            time.sleep(0.2)
        raise AssertionError(f"the service did not answer: {log.read_text()}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, 15)
            self.proc.wait(30)


@pytest.fixture
def bench(tmp_path) -> Bench:
    return make_bench(tmp_path)


@contextlib.contextmanager
def running(tray: Tray):
    tray.start()
    try:
        yield tray
    finally:
        tray.stop()


def host_page(browser, tray: Tray):
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{tray.url}/enter?token={tray.token}")
    page.wait_for_selector("#update #updversion:has-text('Running')", timeout=WAIT)
    return page


def says(page, text: str, timeout: int = UPDATE_MS) -> str:
    page.wait_for_selector(f"#updsays:has-text({text!r})", timeout=timeout)
    return page.inner_text("#updsays")


def test_a_guest_sees_no_update_and_is_refused(bench, browser, tmp_path):
    with running(Tray(bench, tmp_path / "state")) as tray:
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(f"{tray.url}/enter")
        page.wait_for_selector(".status:text('live')", timeout=WAIT)
        assert page.locator("#update").is_hidden()
        answers = page.evaluate(
            """async () => Promise.all(["/api/update/check", "/api/update/install"].map(
                 async (path) => { const r = await fetch(path, {method: "POST"});
                                   return [r.status, (await r.json()).error]; }))"""
        )
        assert [status for status, _ in answers] == [403, 403]
        assert all("table's token" in error for _, error in answers)
        assert not requests.folder(tray.state).exists()  # nothing asked, nothing run


def test_in_a_checkout_the_host_updates_from_the_page(bench, browser, tmp_path):
    commit = bench.release("v1.1.0")
    with running(Tray(bench, tmp_path / "state")) as tray:
        page = host_page(browser, tray)
        before = page.inner_text("#updversion")
        page.click("#updcheck")
        page.wait_for_selector("#updinstall:has-text('Update to v1.1.0')", timeout=UPDATE_MS)
        assert "v1.1.0 can be installed" in page.inner_text("#updsays")
        page.click("#updinstall")
        page.wait_for_selector("#updsays:has-text('Updating')", timeout=WAIT)
        said = says(page, "runs from the next start")
        assert said == (
            f"v1.1.0 ({commit[:12]}) is installed: it runs from the next start. "
            "Restart the tray to run v1.1.0."
        )
        assert "setting up v1.1.0" in page.inner_text("#updlines")  # the progress was shown
        assert page.inner_text("#updversion") == before  # this process still runs the old one
    assert bench.version() == f"tinker-tray v1.1.0 ({commit[:12]})"
    with running(Tray(bench, tmp_path / "state")) as tray:  # the next start runs it
        page = host_page(browser, tray)
        assert page.inner_text("#updversion") == f"Running v1.1.0 ({commit[:12]})"


def test_in_a_checkout_the_host_uploads_an_update_file(bench, browser, tmp_path):
    """No network to the origin: the maintainer's signed update file, chosen on the phone."""
    commit = bench.release("v1.1.0")
    _, file = packed(bench, "v1.1.0")
    git(bench.tray, "remote", "set-url", "origin", str(tmp_path / "unreachable"))
    with running(Tray(bench, tmp_path / "state")) as tray:
        page = host_page(browser, tray)
        page.click("#update summary")
        page.set_input_files("#updfile", str(file))
        page.click("#updupload")
        said = says(page, "runs from the next start")
        assert said.startswith(f"v1.1.0 ({commit[:12]}) is installed")
        assert "the update file is signed and whole: v1.1.0" in page.inner_text("#updlines")
        assert not (requests.folder(tray.state) / requests.UPLOAD).exists()  # the card's back
    assert bench.version() == f"tinker-tray v1.1.0 ({commit[:12]})"


def test_with_the_root_unit_the_page_comes_back_on_the_new_version(bench, browser, tmp_path):
    commit = bench.release("v1.1.0")
    unit, status = tmp_path / "tinker-tray-update.path", tmp_path / "run" / "status.json"
    unit.touch()
    status.parent.mkdir()
    tray = Tray(
        bench,
        tmp_path / "state",
        TINKER_TRAY_UPDATE_UNIT=str(unit),
        TINKER_TRAY_UPDATE_STATUS=str(status),
    )

    def systemd_path_unit() -> None:
        """What tinker-tray-update.path does when the page's request appears."""
        request = requests.folder(tray.state) / "request"
        deadline = time.monotonic() + 30
        while not request.exists():
            assert time.monotonic() < deadline, "the page left no request"
            time.sleep(0.1)
        done = bench.update("--requests", str(tray.state), "--status", str(status))
        assert done.returncode == 0, done.stderr

    try:
        tray.start()
        page = host_page(browser, tray)
        page.click("#updcheck")
        systemd_path_unit()
        page.wait_for_selector("#updinstall:has-text('Update to v1.1.0')", timeout=WAIT * 3)
        page.click("#updinstall")
        systemd_path_unit()
        says(page, "the tray restarts on it", timeout=WAIT * 3)
        tray.stop()  # the update's restart of the service, which systemd does on the image
        says(page, "The tray is restarting", timeout=WAIT * 3)
        tray.start()
        page.wait_for_selector(
            f"#updversion:text-is('Running v1.1.0 ({commit[:12]})')", timeout=WAIT * 3
        )  # the page reloaded itself on the new version
        assert page.inner_text("#updsays") == (
            f"tried v1.1.0 ({commit[:12]}); now running v1.1.0 ({commit[:12]})."
        )
    finally:
        tray.stop()


def test_with_the_root_unit_a_failed_update_says_why_it_stayed(bench, browser, tmp_path):
    """A release whose set-up fails: the old version stays, and the page says why."""
    bench.release("v1.1.0", setup="#!/bin/sh\necho 'pip: no matching distribution' >&2\nexit 1\n")
    unit, status = tmp_path / "tinker-tray-update.path", tmp_path / "status.json"
    unit.touch()
    tray = Tray(
        bench,
        tmp_path / "state",
        TINKER_TRAY_UPDATE_UNIT=str(unit),
        TINKER_TRAY_UPDATE_STATUS=str(status),
    )
    with running(tray):
        page = host_page(browser, tray)
        before = page.inner_text("#updversion").removeprefix("Running ")
        requests.ask(tray.state, "install")  # another phone asked: this one shows it too
        done = bench.update("--requests", str(tray.state), "--status", str(status))
        assert done.returncode == 1
        page.reload()
        said = says(page, "The update stopped", timeout=WAIT)
        assert said.startswith("The update stopped: tried v1.1.0") and "; still running" in said
        assert page.inner_text("#updversion") == f"Running {before}"
        assert "no matching distribution" in page.inner_text("#updlines")


@pytest.mark.parametrize(
    ("status", "shown"),
    [
        ({"state": "done", "lines": ["looking for signed releases on origin ..."],
          "last": "tinker-tray update: v1.1.0 (0123456789ab) can be installed.",
          "available": "v1.1.0", "running": "v1.0.0 (ba9876543210)"}, "#updinstall"),
        ({"state": "failed", "lines": ["setting up v1.1.0 ...", "its set-up failed"],
          "last": "tinker-tray update: tried v1.1.0 (0123456789ab); still running v1.0.0.",
          "available": None, "running": "v1.0.0 (ba9876543210)"}, "#updsays.error"),
    ],
    ids=["offered", "failed"],
)  # fmt: skip
def test_the_update_panel_has_no_serious_accessibility_violation(browser, tmp_path, status, shown):
    """The host's panel as a family meets it, on a phone: a release offered, with what the
    check said; an update that stopped, with why."""
    require_axe()
    (tmp_path / "tinker-tray-update.path").touch()
    (tmp_path / "status.json").write_text(json.dumps(status))
    slot = tmp_path / "slot"  # the release that runs: v1.0.0
    slot.mkdir()
    (slot / "RELEASE").write_text(json.dumps({"tag": "v1.0.0", "commit": "ba9876543210" * 3}))
    updates = Updates(
        tmp_path,
        unit=tmp_path / "tinker-tray-update.path",
        root_status=tmp_path / "status.json",
        tree=slot,
    )
    journal = Journal(tmp_path / "journal.sqlite3")
    app = create_app(journal, Bus(), TOKEN)
    app.state.updates = updates
    server = ServerThread(app, bind()).start()
    try:
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(f"http://127.0.0.1:{server.port}/enter?token={TOKEN}")
        page.wait_for_selector(shown, state="visible", timeout=WAIT)
        page.click("#update summary")  # the update file's part opened too
        assert serious_violations(page) == []
    finally:
        server.stop()
        journal.close()
