"""A full SD card, as table play meets it: a write the journal cannot save is refused with a 503
and a sentence, changes nothing, and every page says so; a pick the tray has already lit stands,
and the pages say it was not kept; nothing that was acknowledged is missing after a restart.

Two ways to fill the disk: a failure injected at the journal's seam (its SQLite connection),
everywhere, and a real tmpfs of a few hundred KiB where this machine lets us mount one."""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import subprocess
import time
import uuid
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from scoreboard.journal import Journal
from scoreboard.web import create_app
from tests.helpers.card import fill
from tests.helpers.web import TOKEN
from tray.bus import Bus
from tray.events import Pick

GAME = {"players": ["Ann", "Bea"], "dealer": 0}
HAND = {"kind": "hand", "winner": 0, "held": [None, ["R7"]]}
FULL = "database or disk is full"


class FullDisk:
    """The journal's SQLite connection, whose writes fail as a full SD card's do while `full`."""

    def __init__(self, db: sqlite3.Connection):
        self._db, self.full = db, False

    def execute(self, sql: str, *args):
        if self.full and sql.split()[0].upper() in ("INSERT", "UPDATE", "DELETE"):
            raise sqlite3.OperationalError(FULL)
        return self._db.execute(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self._db, name)


@pytest.fixture
def disk(journal) -> FullDisk:
    journal._db = FullDisk(journal._db)
    return journal._db


def test_a_write_on_a_full_disk_is_a_503_with_a_sentence_and_changes_nothing(
    writer, journal, disk, caplog
):
    assert writer.post("/api/new-game", json=GAME).status_code == 200
    assert writer.post("/api/entry", json=HAND).status_code == 200
    before = writer.get("/api/view").json()
    disk.full = True
    for _ in range(50):
        res = writer.post("/api/entry", json=HAND)
        assert res.status_code == 503
        assert res.json()["error"].startswith("not saved: the disk is full; free some space.")
    assert writer.post("/api/new-game", json={**GAME, "confirm": True}).status_code == 503
    view = writer.get("/api/view").json()
    assert view["journal"]["unsaved"].startswith("not saved: the disk is full")
    assert {k: v for k, v in view.items() if k != "journal"} == {
        k: v for k, v in before.items() if k != "journal"
    }
    assert len([r for r in caplog.records if "disk is full" in r.getMessage()]) <= 7
    disk.full = False
    assert writer.post("/api/entry", json=HAND).status_code == 200
    view = writer.get("/api/view").json()
    assert view["journal"]["unsaved"] is None and len(view["hands"]) == 2
    assert [x.entry["kind"] for x in journal.entries(1)] == ["start", "hand", "hand"]


def test_a_pick_on_a_full_disk_stands_and_every_page_says_it_was_not_kept(
    writer, bus, disk, caplog
):
    writer.post("/api/new-game", json=GAME)
    disk.full = True
    bus.publish(Pick(seq=7, colour="green", t=time.time(), source="tray"))
    journal = writer.get("/api/view").json()["journal"]
    assert journal["unkept_pick"] == 7 and "disk is full" in journal["unsaved"]
    assert not [r for r in caplog.records if "subscriber" in r.getMessage()]  # no traceback
    disk.full = False
    bus.publish(Pick(seq=8, colour="red", t=time.time(), source="tray"))
    view = writer.get("/api/view").json()
    assert view["journal"] == {"unsaved": None, "unkept_pick": None, "damaged": []}


# --- a real full disk -----------------------------------------------------------------------


@contextlib.contextmanager
def small_tmpfs(size_kib: int):
    where = Path(f"/tmp/tinker-full-{uuid.uuid4().hex[:8]}")
    where.mkdir()
    try:
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size_kib}k", "tmpfs", str(where)],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            pytest.skip(f"this machine does not let us mount a tmpfs: {done.stderr.strip()}")
        try:
            yield where
        finally:
            subprocess.run(["umount", "-l", str(where)], check=False)
    finally:
        with contextlib.suppress(OSError):
            where.rmdir()


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")
def test_on_a_real_full_disk_nothing_acknowledged_is_lost_across_a_restart(caplog):
    caplog.set_level(logging.WARNING)
    with small_tmpfs(384) as disk:
        path = disk / "journal.sqlite3"
        journal = Journal(path)
        bus = Bus()
        acknowledged = []
        with TestClient(create_app(journal, bus, TOKEN)) as client:
            client.headers["X-Table-Token"] = TOKEN
            assert client.post("/api/new-game", json=GAME).status_code == 200
            filler = disk / "filler"
            fill(filler)
            refused = 0
            for _ in range(400):
                held = [None, 1]  # a point a hand: 400 hands stay short of 500
                res = client.post("/api/entry", json={**HAND, "held": held})
                assert res.status_code in (200, 503), res.text
                if res.status_code == 200:
                    acknowledged.append(held)
                else:
                    refused += 1
                    assert "not saved" in res.json()["error"]
            assert refused > 0
            assert client.get("/api/view").json()["journal"]["unsaved"]
        journal.close()
        filler.unlink()
        again = Journal(path)  # the restart, with space again
        kept = [x.entry["held"] for x in again.entries(1) if x.entry["kind"] == "hand"]
        assert kept == acknowledged
        again.close()
    assert not [r for r in caplog.records if r.exc_info]
