"""A card that turns read-only, after a power cut or while the table plays, saves again by
itself once it is writable (issue 41, item 3).

After a power cut the journal has its `-wal` and `-shm` beside it, and SQLite opens it on a
read-only card without an error (it says so only at the first write), so no retry started and
the table could not save again until a restart. Now a write probe at opening, and the first
write refused as read-only while running, start the same retry as a start on a read-only card.

Real processes (`tinker-tray display`), a real tmpfs remounted read-only and back (root only:
skipped with the reason elsewhere, except under CI=true, where it must run). A card cannot be
remounted read-only under a process writing on it (the kernel says it is busy), so a card
that turns read-only while running is tested on the journal itself (SQLite's `query_only`
turns its connection read-only, as a card going read-only under it does)."""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from scoreboard.journal import Journal, JournalWriteError
from tests.helpers import card as helpers_card
from tests.helpers.card import prepare, remount
from tests.helpers.service import Service, until

pytestmark = pytest.mark.slow  # real processes

ENTRY = {"kind": "declare", "card": None}
"""An entry the game in play takes (a digital game's: its hands are its record's, not entries)."""


@contextlib.contextmanager
def card() -> Iterator[Path]:
    try:
        with helpers_card.mounted() as where:
            yield where
    except helpers_card.NoMount as exc:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(str(exc))


def unsaved(service: Service) -> str | None:
    return service.call("/api/view")[1]["journal"]["unsaved"]


def saved(service: Service) -> bool:
    return service.call("/api/entry", ENTRY)[0] == 200


def test_a_read_only_card_after_a_power_cut_saves_again_once_it_is_writable():
    with card() as disk:
        journal = disk / "journal.sqlite3"
        prepare(journal, "killed")
        Service.ready(journal).kill()  # a power cut under the service: its files stay
        for left in ("-wal", "-shm", ".lock"):
            assert Path(f"{journal}{left}").exists()
        remount(disk, "ro")
        service = Service(journal)
        try:
            service.wait_ready()
            status, refused = service.call("/api/entry", ENTRY)
            assert status == 503 and "read-only" in refused["error"]
            assert "the journal cannot be written (read-only)" in until(lambda: unsaved(service))

            remount(disk, "rw")
            writable = time.monotonic()
            until(lambda: saved(service), timeout=30, every=0.05)
            seconds = time.monotonic() - writable
            print(f"\n{seconds:.2f} s from the card writable to the first saved move")
            assert unsaved(service) is None
        finally:
            code, err = service.stop()
        assert code == 0 and "Traceback" not in err


def test_a_journal_that_turns_read_only_while_running_opens_anew_and_saves_again(tmp_path):
    """The first write SQLite refuses as read-only (SQLITE_READONLY) stops saving and starts
    the retry, which opens the journal anew; a full disk would not (the same connection saves
    again once there is room). Before, every write failed on that connection for ever."""
    journal = Journal(tmp_path / "journal.sqlite3", exclusive=True, retry_s=0.05)
    again = threading.Event()
    journal.when_writable(again.set)
    try:
        game = journal.create_game({"kind": "start", "players": ["Ann", "Bea"]})
        journal._db.execute("PRAGMA query_only=1")  # the card under it turned read-only
        with pytest.raises(JournalWriteError, match="read-only"):
            journal.append(game, {"kind": "dealer", "seat": 1})
        assert journal.unwritable is not None and "read-only" in journal.unwritable
        assert again.wait(10), "the journal never opened for writing again"
        assert journal.unwritable is None
        journal.append(game, {"kind": "dealer", "seat": 1})
        assert [x.entry["kind"] for x in journal.entries(game)] == ["start", "dealer"]
    finally:
        journal.close()
