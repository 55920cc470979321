"""The digital game in play after kill -9 and a restart (issue 31, items 2 and 3): it is the
one the journal's own order says was started last, whatever the clock said (a Pi without a
real-time clock may start a day back), and it comes back whatever the scoreboard started after
it. Real processes, a real journal file; the person's seat key is the proof (it plays on)."""

from __future__ import annotations

import sqlite3

import pytest

from scoreboard.journal import Journal
from tests.helpers.service import Service

pytestmark = pytest.mark.slow  # real processes

ELITE = {"players": ["Ann", "Bob", "Cy"], "humans": [0], "bots": "greedy", "pace": 0}
ELITE_OPTIONS = {"ruleset": "elite", "options": {"mode": "quick"}}


def start_digital(service: Service, confirm: bool = False) -> str:
    status, answer = service.call(
        "/api/digital/new", {**ELITE, **ELITE_OPTIONS, "confirm": confirm}
    )
    assert status == 200, answer
    return answer["keys"]["0"]


def seat_view(service: Service, key: str) -> tuple[int, dict]:
    return service.call("/api/digital/view?seat=0", key=key, host=False)


def test_the_game_started_last_comes_back_though_the_clock_said_it_was_older(tmp_path):
    journal = tmp_path / "journal.sqlite3"
    first = Service.ready(journal)
    older = start_digital(first)
    newer = start_digital(first, confirm=True)  # the host replaces the game in play
    status, before = seat_view(first, newer)
    assert status == 200 and before["seat"] == 0
    first.kill()
    with sqlite3.connect(journal) as db:  # as a clock a day back would have written it
        last = db.execute("SELECT MAX(game) FROM records").fetchone()[0]
        db.execute("UPDATE games SET created = created - 86400 WHERE id = ?", (last,))
    db.close()

    again = Service.ready(journal)
    try:
        status, view = seat_view(again, newer)
        assert status == 200 and view["seat"] == 0, view
        assert view["hand"] == before["hand"]
        assert seat_view(again, older)[0] == 403
    finally:
        again.stop()


def test_a_digital_game_in_play_comes_back_after_a_table_game_started_after_it(tmp_path):
    first = Service.ready(tmp_path / "journal.sqlite3")
    key = start_digital(first)
    status, before = seat_view(first, key)
    assert status == 200
    status, _ = first.call("/api/new-game", {"players": ["Dee", "Eve"]})  # the scoreboard's
    assert status == 200
    again = first.killed_and_restarted()
    try:
        status, view = seat_view(again, key)
        assert status == 200 and view["seat"] == 0, view
        assert view["hand"] == before["hand"] and view["awaiting"] == before["awaiting"]
        status, table = again.call("/api/view")
        assert table["players"][0]["name"] == "Dee"  # the scoreboard keeps its own game
    finally:
        again.stop()
    kept = Journal(first.journal)
    assert not kept.latest_digital().finished
    kept.close()
