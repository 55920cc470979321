"""The games without points (UNO Elite) on the scoreboard: a tally of wins per player, from the
journal's results, the same place for every ruleset."""

from __future__ import annotations

import json
import sqlite3

import pytest
from rich.console import Console

from scoreboard import wins
from scoreboard.journal import Journal, UnknownGameError
from scoreboard.session import TableChanged, TableSession
from scoreboard.terminal import render

SETUP = {"header": {"format": "tinker-tray-record/1", "ruleset": "elite"}, "humans": [0]}


def test_the_tally_counts_each_players_wins_and_games_most_wins_first(journal):
    journal.add_result(None, ["Ann", "Ben", "Cat"], 1, "elite", mode="quick")
    journal.add_result(journal.start_digital(SETUP), ["Ben", "Ann"], 0, "elite", mode="draft")
    journal.add_result(None, ["Ann", "Dee"], 0, "elite")
    tally = wins.tally(journal.results())
    assert tally["games"] == 3
    assert tally["players"] == [
        {"name": "Ben", "wins": 2, "played": 2},
        {"name": "Ann", "wins": 1, "played": 3},
        {"name": "Cat", "wins": 0, "played": 1},
        {"name": "Dee", "wins": 0, "played": 1},
    ]
    assert tally["last"] == "Ann"
    assert wins.says(tally) == "Wins (games without points): Ben 2, Ann 1, Cat 0, Dee 0 (3 games)."
    assert wins.says(wins.tally([])) == "Wins (games without points): no game finished yet."


def test_a_game_with_a_score_sheet_is_not_on_the_tally(journal):
    table = journal.create_game(
        {"kind": "start", "players": ["A", "B"], "dealer": 0, "options": {}}
    )
    journal.start_digital(SETUP, game=table)
    journal.add_result(table, ["A", "B"], 1, "disney")
    [result] = journal.results()
    assert (result.game, result.ruleset, result.scored) == (table, "disney", True)
    assert wins.tally(journal.results())["games"] == 0  # its sheet says who won


def test_results_survive_a_restart_and_a_bad_one_is_refused(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    game = j.start_digital(SETUP)
    j.add_result(game, ["Ann", "Ben"], 1, "elite", mode="quick")
    with pytest.raises(ValueError, match="the winner is a seat from 0 to 1"):
        j.add_result(None, ["Ann", "Ben"], 2, "elite")
    with pytest.raises(ValueError, match=f"game {game} is over already"):
        j.add_result(game, ["Ann", "Ben"], 0, "elite")
    with pytest.raises(ValueError, match="a list of names"):
        j.add_result(None, [], 0, "elite")
    with pytest.raises(UnknownGameError):
        j.add_result(99, ["Ann", "Ben"], 0, "elite")
    j.close()
    j = Journal(path)
    [kept] = j.results()
    assert (kept.game, kept.players, kept.winner, kept.ruleset, kept.mode) == (
        game,
        ("Ann", "Ben"),
        1,
        "elite",
        "quick",
    )
    assert j.latest_digital().finished
    j.close()


def test_a_won_game_is_announced_and_in_every_view(journal, bus, recorder):
    s = TableSession(journal, bus)
    s.new_game(["Ann", "Ben"])  # a points game at the table goes on beside the tally
    _, before = s.view_json()
    assert json.loads(before)["wins"]["games"] == 0
    s.game_won(journal.start_digital(SETUP), ["Zoe", "Yan"], 0, "elite", mode="draft")
    assert [e.kind for e in recorder.of(TableChanged)][-1] == "won"
    _, after = s.view_json()
    tally = json.loads(after)["wins"]
    assert tally["players"][0] == {"name": "Zoe", "wins": 1, "played": 1}
    assert json.loads(s.view_change(before, after)).keys() == {"wins"}  # only the tally moved
    assert s.view()["wins"] == tally
    assert TableSession(journal).view()["wins"] == tally  # a restart reads it back


def test_deleting_a_won_game_takes_its_win_off_the_tally(journal):
    s = TableSession(journal)
    game = journal.start_digital(SETUP)
    s.game_won(game, ["Zoe", "Yan"], 0, "elite")
    assert s.view()["wins"]["games"] == 1
    journal.delete_game(game, f"delete game {game}")
    assert s.view()["wins"]["games"] == 0 and journal.results() == []


def test_an_elite_game_kept_and_won_through_the_generic_names_is_on_the_tally(journal):
    s = TableSession(journal)
    game = journal.start_digital(SETUP)
    journal.append_moves(game, [{"seat": 0, "act": "play"}])
    kept = journal.latest_digital()
    assert (kept.game, kept.events, kept.finished) == (game, [{"seat": 0, "act": "play"}], False)
    s.game_won(game, ["Ann", "Ben"], 1, "elite", mode="quick")
    assert [(r.players, r.winner, r.ruleset, r.mode) for r in journal.results()] == [
        (("Ann", "Ben"), 1, "elite", "quick")
    ]
    assert s.wins["games"] == 1
    assert journal.latest_digital().finished


def test_the_terminal_scoreboard_shows_the_tally_only_once_a_game_is_won(journal):
    s = TableSession(journal)
    console = Console(width=100, record=True, color_system=None)
    console.print(render(s.view()))
    assert "Wins" not in console.export_text()
    s.game_won(None, ["Ann", "Ben"], 1, "elite")
    console.print(render(s.view()))
    assert "Wins (games without points): Ben 1, Ann 0 (1 game)." in console.export_text()


def test_a_version_2_journal_gains_the_digital_tables_and_keeps_its_games(tmp_path):
    path = tmp_path / "journal.sqlite3"
    j = Journal(path)
    g = j.create_game({"kind": "start", "players": ["A", "B"], "dealer": 0, "options": {}})
    j.close()
    db = sqlite3.connect(path)  # as the release before UNO Elite wrote it
    db.executescript("DROP TABLE results; PRAGMA user_version=2;")
    db.close()
    j = Journal(path)
    assert j.damaged == []
    assert [x.entry["kind"] for x in j.entries(g)] == ["start"]
    assert j.results() == [] and j.latest_digital() is None
    j.add_result(None, ["A", "B"], 0, "elite")
    assert len(j.results()) == 1
    j.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 4
    db.close()
