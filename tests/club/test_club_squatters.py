"""Playing is earned: a table keeps its place on a full club board only by picks the club saw
arrive live, recently. 40 squatter names that each publish a retained pick (the issue's 41.2:
they counted as playing and a real table never reached the page, not even after a restart)
now churn among themselves, and the real table that plays reaches the page and stays there."""

from __future__ import annotations

import json
import sqlite3
import urllib.request

import pytest

from club import payloads
from club.board import PLAYING_PICKS, PLAYING_WINDOW_S, Board
from club.journal import ClubJournal
from club.link import Broker
from club.service import ClubService
from tests.club.test_club_limits import pick
from tests.club.test_publisher import pick as table_pick
from tests.club.test_publisher import publish_table
from tests.helpers.broker import wait_until

SQUATTERS = 40
assert payloads.MAX_TABLES == 32  # 40 squatters: 8 more than the board holds


class Clock:
    """Wall time the test moves by hand (the board judges "recent" by it)."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def squat(board: Board, first_seq: int = 1, **kw) -> None:
    for i in range(SQUATTERS):
        board.apply(f"squat{i}", "pick", pick(first_seq + i), **kw)


def test_one_pick_per_name_is_not_play_and_a_real_table_gets_in_and_stays():
    board = Board(Clock())
    squat(board)  # published while the club listens: live, but one pick each
    assert len(board.tables) == payloads.MAX_TABLES and not board.refused
    assert board.apply("kitchen", "availability", b"online")  # old code: "too many tables"
    for seq in range(1, PLAYING_PICKS + 1):
        assert board.apply("kitchen", "pick", pick(seq))
    for round_ in range(5):  # the squatters publish again and again: they churn
        squat(board, first_seq=1000 * (round_ + 1))
    assert board.table("kitchen")["pick"]["seq"] == PLAYING_PICKS
    assert not board.refused


def test_retained_picks_are_never_play():
    """However many picks a name has, if each came as a retained copy (the broker delivering
    what it kept, as after a club restart) it is not playing and makes room."""
    clock = Clock()
    board = Board(clock)
    for seq in range(1, 13):
        board.apply("ghost", "pick", pick(seq), live=False)
    assert not board.tables["ghost"].playing(clock.now)
    for i in range(payloads.MAX_TABLES):
        board.apply(f"t{i}", "scores", json.dumps({"players": [], "totals": {}}).encode())
    assert "ghost" not in board.tables and board.evicted == 1


def test_play_goes_stale_after_the_window_and_a_stale_table_makes_room():
    clock = Clock()
    board = Board(clock)
    for i in range(payloads.MAX_TABLES):
        for seq in range(1, PLAYING_PICKS + 1):
            board.apply(f"t{i}", "pick", pick(seq))
    assert not board.apply("late", "availability", b"online")  # every table plays
    clock.now += PLAYING_WINDOW_S - 1
    board.apply("t7", "pick", pick(99))  # t7 still plays; the others' picks are almost stale
    clock.now += 2
    assert board.apply("late", "availability", b"online")
    assert "late" in board.tables and "t7" in board.tables
    assert board.refused == {"too many tables": 1} and board.evicted == 1


@pytest.mark.parametrize("compact_after", [2000, 5], ids=["messages", "compacted"])
def test_the_journal_keeps_what_was_live_and_when_so_a_restart_judges_the_same(
    tmp_path, compact_after
):
    clock = Clock()
    board = Board(clock)
    journal = ClubJournal(tmp_path / "club.sqlite3", compact_after=compact_after)
    messages = [(f"squat{i}", "pick", pick(i), False) for i in range(SQUATTERS)]
    messages += [("kitchen", "pick", pick(seq), True) for seq in (1, 2)]
    for table, leaf, payload, live in messages:
        clock.now += 1
        if board.apply(table, leaf, payload, live=live):
            journal.append(table, leaf, payload, board, live=live, received=clock.now)
    journal.close()
    again = Board(clock)
    ClubJournal(tmp_path / "club.sqlite3").replay(again)
    assert sorted(again.tables) == sorted(board.tables)
    assert again.tables["kitchen"].playing(clock.now)
    assert not [t for t in again.tables.values() if t.name != "kitchen" and t.playing(clock.now)]


def test_a_journal_from_before_live_opens_and_its_messages_count_as_live(tmp_path):
    path = tmp_path / "club.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TABLE messages (id INTEGER PRIMARY KEY, received REAL NOT NULL, "
            "tbl TEXT NOT NULL, leaf TEXT NOT NULL, payload BLOB NOT NULL)"
        )
        for seq in (1, 2):
            db.execute(
                "INSERT INTO messages (received, tbl, leaf, payload) VALUES (?, ?, ?, ?)",
                (Clock().now, "kitchen", "pick", pick(seq)),
            )
    board = Board(Clock())
    assert ClubJournal(path).replay(board) == 2
    assert board.tables["kitchen"].playing(Clock().now)


def page(club: ClubService) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{club.port}/api/club", timeout=10) as res:
        return json.load(res)


def publish_squatters(rogue, first_seq: int) -> None:
    for i in range(SQUATTERS):
        rogue.publish(f"tinker-tray/squat{i}/pick", pick(first_seq + i).decode(), retain=True)


@pytest.mark.broker
def test_forty_squatters_with_retained_picks_never_keep_a_real_table_off_the_page(
    own_broker, listen, make_table, tmp_path
):
    """Debian's mosquitto: 40 names each publish a retained pick while the club listens, then
    the real `kitchen` plays two picks. The club's page shows it, and again after a restart,
    when the broker delivers all 41 tables' retained messages once more."""
    journal = tmp_path / "club.sqlite3"
    club = ClubService(Broker.from_url(own_broker.url), journal).start(port=0)
    rogue = listen(own_broker.port, "nothing/at/all")
    table = make_table("kitchen")
    linked = None
    try:
        for i in range(SQUATTERS):
            rogue.publish(f"tinker-tray/squat{i}/pick", pick(i + 1).decode(), retain=True)
        board = club.board  # every squatter read: evicted (or, before 41.2, refused)
        wait_until(
            lambda: board.evicted + board.refused["too many tables"] >= SQUATTERS - 32,
            what="the squatters",
        )
        linked = publish_table(own_broker, table, "kitchen")
        table.session.new_game(["Ann", "Bo"])
        table_pick(table, 1, "blue")
        table_pick(table, 2, "green")
        wait_until(
            lambda: ((club.board.table("kitchen") or {}).get("pick") or {}).get("seq") == 2,
            what="kitchen's second pick",
        )
        assert "kitchen" in [t["name"] for t in page(club)["tables"]]
        club.close()
        club = ClubService(Broker.from_url(own_broker.url), journal).start(port=0)
        # the squatters not on the board come back as retained copies and evict each other
        wait_until(lambda: club.board.evicted >= SQUATTERS + 1 - 32, what="the retained again")
        shown = page(club)
        names = [t["name"] for t in shown["tables"]]
        assert "kitchen" in names and len(names) == payloads.MAX_TABLES
        assert not shown["refused"]
        kitchen = next(t for t in shown["tables"] if t["name"] == "kitchen")
        assert kitchen["pick"]["colour"] == "green"
    finally:
        if linked is not None:
            linked.close()
        club.close()
