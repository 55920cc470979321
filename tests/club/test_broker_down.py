"""The broker killed mid-game and started again: the table, its scoreboard and journal carry on;
what the broker missed is queued and delivered; the club's journal holds every pick and score."""

from __future__ import annotations

import json
import time

import pytest

from club.link import Broker
from club.service import ClubService
from tests.club.conftest import QUICK_SHOW
from tests.club.test_publisher import publish_table
from tests.helpers.broker import wait_until
from tests.helpers.picks import ShowingTray
from tray.events import ButtonPressed, Pick

pytestmark = pytest.mark.broker


def settled_pick(table, seq, colour):
    table.bus.publish(ButtonPressed(t=time.time(), source="test"))
    # as the tray service posts it: stamped with its show, then PickSettled as it lands
    ShowingTray(table.bus, QUICK_SHOW).publish(
        Pick(seq=seq, colour=colour, t=time.time(), source="test")
    )
    wait_until(
        lambda: (p := table.session.view()["pick"]) and p["seq"] == seq and not p["pending"],
        what=f"pick {seq} settled",
    )


def hand(table, winner, held):
    table.session.submit({"kind": "hand", "winner": winner, "held": held})


def club_has(club, table, seqs, hands):
    state = club.board.table(table)
    return (
        state is not None
        and {p["seq"] for p in state["picks"]} >= seqs
        and (state["scores"] or {}).get("hands") == hands
    )


def test_the_broker_killed_mid_game_loses_nothing(own_broker, make_table, listen, tmp_path):
    table = make_table("hall")
    linked = publish_table(own_broker, table, "hall")
    club = ClubService(
        Broker.from_url(own_broker.url), tmp_path / "club.sqlite3", backoff=(0.05, 0.2)
    ).start(port=0)
    try:
        table.session.new_game(["Ann", "Bo"])
        settled_pick(table, 1, "red")
        hand(table, 0, [None, ["R7"]])
        wait_until(lambda: club_has(club, "hall", {1}, 1), what="the club before the kill")

        own_broker.kill()
        wait_until(lambda: not linked.link.connected, what="the link to notice")
        settled_pick(table, 2, "blue")
        hand(table, 1, [["B5"], None])
        settled_pick(table, 3, "yellow")
        hand(table, 0, [None, ["W"]])
        # The table never stopped: its scoreboard and journal have all three hands.
        view = table.session.view()
        assert len(view["hands"]) == 3 and view["pick"]["seq"] == 3
        assert len(table.journal.load(view["game"]).game.hands) == 3
        assert linked.link.queued > 0 and linked.link.dropped == 0

        own_broker.start()  # the same port, config and persistence folder
        # (a bound for a loaded machine: the broker's start, both reconnections and the flush;
        # CI's run with two emulators beside it took more than the usual 10 s once)
        wait_until(lambda: club_has(club, "hall", {1, 2, 3}, 3), 30, what="the club after")
        assert club.journal.count("pick") == 3
        state = club.board.table("hall")
        assert state["scores"]["totals"] == view_totals(view)
        assert state["online"] is True

        retained = listen(own_broker.port, "tinker-tray/hall/+")
        retained.wait_for(
            lambda ls: ls.on("tinker-tray/hall/scores") and ls.on("tinker-tray/hall/pick"),
            what="the retained states",
        )
        assert json.loads(retained.on("tinker-tray/hall/scores")[-1].payload)["hands"] == 3
        assert json.loads(retained.on("tinker-tray/hall/pick")[-1].payload)["seq"] == 3
    finally:
        linked.close()
        club.close()

    # A restarted club shows the evening so far from its journal, before any broker news.
    again = ClubService(Broker.from_url(own_broker.url), tmp_path / "club.sqlite3")
    try:
        assert club_has(again, "hall", {1, 2, 3}, 3)
    finally:
        again.journal.close()


def view_totals(view):
    return {p["name"]: p["total"] for p in view["players"]}
