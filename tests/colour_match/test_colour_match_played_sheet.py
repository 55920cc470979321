"""Issue 49: a digital game with points reaches the scoreboard through the core's protocol, not
as table entries. Colour Match played for points (`game.py`, given a target) by a person and
bots on /play: each hand it finishes is on Colour Match's own score sheet (`sheet.py`) the
moment its record keeps it, scored by that sheet's rules; the journal holds the hands once, in
the record; a restart, the export and the CSV read them from there. No line of the scoreboard
or of digital play names Colour Match."""

from __future__ import annotations

import csv
import io
import json
import random

from engine import record, registry
from tests.colour_match.game import NAME, ColourMatch
from tests.helpers.digital import offered
from tests.helpers.web import TOKEN

NEW = {
    "players": ["Ann", "Bo", "Cy"],
    "humans": [0],
    "bots": "greedy",
    "ruleset": NAME,
    "options": {"target": 40},
    "seed": 5,
    "pace": 0,
}


def play_out(writer, key: str, rng: random.Random) -> ColourMatch:
    """Ann plays from her page's moves alone until the game is over."""
    session = writer.app.state.digital
    game = session.link.game
    for _ in range(5_000):
        if game.is_terminal():
            return game
        seat = {"X-Seat-Key": key}
        view = writer.get("/api/digital/view?seat=0", headers=seat).json()
        act = {"seat": 0, "action": rng.choice(offered(view))}
        assert writer.post("/api/digital/act", json=act, headers=seat).status_code == 200
    raise AssertionError("the game did not end")


def test_it_declares_points_given_a_target_and_replays_hand_after_hand():
    game = registry.new_game(NAME, ["Ann", "Bo"], options={"target": 30})
    assert isinstance(game, ColourMatch) and "points" in game.features
    rng = random.Random(2)
    while not game.is_terminal():
        if game.current_player() < 0:
            game.sample_chance(rng)
        else:
            game.apply_action(rng.choice(game.legal_actions()))
    assert len(game.finished_hands()) >= 2 and max(game.totals) >= 30
    again, _ = record.replay(game.record())
    assert isinstance(again, ColourMatch)
    assert again.finished_hands() == game.finished_hands() and again.winner == game.winner


def test_its_hands_reach_the_scoreboard_from_its_record(writer, journal):
    made = writer.post("/api/digital/new", json=NEW)
    assert made.status_code == 200, made.text
    key = made.json()["keys"]["0"]
    game = play_out(writer, key, random.Random(7))

    view = writer.get("/api/view").json()
    assert view["rules"]["title"] == "Colour Match" and view["rules"]["target"] == 40
    assert [p["total"] for p in view["players"]] == list(game.totals)
    assert view["hand_count"] == len(game.finished_hands()) >= 1
    assert view["winner"]["names"] == [NEW["players"][game.winner]]
    cards = writer.get("/api/cards").json()["keys"]
    assert len(cards) == 40 and cards[0]["code"] == "R0"  # its own keyboard

    game_id = view["game"]
    assert {x.entry["kind"] for x in journal.entries(game_id)} == {"start"}  # no hand entered
    refused = writer.post("/api/entry", json={"kind": "hand", "winner": 0, "held": [None, 1, 2]})
    assert refused.status_code == 422 and "played on the digital table" in refused.json()["error"]

    exported = json.loads(writer.get(f"/api/games/{game_id}.json").text)
    assert exported["totals"] == list(game.totals)
    rows = list(csv.reader(io.StringIO(writer.get(f"/api/games/{game_id}.csv").text)))
    assert len(rows) == 1 + len(game.finished_hands())
    kept = journal.load(game_id).game  # what a restart folds: the start, then the record's hands
    assert kept is not None and kept.scores == game.totals and kept.over


def test_a_restart_in_the_middle_shows_the_same_sheet(tmp_path):
    from starlette.testclient import TestClient

    from cli.app import create_app
    from scoreboard.journal import Journal
    from tray.bus import Bus

    path = tmp_path / "journal.sqlite3"
    with TestClient(create_app(Journal(path), Bus(), TOKEN)) as client:
        client.headers["X-Table-Token"] = TOKEN
        key = client.post("/api/digital/new", json={**NEW, "options": {"target": 500}}).json()
        key = key["keys"]["0"]
        game, rng = client.app.state.digital.link.game, random.Random(3)
        while len(game.finished_hands()) < 2:
            seat = {"X-Seat-Key": key}
            view = client.get("/api/digital/view?seat=0", headers=seat).json()
            act = {"seat": 0, "action": rng.choice(offered(view))}
            assert client.post("/api/digital/act", json=act, headers=seat).status_code == 200
        before = client.get("/api/view").json()
    with TestClient(create_app(Journal(path), Bus(), TOKEN)) as client:
        after = client.get("/api/view").json()
        assert after["players"] == before["players"] and after["hands"] == before["hands"]
        assert client.app.state.digital.link.game.finished_hands() == game.finished_hands()
