"""Room for the tables that really play: retained messages left for fake names never keep a real
table off the club's board (not even across a club restart), a table that plays is never pushed
off by names that only publish; and a page is sent a flood as a few updates a second, each the
latest board, not every message."""

from __future__ import annotations

import itertools
import time

import pytest

from club import payloads
from club.board import Board
from club.link import Broker
from club.pace import UPDATES_PER_S, Paced
from club.service import ClubService
from tests.club.test_club_limits import pick, scores
from tests.club.test_publisher import pick as table_pick
from tests.club.test_publisher import publish_table
from tests.helpers.broker import wait_until
from tests.helpers.sse_page import Page

FAKES = 40


def fill_with_fakes(board: Board, count: int = FAKES) -> None:
    for i in range(count):
        board.apply(f"fake{i}", "scores", scores([f"P{i}", "Q"]))


def test_a_new_table_takes_the_place_of_the_stalest_that_is_not_playing():
    board = Board()
    fill_with_fakes(board)
    assert len(board.tables) == payloads.MAX_TABLES and not board.refused
    assert board.evicted == FAKES - payloads.MAX_TABLES
    assert "fake0" not in board.tables and "fake39" in board.tables  # the oldest news went
    assert board.apply("kitchen", "availability", b"online")
    assert board.apply("kitchen", "pick", pick(1))
    fill_with_fakes(board, 200)  # names that only publish churn among themselves
    assert "kitchen" in board.tables
    assert board.table("kitchen")["pick"]["seq"] == 1


def test_a_table_that_said_it_went_offline_makes_room_and_a_full_board_of_players_refuses():
    board = Board()
    for i in range(payloads.MAX_TABLES):
        board.apply(f"t{i}", "pick", pick(1))
        board.apply(f"t{i}", "pick", pick(2))
    assert not board.apply("late", "scores", scores(["Ann", "Bo"]))
    assert board.refused == {"too many tables": 1}
    board.apply("t5", "availability", b"offline")  # a clean stop says so
    assert board.apply("late", "scores", scores(["Ann", "Bo"]))
    assert "t5" not in board.tables and "late" in board.tables


def test_a_page_is_told_which_tables_went():
    board = Board()
    fill_with_fakes(board, payloads.MAX_TABLES)
    seen = board.version
    board.apply("kitchen", "pick", pick(1))
    change = board.changes_since(seen)
    assert change["removed"] == ["fake0"] and [t["name"] for t in change["tables"]] == ["kitchen"]
    assert "removed" not in board.changes_since(board.version)


def test_a_page_that_missed_more_evictions_than_are_kept_gets_the_whole_board():
    board = Board()
    fill_with_fakes(board, payloads.MAX_TABLES)
    seen = board.version
    fill_with_fakes(board, 400)
    change = board.changes_since(seen)
    assert change["whole"] is True
    assert [t["name"] for t in change["tables"]] == sorted(board.tables)


def test_the_journal_replays_the_same_evictions(tmp_path):
    from club.journal import ClubJournal

    board, journal = Board(), ClubJournal(tmp_path / "club.sqlite3", compact_after=25)
    messages = [(f"fake{i}", "scores", scores([f"P{i}", "Q"])) for i in range(FAKES)]
    messages[20:20] = [("kitchen", "pick", pick(1))]
    for table, leaf, payload in messages:
        if board.apply(table, leaf, payload):
            journal.append(table, leaf, payload, board)
    journal.close()
    again = Board()
    ClubJournal(tmp_path / "club.sqlite3").replay(again)
    assert sorted(again.tables) == sorted(board.tables) and "kitchen" in again.tables
    assert again.table("kitchen") == board.table("kitchen")


@pytest.mark.broker
def test_retained_fake_tables_never_keep_a_real_table_off_the_board(
    own_broker, listen, make_table, tmp_path
):
    """40 names with retained scores on Debian's mosquitto, then the real `kitchen` table
    plays; the club shows it, and shows it again after a restart (when the broker delivers
    every retained message once more)."""
    rogue = listen(own_broker.port, "nothing/at/all")
    for i in range(FAKES):
        rogue.publish(f"tinker-tray/fake{i}/scores", scores([f"P{i}", "Q"]).decode(), retain=True)
    journal = tmp_path / "club.sqlite3"
    club = ClubService(Broker.from_url(own_broker.url), journal).start(port=0)
    table = make_table("kitchen")
    linked = publish_table(own_broker, table, "kitchen")
    try:
        wait_until(lambda: len(club.board.tables) == payloads.MAX_TABLES, what="a full board")
        table.session.new_game(["Ann", "Bo"])
        table_pick(table, 1, "blue")
        wait_until(lambda: (club.board.table("kitchen") or {}).get("pick"), what="kitchen")
        club.close()
        club = ClubService(Broker.from_url(own_broker.url), journal).start(port=0)
        assert club.board.table("kitchen")["pick"]["colour"] == "blue"  # from its journal
        rogue.publish("tinker-tray/late/scores", scores(["X", "Y"]).decode(), retain=True)
        wait_until(lambda: club.board.table("late"), what="a newcomer after the restart")
        assert club.board.table("kitchen")["pick"]["colour"] == "blue"
        assert len(club.board.tables) == payloads.MAX_TABLES
    finally:
        linked.close()
        club.close()


def test_paced_wakes_at_most_once_an_interval_and_always_delivers_the_last_poke():
    woken: list[float] = []
    paced = Paced(lambda: woken.append(time.monotonic()), interval=0.05)
    start = last_poke = time.monotonic()
    pokes = 0
    while last_poke - start < 0.3:
        last_poke = time.monotonic()
        paced.poke()
        pokes += 1
    wait_until(lambda: woken and woken[-1] >= last_poke, what="a wake after the last poke")
    paced.close()
    gaps = [b - a for a, b in itertools.pairwise(woken)]
    assert pokes > 100 * len(woken)
    assert all(g >= 0.05 * 0.9 for g in gaps), gaps  # never two wakes inside one interval


@pytest.mark.broker
def test_a_flood_reaches_a_page_as_a_few_updates_a_second_ending_with_the_latest(
    own_broker, listen, tmp_path
):
    club = ClubService(Broker.from_url(own_broker.url), tmp_path / "club.sqlite3").start(port=0)
    rogue = listen(own_broker.port, "nothing/at/all")
    page = Page(club.port)
    try:
        wait_until(lambda: page.events == 1, what="the page's first board")
        started = time.monotonic()
        count = 1000  # each journaled on its own (SQLite, synchronous=FULL) before it shows
        for seq in range(1, count + 1):
            rogue.client.publish(f"tinker-tray/t{seq % 8}/pick", pick(seq), qos=0)
        wait_until(lambda: club.board.version >= count, what="the flood read", timeout=60)
        wait_until(lambda: page.version() == club.board.version, what="the latest board")
        took = time.monotonic() - started
        updates = page.events - 1
        assert updates <= took * UPDATES_PER_S + 2, (updates, took)
        assert updates * 10 < count
    finally:
        page.close()
        club.close()
