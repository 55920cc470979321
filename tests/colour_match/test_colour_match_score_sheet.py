"""Issue 49: a ruleset given a score sheet kept by hand reaches the scoreboard through the
core's protocol alone. Colour Match (`sheet.py`) is started, scored, undone, edited and won on
the table's page and its API, with its own keyboard, and its export and CSV are its own; no
line of the scoreboard names it."""

from __future__ import annotations

import csv
import io
import json

from engine import sheets
from scoreboard.session import TableSession
from tests.colour_match.game import NAME

GAME = {"players": ["Ann", "Bea"], "dealer": 0, "ruleset": NAME, "options": {"target": 20}}


def hand(winner, *held):
    return {"kind": "hand", "winner": winner, "held": list(held)}


def test_a_table_may_start_a_colour_match_game_and_gets_its_keyboard(writer):
    before = writer.get("/api/cards").json()
    assert {"name": NAME, "title": "Colour Match"} in before["rulesets"]
    assert before["rulesets"][0]["name"] == sheets.home()  # the tray's own first
    assert len(before["keys"]) != 40  # before the game: the home ruleset's deck

    assert writer.post("/api/new-game", json=GAME).status_code == 200
    keys = writer.get("/api/cards").json()["keys"]
    assert [k["code"] for k in keys[:3]] == ["R0", "R1", "R2"] and len(keys) == 40
    assert keys[13] == {
        "code": "B3",
        "name": "blue 3",
        "colour": "blue",
        "label": "3",
        "points": 3,
        "copies": 1,
    }
    view = writer.get("/api/view").json()
    assert view["rules"]["title"] == "Colour Match" and view["rules"]["target"] == 20
    assert [p["name"] for p in view["players"]] == ["Ann", "Bea"]


def test_its_hands_are_scored_undone_edited_and_won_by_its_own_rules(writer, journal):
    writer.post("/api/new-game", json=GAME)
    assert writer.post("/api/entry", json=hand(0, None, ["R7", "B2"])).status_code == 200
    view = writer.get("/api/view").json()
    assert [p["total"] for p in view["players"]] == [9, 0] and view["dealer"] == 1
    assert view["players"][0]["leads"] and view["can_undo"]

    writer.post("/api/entry", json={"kind": "undo"})
    assert [p["total"] for p in writer.get("/api/view").json()["players"]] == [0, 0]
    writer.post("/api/entry", json={"kind": "redo"})
    assert [p["total"] for p in writer.get("/api/view").json()["players"]] == [9, 0]

    writer.post("/api/entry", json={**hand(1, 4, None), "kind": "edit", "hand": 0})
    assert [p["total"] for p in writer.get("/api/view").json()["players"]] == [0, 4]

    writer.post("/api/entry", json=hand(1, ["Y9", "G9"], None))
    view = writer.get("/api/view").json()
    assert view["winner"]["names"] == ["Bea"] and view["dealer"] is None
    refused = writer.post("/api/entry", json=hand(0, None, 1))
    assert refused.status_code == 422 and "Bea has won" in refused.json()["error"]

    exported = json.loads(writer.get("/api/games/1.json").text)
    assert exported["totals"] == [0, 22] and exported["winner"] == ["Bea"]
    rows = list(csv.reader(io.StringIO(writer.get("/api/games/1.csv").text)))
    assert rows[0] == ["hand", "dealer", "went out", "Ann scored", "Bea scored", "Ann total",
                       "Bea total"]  # fmt: skip
    assert rows[-1] == ["2", "Bea", "Bea", "0", "18", "0", "22"]
    assert journal.load(1).game.scores == (0, 22)  # the fold after a restart: the same


def test_what_its_sheet_refuses_is_a_sentence_and_changes_nothing(writer):
    writer.post("/api/new-game", json=GAME)
    for entry, says in [
        (hand(0, None, ["X9"]), "no Colour Match card"),
        (hand(0, None, -3), "from 0 to 1000"),
        (hand(5, None, 1), "a seat is from 0 to 1"),
        ({"kind": "dealer", "seat": 1}, "takes no 'dealer' entry"),
        ({"kind": "void", "hand": 0}, "there is no hand 0"),
    ]:
        res = writer.post("/api/entry", json=entry)
        assert res.status_code == 422 and says in res.json()["error"], (entry, res.text)
    assert writer.get("/api/view").json()["hand_count"] == 0


def test_a_pick_stands_across_games_of_either_ruleset(journal):
    table = TableSession(journal)
    table.new_game(["Ann", "Bea"], ruleset=NAME)
    table.submit({"kind": "pick", "seq": 4, "colour": "green"})
    assert table.view()["pick"]["colour"] == "green"
    table.new_game(["Ann", "Bea"], confirm=True)  # the home ruleset's game
    assert table.table.game.ruleset == sheets.home()
    assert table.view()["pick"]["colour"] == "green" and table.view()["pick"]["seq"] == 4
    table.new_game(["Ann", "Bea"], ruleset=NAME)
    again = TableSession(journal).view()  # a restart folds the game in play's own entries
    assert again["rules"] == table.view()["rules"] and again["players"] == table.view()["players"]


def test_an_unknown_ruleset_or_one_without_a_sheet_is_refused_by_name(writer):
    res = writer.post("/api/new-game", json={**GAME, "ruleset": "croquet"})
    assert res.status_code == 422 and "unknown ruleset 'croquet'" in res.json()["error"]
    res = writer.post("/api/new-game", json={**GAME, "ruleset": "elite"})
    assert res.status_code == 422 and "no score sheet kept by hand" in res.json()["error"]
