"""The club reads every publisher on the broker, so it must hold whatever they send: each limit
of `club.payloads` refuses and counts, a flood keeps the board, the page's snapshot and the
journal within their documented bounds, and a page is sent what changed, not the whole board."""

from __future__ import annotations

import json
import logging

import pytest

from club import payloads
from club.board import Board
from club.journal import ClubJournal
from club.link import Broker
from club.service import ClubService
from tests.helpers.broker import wait_until

# The bounds docs/mqtt.md promises ("The club's limits").
SNAPSHOT_BOUND = 768 * 1024
MEMORY_BOUND = 2 * 1024 * 1024
JOURNAL_BOUND = 10 * 1024 * 1024


def data(payload) -> bytes:
    return payload if isinstance(payload, bytes) else json.dumps(payload).encode()


def winner(game: int, name: str = "Ann") -> bytes:
    return data({"game": game, "names": [name], "text": f"{name} wins!", "totals": {name: 500}})


def scores(names: list[str], game: int = 1) -> bytes:
    players = [
        {"name": n, "total": 10 * i, "out": False, "leads": i == 0} for i, n in enumerate(names)
    ]
    totals = {p["name"]: p["total"] for p in players}
    return data(
        {
            "game": game,
            "players": players,
            "totals": totals,
            "leader": names[0],
            "hands": 1,
            "target": 500,
            "scoring": "standard",
            "over": False,
        }
    )


def pick(seq: int, colour: str = "red") -> bytes:
    return data({"seq": seq, "colour": colour, "says": "x", "declared": None, "game": 1, "t": seq})


@pytest.mark.parametrize(
    ("leaf", "payload", "reason"),
    [
        ("scores", b"{" + b" " * payloads.MAX_PAYLOAD + b"}", "too large"),
        ("press", b"x" * (payloads.MAX_PAYLOAD + 1), "too large"),
        ("pick", b"[" * 3000 + b"]" * 3000, "too large"),
        ("pick", b"[" * 2000 + b"]" * 2000, "not JSON"),  # deeper than the parser goes
        ("pick", b"{bad", "not JSON"),
        ("pick", b"\xff\xfe", "not JSON"),
        ("pick", b"[1, 2]", "bad shape"),
        ("pick", data({"seq": 1, "colour": "purple", "t": 1}), "bad shape"),
        ("pick", data({"seq": "1", "colour": "red", "t": 1}), "bad shape"),
        ("pick", data({"seq": 1, "colour": "red", "t": 1, "says": "x" * 401}), "bad shape"),
        ("scores", data({"players": [{"name": "A"}] * 11}), "bad shape"),
        ("scores", data({"players": [{"name": "x" * 41, "total": 1}]}), "bad shape"),
        ("scores", data({"players": [], "totals": {"A": "lots"}}), "bad shape"),
        ("winner", data({"game": 1, "names": "Ann", "text": "Ann"}), "bad shape"),
        ("winner", data({"game": 1, "names": [["Ann"]], "text": "Ann"}), "bad shape"),
    ],
)
def test_a_message_that_breaks_a_limit_is_refused_and_counted(leaf, payload, reason, caplog):
    board = Board()
    caplog.set_level(logging.DEBUG)
    assert not board.apply("kitchen", leaf, payload)
    assert board.refused == {reason: 1} and board.version == 0 and not board.tables
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_winner_with_no_names_is_a_game_in_play_not_a_refusal():
    board = Board()
    assert not board.apply("a", "winner", data({"game": 2, "names": [], "text": "", "totals": {}}))
    assert not board.refused


def test_only_the_fields_the_page_shows_are_kept():
    board = Board()
    extra = json.loads(pick(1))
    extra["secret"] = "y" * 2000
    assert board.apply("kitchen", "pick", data(extra))
    assert "secret" not in board.table("kitchen")["pick"]


def test_table_names_and_the_number_of_tables_are_bounded():
    board = Board()
    assert not board.apply("x" * 41, "press", b"{}")
    assert not board.apply("bad name!", "press", b"{}")
    for i in range(payloads.MAX_TABLES):
        assert board.apply(f"t{i}", "pick", pick(1)) and board.apply(f"t{i}", "pick", pick(2))
    assert not board.apply("one-too-many", "press", b"{}")  # every table is playing
    assert board.apply("t0", "press", b"{}")  # the tables already there carry on
    assert board.refused == {"bad table name": 2, "too many tables": 1}
    assert len(board.tables) == payloads.MAX_TABLES


def test_picks_and_finished_games_are_bounded_per_table_and_on_the_page():
    board = Board()
    for i in range(100):
        board.apply("a", "pick", pick(i))
        board.apply("a", "winner", winner(i))
        board.apply("b", "winner", winner(i, "Bo"))
    a = board.table("a")
    assert len(a["picks"]) == payloads.RECENT_PICKS and a["pick"]["seq"] == 99
    assert [g["game"] for g in a["finished"]] == list(
        range(99, 99 - payloads.FINISHED_PER_TABLE, -1)
    )
    finished = board.snapshot()["finished"]
    assert len(finished) == payloads.FINISHED_SHOWN
    assert (finished[0]["table"], finished[0]["game"]) == ("b", 99)


def test_a_page_is_sent_only_the_tables_that_changed():
    board = Board()
    for i in range(20):
        board.apply(f"t{i}", "scores", scores(["Ann", "Bo", "Cy"]))
    seen = board.version
    board.apply("t7", "pick", pick(1))
    change = board.changes_since(seen)
    assert [t["name"] for t in change["tables"]] == ["t7"] and "finished" not in change
    whole = len(board.snapshot_text()[1])
    assert len(json.dumps(change)) * 10 < whole
    board.apply("t3", "winner", winner(1))
    change = board.changes_since(seen)
    assert [t["name"] for t in change["tables"]] == ["t3", "t7"]
    assert [g["table"] for g in change["finished"]] == ["t3"]


def test_the_journal_compacts_and_a_replay_rebuilds_the_same_board(tmp_path):
    board = Board()
    journal = ClubJournal(tmp_path / "club.sqlite3", compact_after=50)
    messages = [("a", "scores", scores(["Ann", "Bo"]))]
    messages += [(f"t{i % 5}", "press", b"{}") for i in range(120)]
    messages += [("a", "pick", pick(i)) for i in range(30)] + [("a", "winner", winner(3))]
    for table, leaf, payload in messages:
        if board.apply(table, leaf, payload):
            journal.append(table, leaf, payload, board)
    assert journal.count() < 50
    journal.close()
    again = Board()
    ClubJournal(tmp_path / "club.sqlite3").replay(again)
    assert again.snapshot() == board.snapshot()
    assert again.table("t1")["presses"] == 24


@pytest.mark.broker
def test_a_rogue_flood_stays_within_the_documented_limits(own_broker, listen, tmp_path):
    """3,000 fake winners, 300 fake tables, a 1 MB retained scores payload and a payload nested
    5,000 deep, through Debian's mosquitto into the club as `tinker-tray club` runs it."""
    journal = tmp_path / "club.sqlite3"
    club = ClubService(Broker.from_url(own_broker.url), journal).start(port=0)
    rogue = listen(own_broker.port, "nothing/at/all")
    try:
        rogue.publish("tinker-tray/big/scores", "{" + " " * (1 << 20) + "}", retain=True)
        rogue.publish("tinker-tray/deep/pick", "[" * 5000 + "]" * 5000)
        for i in range(300):
            rogue.publish(f"tinker-tray/fake{i}/availability", "online")
        for i in range(3000):
            rogue.publish(f"tinker-tray/fake{i % 10}/winner", winner(i).decode())
        rogue.publish("tinker-tray/fake0/pick", pick(1).decode())  # the last one sent
        wait_until(lambda: (club.board.table("fake0") or {}).get("pick"), what="the flood read")
        board = club.board
        assert len(board.tables) == payloads.MAX_TABLES  # fakes that only publish churn
        assert board.evicted >= 300 - payloads.MAX_TABLES and not board.refused["too many tables"]
        assert board.refused["too large"] == 2  # "big" and "deep", refused before being read
        _version, text = board.snapshot_text()
        assert len(text) < SNAPSHOT_BOUND
        assert club.journal.count() < club.journal.compact_after
        size = sum(f.stat().st_size for f in tmp_path.glob("club.sqlite3*"))
        assert size < JOURNAL_BOUND
    finally:
        club.close()


def test_a_damaged_board_record_is_reported_and_the_club_still_starts(tmp_path, caplog):
    import sqlite3

    path = tmp_path / "club.sqlite3"
    board, journal = Board(), ClubJournal(path, compact_after=2)
    for i in range(2):
        board.apply("a", "pick", pick(i))
        journal.append("a", "pick", pick(i), board)
    journal.append("a", "press", b"{}")  # after the compaction
    journal.close()
    with sqlite3.connect(path) as db:
        db.execute('UPDATE board SET state = \'{"tables": [{"nom": 1}]\'')
    again = Board()
    assert ClubJournal(path).replay(again) == 1
    assert again.table("a")["presses"] == 1
    assert "board record is damaged" in caplog.text


def test_a_board_at_every_limit_fits_its_documented_memory_and_snapshot():
    """The worst any flood can make: every table, player, text and kept game at its limit."""
    import tracemalloc

    def name(t: int, j: int) -> str:
        return f"p{t}-{j}-".ljust(payloads.MAX_NAME, "x")

    tracemalloc.start()
    try:
        board = Board()
        for t in range(payloads.MAX_TABLES):
            names = [name(t, j) for j in range(payloads.MAX_PLAYERS)]
            totals = dict.fromkeys(names, 499)
            long = "y" * payloads.MAX_TEXT
            assert board.apply(f"t{t}", "scores", scores(names))
            for k in range(payloads.RECENT_PICKS + 5):
                big = {"seq": k, "colour": "red", "says": long, "declared": long, "t": k}
                assert board.apply(f"t{t}", "pick", data(big))
            for g in range(payloads.FINISHED_PER_TABLE + 5):
                won = data({"game": g, "names": names, "text": long, "totals": totals})
                assert len(won) <= payloads.MAX_PAYLOAD and board.apply(f"t{t}", "winner", won)
        held, _peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert not board.refused
    assert held < MEMORY_BOUND
    assert len(board.snapshot_text()[1]) < SNAPSHOT_BOUND
