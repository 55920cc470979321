"""What a digital game owes the scoreboard after a restart on a card that takes no write (issue
31, item 1): the card a Disney game waits on Tinker Bell for. The start never fails for it (on
main it raised JournalWriteError out of the display's start-up); it is entered only once the
journal can save it, and exactly once. A finished hand is owed nothing: it is the record's.
The journal's writes fail as a full card's do (SQLite's own error, at its seam)."""

from __future__ import annotations

import random
import sqlite3
import time

import pytest

from scoreboard.journal import Journal, JournalWriteError
from tests.helpers.digital import Picks, Table, offered

FULL = "database or disk is full"


@pytest.fixture
def full(monkeypatch):
    """`Journal.append` fails as on a full card while `full[0]`."""
    state = [False]
    real = Journal.append

    def append(journal, game, entry):
        if state[0]:
            raise JournalWriteError(sqlite3.OperationalError(FULL))
        return real(journal, game, entry)

    monkeypatch.setattr(Journal, "append", append)
    monkeypatch.setattr("digital.session.RETRY_S", 0.05, raising=False)
    return state


def waiting_for_tinker_bell(path, seed=7):
    """A Disney game stopped while it waits for Tinker Bell; Ann's key."""
    table = Table(path)
    keys = table.digital.new_game(
        ["Ann", "Bob", "Cy"], [0], "greedy", options={"target": 500}, ruleset="disney", seed=seed
    )
    link, rng = table.digital.link, random.Random(3)
    while not link.waiting_for_tinker_bell:
        table.digital.act(0, keys[0], rng.choice(offered(table.digital.view(0, keys[0]))))
    table.stop()
    return keys[0]


def kinds(path):
    journal = Journal(path)
    try:
        return [x.entry["kind"] for x in journal.entries(journal.latest_game())]
    finally:
        journal.close()


def settle(check, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not check() and time.monotonic() < deadline:
        time.sleep(0.02)
    return check()


def test_the_card_waiting_for_tinker_bell_is_declared_once_it_can_be_saved(tmp_path, full):
    path = tmp_path / "journal.sqlite3"
    waiting_for_tinker_bell(path)
    before = kinds(path)
    full[0] = True
    again = Table(path)  # main: JournalWriteError out of the start
    assert again.digital.link.waiting_for_tinker_bell
    assert "the disk is full" in again.table.view()["journal"]["unsaved"]
    assert "the disk is full" in again.digital.view()["journal_error"]
    time.sleep(0.3)  # a few retries, each refused
    assert again.journal.entries(again.table.game_id)[-1].entry["kind"] == before[-1]
    full[0] = False
    assert settle(lambda: again.table.view()["journal"]["unsaved"] is None)
    assert settle(lambda: again.journal.entries(again.table.game_id)[-1].entry["kind"] == "declare")
    again.stop()
    assert kinds(path) == [*before, "declare"]  # once


def test_a_finished_hand_is_on_the_sheet_from_its_record_while_no_entry_can_be_saved(
    tmp_path, full
):
    """A hand is the record's alone (nothing is owed for it): on the sheet as soon as the
    record keeps it, while the journal takes no entry, and after a restart."""
    path = tmp_path / "journal.sqlite3"
    table = Table(path)
    keys = table.digital.new_game(
        ["Ann", "Bob", "Cy"], [0], "greedy", options={"target": 500}, seed=2
    )
    rng, picks = random.Random(5), Picks(table.bus, random.Random(6))
    link = table.digital.link
    full[0] = True  # entries fail; the record's moves are kept
    while not link.game.finished_hands():
        if link.waiting_for_tinker_bell:
            picks()
        else:
            table.digital.act(0, keys[0], rng.choice(offered(table.digital.view(0, keys[0]))))
    totals = [p["total"] for p in table.table.view()["players"]]
    assert table.table.view()["hand_count"] == 1 and sum(totals) > 0
    table.stop()
    again = Table(path)
    assert [p["total"] for p in again.table.view()["players"]] == totals
    again.stop()
    full[0] = False
    assert "hand" not in kinds(path)


def test_a_retry_that_fires_as_the_session_closes_writes_nothing_after_it(tmp_path, full):
    """The retry's timer thread can start just as the session closes (CI saw it write to the
    closed journal: sqlite3.ProgrammingError in the thread). Run late, it must do nothing."""
    path = tmp_path / "journal.sqlite3"
    waiting_for_tinker_bell(path)
    full[0] = True
    again = Table(path)
    link = again.digital.link
    assert "the disk is full" in again.table.view()["journal"]["unsaved"]
    again.stop()
    full[0] = False
    again.digital._catch_up(link)  # the timer's call, after the close
