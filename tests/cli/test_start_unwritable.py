"""Starting never depends on writing (issue 31, item 1): on a full, read-only card the service
starts, shows every game as it stands with a sentence on every page saying why nothing can be
saved, refuses each write with a 503 and a sentence, and begins saving again by itself once
the card can take it, without a restart. A Disney game waiting for the Tinker Bell button has
its card declared again on the scoreboard only once that can be saved.

Real processes (`tinker-tray display`), a real tmpfs of a few MiB filled to the last byte, a
real read-only remount of it, and the version 3 journal of tests/scoreboard/journals."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from scoreboard.journal import Journal
from tests.helpers import card as helpers_card
from tests.helpers.card import fill, prepare, remount
from tests.helpers.config import QUICK_PIN_MAP
from tests.helpers.service import ROOT, Service, until

pytestmark = [
    pytest.mark.slow,  # real processes
    pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root"),
]

FIXTURE_V3 = ROOT / "tests" / "scoreboard" / "journals" / "main-14f5ae9.sqlite3"
ENTRY = {"kind": "declare", "card": None}
"""An entry a phone may make in the game in play (a digital game's: its hands are its record's,
not entries)."""


@contextlib.contextmanager
def card(size_mib: int = 4) -> Iterator[Path]:
    try:
        with helpers_card.mounted(size_mib) as where:
            yield where
    except helpers_card.NoMount as exc:
        pytest.skip(str(exc))


def declared(journal: Path) -> int:
    """The declare entries the journal holds (read-only, beside the running service)."""
    db = sqlite3.connect(f"{journal.as_uri()}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT entry FROM entries WHERE entry LIKE '%\"declare\"%'")
        return len(rows.fetchall())
    finally:
        db.close()


def unsaved(service: Service) -> str | None:
    return service.call("/api/view")[1]["journal"]["unsaved"]


@pytest.mark.parametrize("ending", ["closed", "killed"])
def test_on_a_full_card_the_table_starts_shows_every_game_and_saves_again_by_itself(ending):
    with card() as disk:
        journal = disk / "journal.sqlite3"
        key = prepare(journal, ending)
        before = declared(journal)
        fill(disk / "filler")
        service = Service(journal)
        try:
            service.wait_ready()
            status, games = service.call("/api/games")
            assert status == 200 and len(games["games"]) == 2
            status, seat = service.call("/api/digital/view?seat=0", key=key, host=False)
            assert status == 200 and seat["awaiting"]["kind"] == "tinker_bell"
            # read as it stands, or the declared card not saved: every page says why
            assert "the disk is full" in until(lambda: unsaved(service))
            _, seat = service.call("/api/digital/view?seat=0", key=key, host=False)
            assert "the disk is full" in seat["journal_error"]
            status, refused = service.call("/api/entry", ENTRY)
            assert status == 503 and "not saved: the disk is full" in refused["error"]
            assert declared(journal) == before, "declared only once it can be saved"

            (disk / "filler").unlink()  # space again
            until(lambda: unsaved(service) is None and declared(journal) == before + 1)
            status, seat = service.call("/api/digital/view?seat=0", key=key, host=False)
            assert "journal_error" not in seat
            status, _ = service.call("/api/entry", ENTRY)
            assert status == 200
        finally:
            code, err = service.stop()
        assert code == 0 and "Traceback" not in err
        kept = Journal(journal)
        assert [x.entry["kind"] for x in kept.entries(kept.latest_game())][-2:] == [
            "declare",  # the digital game's, once it could be saved
            "declare",  # the phone's
        ]
        kept.close()


def test_on_a_read_only_card_the_table_starts_and_saves_once_it_is_writable_again():
    with card() as disk:
        journal = disk / "journal.sqlite3"
        key = prepare(journal, "closed")
        before = declared(journal)
        remount(disk, "ro")
        service = Service(journal)
        try:
            service.wait_ready()
            assert "the journal cannot be written (read-only)" in unsaved(service)
            status, seat = service.call("/api/digital/view?seat=0", key=key, host=False)
            assert status == 200 and "read-only" in seat["journal_error"]
            status, refused = service.call("/api/new-game", {"players": ["X", "Y"]})
            assert status == 503 and "read-only" in refused["error"]
            remount(disk, "rw")
            until(lambda: unsaved(service) is None and declared(journal) == before + 1)
            assert service.call("/api/entry", ENTRY)[0] == 200
        finally:
            code, err = service.stop()
        assert code == 0 and "Traceback" not in err


def test_the_upgrade_of_an_older_journal_on_a_full_card_does_not_keep_the_table_down():
    with card() as disk:
        journal = disk / "journal.sqlite3"
        shutil.copyfile(FIXTURE_V3, journal)
        fill(disk / "filler")
        service = Service(journal)
        try:
            service.wait_ready()
            status, games = service.call("/api/games")
            assert status == 200 and len(games["games"]) == 4  # upgraded in memory
            assert "the disk is full" in unsaved(service)
            (disk / "filler").unlink()
            until(lambda: unsaved(service) is None)
        finally:
            code, err = service.stop()
        assert code == 0 and "Traceback" not in err
        db = sqlite3.connect(journal)
        assert db.execute("PRAGMA user_version").fetchone()[0] == 4  # upgraded on the card
        db.close()


def test_a_pick_on_a_full_card_stands_and_every_page_says_it_was_not_kept():
    """The tray's picks go on while nothing can be saved: a pick stands at the table and every
    page says it was not kept."""
    with card() as disk:
        journal = disk / "journal.sqlite3"
        prepare(journal, "closed")
        fill(disk / "filler")
        service = Service(journal)
        try:
            service.wait_ready()
            status, _ = service.call("/api/press", {})
            assert status in (200, 202, 204)
            view = until(
                lambda: (v := service.call("/api/view")[1])["journal"]["unkept_pick"] and v
            )
            assert view["journal"]["unsaved"]
        finally:
            code, err = service.stop()
        assert code == 0 and "Traceback" not in err


@pytest.mark.parametrize("spoil", ["full", "read-only"])
def test_the_emulated_tray_lights_and_picks_on_a_card_that_takes_no_write(tmp_path, spoil):
    """`tinker-tray emulate` with its display: the tray runs on a full or read-only card (main
    exited 1 before a pin was driven)."""
    pins = tmp_path / "pins.toml"
    pins.write_text(QUICK_PIN_MAP)
    with card() as disk:
        journal = disk / "journal.sqlite3"
        prepare(journal, "closed")
        if spoil == "full":
            fill(disk / "filler")
        else:
            remount(disk, "ro")
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "TINKER_TRAY_MDNS": "0"}
        env.pop("GPIOZERO_PIN_FACTORY", None)
        where = ["--journal", str(journal), "--host", "127.0.0.1", "--port", "0"]
        done = subprocess.run(
            [sys.executable, "-m", "cli", "emulate", "--config", str(pins), "--presses=3", *where],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 0, done.stderr
    assert [line.split(":")[0] for line in done.stdout.splitlines() if "pick #" in line] == [
        "pick #1",
        "pick #2",
        "pick #3",
    ]
    assert "Nothing can be saved now" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.browser
def test_every_page_says_why_nothing_can_be_saved_on_a_read_only_card():
    from tests.helpers.browser import WAIT, chromium

    with card() as disk:
        journal = disk / "journal.sqlite3"
        prepare(journal, "closed")
        remount(disk, "ro")
        service = Service.ready(journal)
        try:
            with chromium() as browser:
                page = browser.new_page()
                for path in ("/", f"/enter?token={service.token}", "/tray", "/pair"):
                    page.goto(f"{service.url}{path}")
                    banner = page.locator(".unsaved")
                    banner.wait_for(state="visible", timeout=WAIT)
                    assert "Nothing can be saved now" in banner.inner_text(), path
                page.goto(f"{service.url}/play")
                problem = page.locator("#journalerr")
                problem.wait_for(state="visible", timeout=WAIT)
                assert "read-only" in problem.inner_text()
        finally:
            code, err = service.stop()
        assert code == 0 and "Traceback" not in err
