"""Issue 52: an undone hand comes back with Redo, from what the journal keeps (a restart keeps
it), until a new entry is made; and a new game's refusals come before its question."""

from __future__ import annotations

import pytest

from scoreboard.journal import ConfirmError, Journal
from scoreboard.names import NameRefused
from scoreboard.session import NothingToRedoError, TableSession

ANN_27 = {"kind": "hand", "winner": 1, "held": [27, None, 0]}
BEA_9 = {"kind": "hand", "winner": 0, "held": [None, 9, 0]}


def totals(session):
    return [p["total"] for p in session.view()["players"]]


@pytest.fixture
def session(journal):
    s = TableSession(journal)
    s.new_game(["Ann", "Bea", "Cy"])
    yield s
    s.close()


def test_redo_brings_back_what_undo_took_and_is_journaled_as_that_entry(session, journal):
    session.submit(ANN_27)
    session.submit({"kind": "undo"})
    assert totals(session) == [0, 0, 0] and session.view()["redo"] == "hand"
    session.submit({"kind": "redo"})
    assert totals(session) == [0, 27, 0] and session.view()["redo"] is None
    assert [x.entry for x in journal.entries(session.game_id)][1:] == [
        ANN_27,
        {"kind": "undo"},
        ANN_27,
    ]


def test_two_undos_are_redone_latest_first(session):
    session.submit(ANN_27)
    session.submit(BEA_9)
    session.submit({"kind": "undo"})
    session.submit({"kind": "undo"})
    session.submit({"kind": "redo"})
    assert totals(session) == [0, 27, 0]
    session.submit({"kind": "redo"})
    assert totals(session) == [9, 27, 0]
    with pytest.raises(NothingToRedoError, match="nothing to redo"):
        session.submit({"kind": "redo"})


def test_a_new_entry_ends_redo_but_the_same_hand_typed_again_is_the_redo(session):
    session.submit(ANN_27)
    session.submit(BEA_9)
    session.submit({"kind": "undo"})
    session.submit({"kind": "undo"})
    session.submit(ANN_27)  # typed again by hand: what Redo would have done
    assert session.redoable == "hand"  # Bea's 9 is still undone
    session.submit({"kind": "hand", "winner": 2, "held": [5, 5, None]})
    assert session.redoable is None
    with pytest.raises(NothingToRedoError):
        session.redo()


def test_a_pick_or_a_declaration_does_not_end_redo(session):
    session.submit(ANN_27)
    session.submit({"kind": "undo"})
    session.submit({"kind": "declare", "card": "RD2"})
    assert session.redoable == "hand"


def test_redo_survives_a_restart(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    first = TableSession(journal)
    first.new_game(["Ann", "Bea", "Cy"])
    first.submit(ANN_27)
    first.submit({"kind": "edit", "hand": 0, "winner": 1, "held": [30, None, 0]})
    first.submit({"kind": "undo"})
    first.close()
    journal.close()
    journal = Journal(path)
    again = TableSession(journal)
    try:
        assert again.redoable == "edit" and totals(again) == [0, 27, 0]
        again.redo()
        assert totals(again) == [0, 30, 0]
    finally:
        again.close()
        journal.close()


def test_a_new_game_has_nothing_to_redo(session):
    session.submit(ANN_27)
    session.submit({"kind": "undo"})
    session.new_game(["Ann", "Bea"])
    assert session.redoable is None


def test_a_redo_with_fields_is_refused(session):
    with pytest.raises(Exception, match="a redo has no fields"):
        session.submit({"kind": "redo", "winner": 0})


def test_redo_over_http(writer):
    writer.post("/api/new-game", json={"players": ["Ann", "Bea", "Cy"]})
    writer.post("/api/entry", json=ANN_27)
    res = writer.post("/api/entry", json={"kind": "redo"})
    assert res.status_code == 422 and "nothing to redo" in res.json()["error"]
    writer.post("/api/entry", json={"kind": "undo"})
    assert writer.get("/api/view").json()["redo"] == "hand"
    assert writer.post("/api/entry", json={"kind": "redo"}).status_code == 200
    view = writer.get("/api/view").json()
    assert [p["total"] for p in view["players"]] == [0, 27, 0] and view["redo"] is None
    assert (
        writer.post("/api/entry", json={"kind": "redo"}, headers={"X-Table-Token": ""}).status_code
        == 403
    )


def test_a_new_game_is_refused_before_it_is_confirmed(session):
    session.submit(ANN_27)  # a game in play: starting another needs a confirmation
    with pytest.raises(NameRefused, match="at most 24"):
        session.new_game(["Grandma" + "a" * 30, "Bea"])
    with pytest.raises(Exception, match="must differ"):
        session.new_game(["Ann", "ann"])
    with pytest.raises(Exception, match="2 to 10 players"):
        session.new_game(["Ann"])
    with pytest.raises(ConfirmError):
        session.new_game(["Ann", "Bea"])


def test_the_server_says_whether_a_new_game_needs_confirming(writer):
    assert writer.post("/api/new-game", json={"players": ["Ann", "Bea"]}).status_code == 200
    writer.post("/api/entry", json={"kind": "hand", "winner": 0, "held": [None, 4]})
    res = writer.post("/api/new-game", json={"players": ["Ann", "Cy"]})
    assert res.status_code == 409 and res.json()["confirm"] is True
    res = writer.post("/api/new-game", json={"players": ["Ann"], "confirm": False})
    assert res.status_code == 422  # the refusal, not the question
