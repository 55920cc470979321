"""UNO Elite on the scoreboard: no points, a tally of wins per player, kept in the journal."""

from __future__ import annotations

import json

import pytest
from rich.console import Console

from scoreboard import elite_wins
from scoreboard.journal import Journal
from scoreboard.session import TableChanged, TableSession
from scoreboard.terminal import render


def test_the_tally_counts_each_players_wins_and_games_most_wins_first(journal):
    journal.add_elite_result(["Ann", "Ben", "Cat"], 1, "quick")
    journal.add_elite_result(["Ben", "Ann"], 0, "draft")
    journal.add_elite_result(["Ann", "Dee"], 0, "quick")
    tally = elite_wins.tally(journal.elite_results())
    assert tally["games"] == 3
    assert tally["players"] == [
        {"name": "Ben", "wins": 2, "played": 2},
        {"name": "Ann", "wins": 1, "played": 3},
        {"name": "Cat", "wins": 0, "played": 1},
        {"name": "Dee", "wins": 0, "played": 1},
    ]
    assert tally["last"] == "Ann"
    assert elite_wins.says(tally) == "UNO Elite wins: Ben 2, Ann 1, Cat 0, Dee 0 (3 games)."
    assert elite_wins.says(elite_wins.tally([])) == "UNO Elite wins: no game finished yet."


def test_results_survive_a_restart_and_a_bad_winner_is_refused(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    j.add_elite_result(["Ann", "Ben"], 1, "quick")
    with pytest.raises(ValueError, match="the winner is a seat from 0 to 1"):
        j.add_elite_result(["Ann", "Ben"], 2, "quick")
    j.close()
    j = Journal(path)
    [kept] = j.elite_results()
    assert (kept.players, kept.winner, kept.mode) == (("Ann", "Ben"), 1, "quick")
    j.close()


def test_a_won_game_is_announced_and_in_every_view(journal, bus, recorder):
    s = TableSession(journal, bus)
    s.new_game(["Ann", "Ben"])  # a points game at the table goes on beside the Elite tally
    _, before = s.view_json()
    assert json.loads(before)["elite"]["games"] == 0
    s.elite_won(["Zoe", "Yan"], 0, "draft")
    assert [e.kind for e in recorder.of(TableChanged)][-1] == "elite"
    _, after = s.view_json()
    elite = json.loads(after)["elite"]
    assert elite["players"][0] == {"name": "Zoe", "wins": 1, "played": 1}
    assert json.loads(s.view_change(before, after)).keys() == {"elite"}  # only the tally moved
    assert s.view()["elite"] == elite
    assert TableSession(journal).view()["elite"] == elite  # a restart reads it back


def test_the_terminal_scoreboard_shows_the_tally_only_once_a_game_is_won(journal):
    s = TableSession(journal)
    console = Console(width=100, record=True, color_system=None)
    console.print(render(s.view()))
    assert "UNO Elite" not in console.export_text()
    s.elite_won(["Ann", "Ben"], 1, "quick")
    console.print(render(s.view()))
    assert "UNO Elite wins: Ben 1, Ann 0 (1 game)." in console.export_text()


def test_a_version_2_journal_gains_the_elite_tables_and_keeps_its_games(tmp_path):
    import sqlite3

    path = tmp_path / "journal.sqlite3"
    j = Journal(path)
    g = j.create_game({"kind": "start", "players": ["A", "B"], "dealer": 0, "options": {}})
    j.close()
    db = sqlite3.connect(path)  # as the release before UNO Elite wrote it
    db.executescript(
        "DROP TABLE elite_results; DROP TABLE elite_moves; DROP TABLE elite_games; "
        "PRAGMA user_version=2;"
    )
    db.close()
    j = Journal(path)
    assert [x.entry["kind"] for x in j.entries(g)] == ["start"]
    assert j.elite_results() == [] and j.latest_elite_game() is None
    j.add_elite_result(["A", "B"], 0, "quick")
    assert len(j.elite_results()) == 1
    j.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 3
    db.close()
