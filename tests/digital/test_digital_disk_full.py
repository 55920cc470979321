"""A full SD card, as digital play meets it (issue 20, point 1): a move is answered OK only once
it is in the journal; a move the journal cannot save is refused with a 503 and a sentence, the
game goes back to its last saved move (bots included) and every page says so; once saving works
again the game carries on from there; after a restart no acknowledged move is missing. For
every ruleset, through the one path.

Two ways to fill the disk: a failure injected at the journal's seam (its own methods, with
pytest-mock), everywhere, and a real tmpfs of a few hundred KiB where this machine lets us mount
one."""

from __future__ import annotations

import logging
import os
import random
import sqlite3
import time

import pytest
from starlette.testclient import TestClient

from cli.app import create_app
from digital.link import NotSavedError
from scoreboard.journal import Journal, JournalWriteError
from tests.helpers.card import fill
from tests.helpers.digital import Picks, Table, offered
from tests.helpers.web import TOKEN
from tests.scoreboard.test_disk_full import FULL, small_tmpfs
from tray.bus import Bus

RULESETS = ["disney", "elite"]
WRITES = ("append_moves", "start_digital", "create_game")


class FullDisk:
    """The journal's writes of digital play fail as a full SD card's do while `full`."""

    def __init__(self, mocker):
        self.full = False
        for name in WRITES:
            real = getattr(Journal, name)
            mocker.patch.object(Journal, name, autospec=True, side_effect=self._write(real))

    def _write(self, real):
        def write(journal, *args, **kwargs):
            if self.full:
                raise JournalWriteError(sqlite3.OperationalError(FULL))
            return real(journal, *args, **kwargs)

        return write


def start(digital, ruleset, seed=5):
    options = {"mode": "quick"} if ruleset == "elite" else {"target": 150}
    return digital.new_game(
        ["Ann", "Bob", "Cy"], [0], "greedy", options=options, ruleset=ruleset, seed=seed
    )


def moves(view):
    """The moves the seat is offered, whatever the ruleset's observation calls them."""
    if "legal" in view:
        return [m["action"] for m in view["legal"]]
    return offered(view) + [m["a"] for m in view["calls"]]


def kept_events(table):
    """The events of the digital game in play as the journal holds them."""
    return table.journal.record(table.digital._saved.game_id)[1]


def shown(view):
    return {k: v for k, v in view.items() if k not in ("version", "journal_error")}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_move_that_cannot_be_saved_is_refused_and_none_acknowledged_is_lost(
    tmp_path, mocker, ruleset
):
    path = tmp_path / "journal.sqlite3"
    table = Table(path)
    disk = FullDisk(mocker)
    keys = start(table.digital, ruleset)
    link, rng, picks = table.digital.link, random.Random(3), Picks(table.bus, random.Random(4))
    acknowledged = list(link.game.events)
    refused = 0
    for step in range(160):
        disk.full = (step // 8) % 2 == 1  # eight steps on a full disk, eight with space ...
        if link.is_over():
            break
        if link.waiting_for_tinker_bell:
            picks()  # taken only if saved: else the game still waits for her
        elif link.waiting_for() == 0:
            before = table.digital.view(0, keys[0])
            try:
                table.digital.act(0, keys[0], rng.choice(moves(before)))
            except NotSavedError as exc:
                refused += 1
                assert "not taken" in str(exc) and "disk is full" in str(exc)
                after = table.digital.view(0, keys[0])
                assert shown(after) == shown(before), "back at the last saved move"
                assert "not being saved" in after["journal_error"]
            else:
                acknowledged = list(link.game.events)
                assert "journal_error" not in table.digital.view()
        assert link.game.events == kept_events(table), "nothing is shown that is not saved"
    assert refused > 0
    table.stop()

    again = Table(path)  # the restart
    game = again.digital.link.game
    assert game.events[: len(acknowledged)] == acknowledged
    assert again.digital.journal_error is None
    again.stop()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_paced_bots_wait_at_the_last_saved_move_until_saving_works(tmp_path, mocker, ruleset):
    mocker.patch("digital.link.RETRY_S", 0.05)
    table = Table(tmp_path / "journal.sqlite3")
    disk = FullDisk(mocker)
    changed = []
    table.digital.on_change = lambda: changed.append(1)
    keys = table.digital.new_game(
        ["Ann", "Bob", "Cy"],
        [],
        "greedy",
        ruleset=ruleset,
        seed=2,
        pace=0.01,
        options={"mode": "quick"} if ruleset == "elite" else {"target": 100},
    )
    assert keys == {}
    link = table.digital.link
    disk.full = True
    saved = len(kept_events(table))
    time.sleep(0.5)  # fifty paces, ten retries: the bots try, and go back each time
    with link.lock:
        assert len(link.game.events) == saved == len(kept_events(table))
        assert "not being saved" in table.digital.view()["journal_error"]
    disk.full = False
    deadline = time.monotonic() + 10
    while len(kept_events(table)) <= saved and time.monotonic() < deadline:
        time.sleep(0.05)
    with link.lock:
        assert len(link.game.events) > saved, "they carry on from the last saved move"
        assert link.game.events == kept_events(table)
    assert "journal_error" not in table.digital.view()
    table.stop()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_over_http_a_full_disk_is_a_503_with_a_sentence(tmp_path, mocker, ruleset):
    journal = Journal(tmp_path / "journal.sqlite3")
    disk = FullDisk(mocker)
    body = {"players": ["Ann", "Bob"], "humans": [0], "seed": 4, "pace": 0, "ruleset": ruleset}
    bus, picks = Bus(), None
    with TestClient(create_app(journal, bus, TOKEN)) as client:
        host = {"X-Table-Token": TOKEN}
        disk.full = True
        res = client.post("/api/digital/new", json=body, headers=host)
        assert res.status_code == 503, res.text
        assert "disk is full" in res.json()["error"]
        assert client.get("/api/digital/view").json()["game"] is None  # nothing started
        disk.full = False
        res = client.post("/api/digital/new", json=body, headers=host)
        assert res.status_code == 200, res.text
        seat = {"Cookie": f"tinker-seat-0={res.json()['keys']['0']}"}
        view = client.get("/api/digital/view", headers=seat).json()
        picks = Picks(bus, random.Random(1))
        while view["awaiting"].get("seat") != 0:
            picks()  # Disney: Tinker Bell's pick, as the tray publishes it
            view = client.get("/api/digital/view", headers=seat).json()
        disk.full = True
        res = client.post("/api/digital/act", json={"action": moves(view)[0]}, headers=seat)
        assert res.status_code == 503, res.text
        assert res.json()["error"].startswith("Your move was not taken")
        after = client.get("/api/digital/view", headers=seat).json()
        assert shown(after) == shown(view)
        assert "not being saved" in after["journal_error"]
        disk.full = False
        res = client.post("/api/digital/act", json={"action": moves(view)[0]}, headers=seat)
        assert res.status_code == 200, res.text
        assert "journal_error" not in client.get("/api/digital/view").json()
    journal.close()


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_on_a_real_full_disk_no_acknowledged_move_is_lost_across_a_restart(ruleset, caplog):
    caplog.set_level(logging.WARNING)
    with small_tmpfs(384) as disk:
        path = disk / "journal.sqlite3"
        table = Table(path)
        keys = start(table.digital, ruleset, seed=9)
        link, rng, picks = table.digital.link, random.Random(5), Picks(table.bus, random.Random(6))
        acknowledged = list(link.game.events)
        filler = disk / "filler"
        fill(filler)
        refused = 0
        for _ in range(300):
            if link.is_over():
                break
            if link.waiting_for_tinker_bell:
                picks()
                continue
            view = table.digital.view(0, keys[0])
            try:
                table.digital.act(0, keys[0], rng.choice(moves(view)))
            except NotSavedError:
                refused += 1
                if refused == 20:
                    filler.unlink()  # space again: play carries on from the last saved move
                continue
            acknowledged = list(link.game.events)
        assert refused >= 20
        table.stop()
        again = Table(path)
        assert again.digital.link.game.events[: len(acknowledged)] == acknowledged
        assert again.digital.journal_error is None
        again.stop()
    assert not [r for r in caplog.records if r.exc_info]
