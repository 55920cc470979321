"""A digital game survives a restart: every move is in the journal before a page can see it, and
the next start replays the record and carries on (issue 4: "Killing the service at any moment
(kill -9) and starting it again loses no entry that was shown")."""

from __future__ import annotations

import json
import random
import sqlite3
import textwrap
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from cli.app import create_app
from engine import record
from scoreboard.journal import InPlayError, Journal
from tests.helpers.crash import shown_until_killed
from tests.helpers.digital import Picks, Table, play_out, some_moves
from tests.helpers.web import TOKEN
from tray.bus import Bus

PLAYERS = ["Ann", "Bob", "Cy"]


def test_a_restart_resumes_the_hand_in_play_with_the_same_seat_keys(tmp_path):
    path = tmp_path / "journal.sqlite3"
    first = Table(path)
    keys = first.digital.new_game(PLAYERS, [0], "greedy", options={"target": 200}, seed=4)
    rng = random.Random(1)
    some_moves(first, 0, keys[0], rng, 60)
    before = first.digital.record()
    seen = first.digital.view(0, keys[0])
    first.stop()

    again = Table(path)
    assert again.digital.journal_error is None
    assert again.digital.record() == before  # every event, in order
    view = again.digital.view(0, keys[0])  # the same page, the same key
    for field in ("hand", "top", "colour", "players", "hand_no", "legal", "log", "prompt"):
        assert view[field] == seen[field]
    play_out(again.digital, Picks(again.bus, rng), 0, keys[0], rng)
    game = again.digital.link.game
    sheet = again.table.table.game
    assert sheet is not None and len(sheet.hands) == len(game.history)  # none twice
    assert [p["total"] for p in again.table.view()["players"]] == list(game.sheet.scores)
    again.stop()


def a_hand_played(path):
    """A display on `path` whose digital game has just finished its first hand."""
    first = Table(path)
    keys = first.digital.new_game(PLAYERS, [0], "greedy", options={"target": 300}, seed=8)
    rng = random.Random(3)
    while not first.digital.link.game.history:
        some_moves(first, 0, keys[0], rng, 1)
    return first, keys, rng


def test_a_restart_between_hands_shows_each_hand_once(tmp_path):
    path = tmp_path / "journal.sqlite3"
    first, _, _ = a_hand_played(path)
    shown = first.table.view()["players"]
    first.stop()
    again = Table(path)
    sheet = again.table.table.game
    assert sheet is not None and len(sheet.hands) == len(again.digital.link.game.history) >= 1
    assert again.table.view()["players"] == shown
    again.stop()


def test_a_journal_that_entered_each_hand_too_loads_each_once(tmp_path):
    """Releases before this one entered each finished hand of a digital game on its score sheet
    as well as in its record: such a journal shows those hands once, and the hands played after
    the upgrade from the record."""
    path = tmp_path / "journal.sqlite3"
    first, keys, rng = a_hand_played(path)
    link, game_id = first.digital.link, first.table.game_id
    for h in link.game.finished_hands():  # what the earlier releases entered, hand by hand
        held = [None if s == h["winner"] else p for s, p in enumerate(h["held"])]
        first.journal.append(game_id, {"kind": "hand", "winner": h["winner"], "held": held})
    entered = len(link.game.history)
    first.stop()
    again = Table(path)
    sheet = again.table.table.game
    assert sheet is not None and len(sheet.hands) == entered
    play_out(again.digital, Picks(again.bus, rng), 0, keys[0], rng)
    game = again.digital.link.game
    assert len(game.history) > entered
    assert [p["total"] for p in again.table.view()["players"]] == list(game.sheet.scores)
    again.stop()


def test_the_record_of_a_digital_game_is_exported_from_the_journal(tmp_path):
    path = tmp_path / "journal.sqlite3"
    new = {
        "players": PLAYERS,
        "humans": [0],
        "bots": "greedy",
        "seed": 2,
        "pace": 0,
        "options": {"target": 100},
    }
    with TestClient(create_app(Journal(path), Bus(), TOKEN)) as client:
        key = client.post("/api/digital/new", json=new, headers={"X-Table-Token": TOKEN}).json()[
            "keys"
        ]["0"]
        listed = client.get("/api/games").json()
        game_id = listed["current"]
        assert [g["digital"] for g in listed["games"]] == [True]  # the entry page links it
        url = f"/api/games/{game_id}.jsonl"
        assert client.get(url).status_code == 403  # in play: it shows every hand
        refused = client.get(url, headers={"X-Table-Token": TOKEN})
        assert refused.status_code == 409 and "reveal=yes" in refused.json()["error"]
        shown = client.get(url + "?reveal=yes", headers={"X-Table-Token": TOKEN})
        assert shown.status_code == 200
        assert shown.text == client.app.state.digital.record()
        session = client.app.state.digital
        rng = random.Random(5)
        play_out(session, Picks(session.bus, rng), 0, key, rng)
    with TestClient(create_app(Journal(path), Bus(), TOKEN)) as client:  # after a restart
        assert client.get(url).status_code == 403  # the host exports
        res = client.get(url, headers={"X-Table-Token": TOKEN})  # over: no confirmation needed
        assert res.status_code == 200
        assert res.headers["content-type"].startswith("application/x-ndjson")
        game, _ = record.replay(res.text)
        assert game.is_terminal()
        assert client.get("/api/digital/view").json()["winner"] is not None  # shown as it ended


def test_a_table_game_has_no_record_to_export(writer):
    assert writer.post("/api/new-game", json={"players": ["A", "B"]}).status_code == 200
    listed = writer.get("/api/games").json()
    game_id = listed["current"]
    assert [g["digital"] for g in listed["games"]] == [False]
    res = writer.get(f"/api/games/{game_id}.jsonl?reveal=yes")
    assert res.status_code == 404 and "played at the table" in res.json()["error"]
    assert writer.get(f"/api/games/{game_id}.xml").status_code == 404
    missing = writer.get("/api/games/99.jsonl?reveal=yes")
    assert missing.status_code == 404 and "no game 99" in missing.json()["error"]


def test_a_damaged_record_is_reported_and_left_untouched(tmp_path):
    path = tmp_path / "journal.sqlite3"
    first = Table(path)
    keys = first.digital.new_game(PLAYERS, [0], "greedy", seed=6)
    some_moves(first, 0, keys[0], random.Random(2), 20)
    game_id = first.table.game_id
    first.stop()
    db = sqlite3.connect(path)
    db.execute(
        "UPDATE moves SET event=? WHERE id=(SELECT MAX(id) FROM moves)",
        (json.dumps({"seat": 0, "act": "play", "card": "R99"}),),
    )
    db.commit()
    kept = db.execute("SELECT id, event FROM moves ORDER BY id").fetchall()
    db.close()

    again = Table(path)
    problem = again.digital.journal_error
    assert problem and f"digital game {game_id}" in problem and "line" in problem
    assert again.digital.view()["journal_error"] == problem
    assert again.digital.link is None  # nothing runs on a record that does not replay
    again.digital.new_game(PLAYERS, [0], "greedy", seed=1, confirm=True)  # a new one still can
    again.stop()
    db = sqlite3.connect(path)
    assert (
        db.execute("SELECT id, event FROM moves WHERE game=? ORDER BY id", (game_id,)).fetchall()
        == kept
    )
    db.close()


def test_a_journal_from_before_digital_records_is_upgraded_in_place(tmp_path):
    path = tmp_path / "journal.sqlite3"
    j = Journal(path)
    g = j.create_game({"kind": "start", "players": ["A", "B"], "dealer": 0, "options": {}})
    j.close()
    db = sqlite3.connect(path)  # make it a version-1 journal, as the first release wrote
    db.executescript(
        "DROP TABLE results; DROP TABLE moves; DROP TABLE records; PRAGMA user_version=1;"
    )
    db.close()
    j = Journal(path)
    assert [x.entry["kind"] for x in j.entries(g)] == ["start"]
    g2 = j.create_game({"kind": "start", "players": ["A", "B"], "dealer": 0, "options": {}})
    j.start_digital({"header": {"format": "tinker-tray-record/1"}}, game=g2)
    j.append_moves(g2, [{"chance": "tinker_bell", "colour": "red"}])
    assert j.record(g2)[1] == [{"chance": "tinker_bell", "colour": "red"}]
    assert j.record(g) is None
    j.delete_game(g2, f"delete game {g2}")
    assert j.record(g2) is None
    j.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 4
    assert db.execute("SELECT COUNT(*) FROM moves").fetchone()[0] == 0
    assert db.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 0
    db.close()


# --- kill -9 in the middle of a digital game -------------------------------------------------

PLAYER = textwrap.dedent(
    """
    import random, sys
    from tests.helpers.digital import Table, some_moves
    table = Table(sys.argv[1])
    keys = table.digital.new_game(["Ann", "Bob", "Cy"], [0], "greedy",
                                  options={"target": 100000}, seed=9)
    rng = random.Random(4)
    link = table.digital.link
    while True:
        some_moves(table, 0, keys[0], rng, 1)
        with link.lock:  # what a page could see now
            print(len(link.game.events), flush=True)
    """
)


@pytest.mark.parametrize("after", [1, 40, 300])
@pytest.mark.slow  # a subprocess
def test_kill_9_in_a_digital_game_loses_no_move_that_was_shown(tmp_path, after):
    path = tmp_path / "journal.sqlite3"
    here = Path(__file__).parent
    shown = shown_until_killed(PLAYER, str(path), after=after, path=[here])

    again = Table(path)
    assert again.digital.journal_error is None
    game = again.digital.link.game
    assert len(game.events) >= max(shown)
    keys = {int(s): k for s, k in again.journal.record(again.table.game_id)[0]["keys"].items()}
    some_moves(again, 0, keys[0], random.Random(8), 30)  # and it plays on
    again.stop()


def test_the_journal_holds_every_move_after_every_move(tmp_path):
    """Checked after each move, not only at the end: a discard of several cards is one event
    that grows as the cards are laid, and an interrupted one gains "more": the journal's copy
    follows each change."""
    table = Table(tmp_path / "journal.sqlite3")
    keys = table.digital.new_game(PLAYERS, [0], "greedy", options={"target": 100000}, seed=12)
    rng = random.Random(6)
    link = table.digital.link
    for _ in range(400):
        some_moves(table, 0, keys[0], rng, 1)
        _, kept = table.journal.record(table.table.game_id)
        assert kept == json.loads(json.dumps(link.game.events))
    assert any(len(e.get("cards", ())) >= 2 for e in kept), "no discard of several cards: reseed"
    table.stop()


def test_a_new_scoreboard_game_takes_no_hand_of_a_digital_game_still_running(tmp_path):
    table = Table(tmp_path / "journal.sqlite3")
    keys = table.digital.new_game(PLAYERS, [0], "greedy", options={"target": 100000}, seed=8)
    rng = random.Random(3)
    link = table.digital.link
    while not link.game.history:
        some_moves(table, 0, keys[0], rng, 1)
    digital_game = table.table.game_id
    table.table.new_game(["Dee", "Eve", "Fay"], confirm=True)  # a game at the table
    while len(link.game.history) < 2:
        some_moves(table, 0, keys[0], rng, 1)
    kinds = [x.entry["kind"] for x in table.journal.entries(table.table.game_id)]
    assert "hand" not in kinds  # its picks are journaled there, as every pick is
    assert table.table.table.game is not None and not table.table.table.game.hands
    assert len(table.journal.record(digital_game)[1]) == len(link.game.events)  # still kept
    played = table.journal.load(digital_game).game  # its own sheet: every hand of its record
    assert played is not None and len(played.hands) == len(link.game.history) == 2
    table.stop()


def test_a_digital_game_in_play_cannot_be_deleted_from_the_scoreboard(tmp_path):
    """Issue: start digital play, start a table game, delete the digital game: its later moves
    had nowhere to go, and after a restart it was gone. Now the deletion is refused with a
    sentence; once the digital game is over, it may be deleted."""
    table = Table(tmp_path / "journal.sqlite3")
    keys = table.digital.new_game(PLAYERS, [0], "greedy", options={"target": 100000}, seed=8)
    digital_game = table.table.game_id
    table.table.new_game(["Dee", "Eve", "Fay"], confirm=True)  # a game at the table
    with pytest.raises(InPlayError) as refused:
        table.journal.delete_game(digital_game, f"delete game {digital_game}")
    assert str(refused.value) == (
        f"game {digital_game} is being played in digital play (/play): finish it, or start "
        "another game there, before deleting it"
    )
    some_moves(table, 0, keys[0], random.Random(3), 20)
    moves = len(table.digital.link.game.events)
    table.stop()
    again = Journal(tmp_path / "journal.sqlite3")
    assert len(again.record(digital_game)[1]) == moves  # every move kept
    again.close()
