"""One journal schema for the digital games of every ruleset: a game is a `games` row, its setup
in `records`, its events in `moves`, its winner in `results`, through one API whatever the
ruleset (`start_digital`, `append_moves`, `latest_digital`, `add_result`, `results`)."""

from __future__ import annotations

import gzip
import json
import sqlite3

import pytest

from scoreboard import journal as J
from scoreboard.journal import InPlayError, Journal, NoScoreSheetError, UnknownGameError
from tests.engine.corpus.make import RECORDS, run_cli

START = {"kind": "start", "players": ["A", "B"], "dealer": 0, "options": {}}
SEATS = {"humans": [0], "keys": {"0": "k0"}, "bots": ["greedy"], "pace": 0.0}
EVERY_RULESET = [  # a whole game of each, as the engine wrote it (tests/engine/corpus)
    "disney-p4-game-standard",
    "classic-game-standard",
    "official-game-lowest",
    "elvis-game-partners",
    "elite-quick",
    "elite-draft",
]


def test_a_fresh_journal_has_the_one_schema(tmp_path):
    path = tmp_path / "journal.sqlite3"
    Journal(path).close()
    db = sqlite3.connect(path)
    names = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert names - {"sqlite_sequence"} == {
        "games",
        "entries",
        "meta",
        "records",
        "moves",
        "results",
    }
    assert db.execute("PRAGMA user_version").fetchone()[0] == J.SCHEMA_VERSION
    assert db.execute("PRAGMA application_id").fetchone()[0] == J.APPLICATION_ID
    db.close()


@pytest.mark.parametrize("name", EVERY_RULESET)
def test_a_digital_game_of_every_ruleset_round_trips_and_replays_the_same(tmp_path, name):
    text = gzip.decompress((RECORDS / name / "game-00001.jsonl.gz").read_bytes()).decode()
    header, *events = (json.loads(line) for line in text.splitlines())
    path = tmp_path / "journal.sqlite3"
    j = Journal(path)
    game = j.start_digital({**SEATS, "header": header})
    for at in range(0, len(events), 50):  # kept as play goes, a few moves at a time
        j.append_moves(game, events[at : at + 50])
    j.close()

    j = Journal(path)  # a restart
    kept = j.latest_digital()
    assert kept is not None and (kept.game, kept.finished) == (game, False)
    assert kept.setup == {**SEATS, "header": header} and kept.events == events
    exported = tmp_path / "kept.jsonl"
    exported.write_text(j.export_record(game))
    code, out = run_cli(["replay", str(exported)])
    assert code == 0
    assert out.strip() == (RECORDS / name / "game-00001.replay.json").read_text().strip()

    j.add_result(game, list(header["players"]), 1, header["ruleset"])
    assert j.latest_digital().finished
    [result] = j.results()
    assert (result.game, result.ruleset, result.players) == (
        game,
        header["ruleset"],
        tuple(header["players"]),
    )
    j.close()


def test_a_growing_move_is_revised_in_place(journal):
    game = journal.start_digital({**SEATS, "header": {"ruleset": "disney"}})
    journal.append_moves(game, [{"seat": 0, "discard": ["R1"]}])
    journal.append_moves(game, [], revised={"seat": 0, "discard": ["R1", "B1"]})
    assert journal.latest_digital().events == [{"seat": 0, "discard": ["R1", "B1"]}]


def test_the_newest_digital_game_is_the_one_started_last_and_the_table_game_stays(journal):
    table = journal.create_game(START)
    journal.append(table, {"kind": "hand", "winner": 0, "held": [None, ["R7"]]})
    with_sheet = journal.create_game(START, name="digital game")
    journal.start_digital({**SEATS, "header": {"ruleset": "disney"}}, game=with_sheet)
    elite = journal.start_digital({**SEATS, "header": {"ruleset": "elite"}})
    assert journal.latest_digital().game == elite
    assert journal.latest_game() == with_sheet  # the table shows the newest score sheet
    assert [(g.id, g.digital, g.entries) for g in journal.games()] == [
        (table, False, 2),
        (with_sheet, True, 1),
        (elite, True, 0),
    ]
    assert journal.record(table) is None
    with pytest.raises(NoScoreSheetError, match="no score sheet"):
        journal.export_csv(elite)
    with pytest.raises(NoScoreSheetError):
        journal.export_json(elite)
    assert journal.export_record(elite).startswith('{"ruleset": "elite"}')


def test_a_setup_without_its_header_or_a_second_record_is_refused(journal):
    with pytest.raises(ValueError, match="record's header"):
        journal.start_digital({"humans": [0]})
    game = journal.start_digital({"header": {}})
    with pytest.raises(ValueError, match="already has its game record"):
        journal.start_digital({"header": {}}, game=game)
    with pytest.raises(UnknownGameError):
        journal.start_digital({"header": {}}, game=99)
    with pytest.raises(UnknownGameError, match="no record"):
        journal.append_moves(99, [{}])
    assert [g.id for g in journal.games()] == [game]  # nothing else was kept


def test_deleting_a_digital_game_takes_its_record_and_result(journal):
    game = journal.start_digital({**SEATS, "header": {}})
    journal.append_moves(game, [{"seat": 0}])
    journal.add_result(game, ["A", "B"], 0, "elite")
    journal.delete_game(game, f"delete game {game}")
    assert journal.latest_digital() is None and journal.results() == []
    assert journal.games() == []


def test_a_digital_game_held_until_won_cannot_be_deleted_until_its_result_is_kept(journal):
    """What digital play does with every game it plays (`hold`, until it is over): an Elite
    game's result makes it deletable."""
    game = journal.start_digital({**SEATS, "header": {"ruleset": "elite"}})
    journal.hold(game, "digital play (/play)", lambda: not journal.finished(game))
    with pytest.raises(InPlayError, match="being played in digital play"):
        journal.delete_game(game, f"delete game {game}")
    journal.add_result(game, ["A", "B"], 0, "elite", mode="quick")
    journal.delete_game(game, f"delete game {game}")


def test_the_games_page_lists_a_game_without_a_score_sheet_and_exports_its_record(journal):
    from starlette.testclient import TestClient

    from scoreboard.web import create_app
    from tests.helpers.web import TOKEN
    from tray.bus import Bus

    table = journal.create_game(START)
    game = journal.start_digital({**SEATS, "header": {"ruleset": "elite"}})
    journal.append_moves(game, [{"seat": 0, "act": "play"}])
    with TestClient(create_app(journal, Bus(), TOKEN)) as client:
        client.headers["X-Table-Token"] = TOKEN
        listed = client.get("/api/games").json()
        assert listed["current"] == table  # the scoreboard keeps the table's game
        assert [(g["id"], g["digital"], g["entries"]) for g in listed["games"]] == [
            (game, True, 0),
            (table, False, 1),
        ]
        csv = client.get(f"/api/games/{game}.csv")
        assert csv.status_code == 404 and "no score sheet" in csv.text
        assert client.get(f"/api/games/{game}.jsonl").status_code == 409  # still in play
        journal.add_result(game, ["A", "B"], 0, "elite")
        record = client.get(f"/api/games/{game}.jsonl")
        assert record.status_code == 200 and record.text == journal.export_record(game)
        delete = {"confirm": f"delete game {game}"}
        assert client.post(f"/api/games/{game}/delete", json=delete).status_code == 200
    assert journal.latest_digital() is None


def test_the_game_in_play_is_the_one_started_last_whatever_the_clock_said(tmp_path):
    """A Pi without a real-time clock: the second game is started with the clock a day back."""
    now = [100_000.0]
    journal = Journal(tmp_path / "journal.sqlite3", clock=lambda: now[0])
    first = journal.start_digital({**SEATS, "header": {"ruleset": "elite"}})
    now[0] -= 86_400
    second = journal.start_digital({**SEATS, "header": {"ruleset": "elite"}})
    assert journal.latest_digital().game == second
    assert journal.latest_digital(in_play=True).game == second
    journal.add_result(second, ["A", "B"], 0, "elite")
    assert journal.latest_digital().game == second  # the newest, shown as it ended
    assert journal.latest_digital(in_play=True).game == first  # never passed over for it
    journal.close()
