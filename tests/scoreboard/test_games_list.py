"""The entry page's list of kept games says which are over: a finished digital game is
"(finished)", never "(current)", even when it is the table's latest game."""

from __future__ import annotations

from starlette.testclient import TestClient

from scoreboard.journal import Journal
from scoreboard.web import create_app
from tests.helpers.web import TOKEN
from tray.bus import Bus


def test_a_finished_game_is_listed_as_finished(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    over = journal.start_digital({"header": {"ruleset": "elite"}}, name="UNO Elite")
    journal.add_result(over, ["Ann", "Ben"], 1, "elite", mode="quick")
    playing = journal.start_digital({"header": {"ruleset": "elite"}}, name="UNO Elite again")
    with TestClient(create_app(journal, Bus(), TOKEN)) as client:
        games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert games[over]["finished"] is True and games[over]["winner"] == "Ben"
    assert games[playing]["finished"] is False and games[playing]["winner"] is None
    journal.close()
