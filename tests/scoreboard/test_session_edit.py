"""An edit of an old hand re-settles every later hand; the session works it out without holding
its lock, so the pages, the tray's picks and other writers are served meanwhile. Checked by
order (the edit is held half-way until a read and a pick have gone through), never by time;
bench/table_fold.py prints how long such an edit takes at 1k/10k/100k hands."""

from __future__ import annotations

import json
import threading

import pytest

from engine.disney import table as T
from scoreboard.journal import Journal
from scoreboard.session import TableSession
from tray.bus import Bus
from tray.events import Pick

HANDS = 200


@pytest.fixture
def session(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite3")
    table = TableSession(journal, Bus())
    table.new_game(["Ann", "Bob", "Cy"], options={"target": 100_000})
    for n in range(HANDS):
        table.submit(
            {
                "kind": "hand",
                "winner": n % 3,
                "held": [n % 5 if s != n % 3 else None for s in range(3)],
            }
        )
    yield table
    table.close()
    journal.close()


@pytest.fixture
def paused_edit(monkeypatch):
    """T.apply with an edit held half-way: `.working` is set while it is held, `.go` lets it
    finish."""
    working, go = threading.Event(), threading.Event()
    apply = T.apply

    def held(table, entry):
        if entry.get("kind") == "edit" and not go.is_set():
            working.set()
            assert go.wait(30), "the edit was never let go"
        return apply(table, entry)

    monkeypatch.setattr(T, "apply", held)
    held.working, held.go = working, go
    return held


def _edit_in_thread(session: TableSession) -> tuple[threading.Thread, list]:
    done: list = []
    edit = {"kind": "edit", "hand": 0, "winner": 1, "held": [40, None, 0]}
    thread = threading.Thread(target=lambda: done.append(session.submit(edit)), daemon=True)
    thread.start()
    return thread, done


def test_the_table_is_read_and_picks_are_kept_while_an_old_hand_is_edited(session, paused_edit):
    before = session.table
    editing, done = _edit_in_thread(session)
    assert paused_edit.working.wait(30)
    read = threading.Thread(target=session.view_json, daemon=True)
    read.start()
    read.join(20)
    picked = threading.Thread(
        target=session.bus.publish, args=(Pick(seq=7, colour="red", t=0.0),), daemon=True
    )
    picked.start()
    picked.join(20)
    waited = read.is_alive() or picked.is_alive()
    paused_edit.go.set()
    editing.join(30)
    assert not waited, "a read or a pick waited for the edit's re-settling"
    assert done and session.table.last_pick.seq == 7  # the pick came first, then the edit
    assert session.table.game.sheet.scores[1] == before.game.sheet.scores[1] + 40
    entries = session.journal.entries(session.game_id)
    assert [e.entry["kind"] for e in entries[-2:]] == ["pick", "edit"]
    assert T.fold(json.loads(json.dumps(e.entry)) for e in entries) == session.table


def test_an_edit_refused_by_the_table_in_play_changes_nothing(session):
    version = session.version
    with pytest.raises(T.EntryError, match="hand must be from 0 to 199"):
        session.submit({"kind": "edit", "hand": HANDS, "winner": 0, "held": [None, 1, 1]})
    assert session.version == version
