"""A journal that main wrote at commit 14f5ae9 (version 3: UNO Elite in its own tables) opens
with today's code: upgraded in one transaction, every game kept, and both digital games in play
(UNO Elite's and Disney's) resume where they stood. The file was written by really playing
through that release's sessions (tests/scoreboard/journals/make_main_journal.py)."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from engine.bots import GreedyBot
from scoreboard import journal as J
from scoreboard import wins
from scoreboard.journal import Journal
from scoreboard.view import build_view
from tests.helpers.digital import Picks, Table, play_out
from tests.helpers.old_journal import FIXTURE, grown, on_disk
from tests.scoreboard.test_disk_full import small_tmpfs

HERE = Path(__file__).parent / "journals"
EXPECTED = json.loads((HERE / "main-14f5ae9.expected.json").read_text())
ELITE_TABLES = ("elite_games", "elite_moves", "elite_results")


@pytest.fixture
def old(tmp_path) -> Path:
    path = tmp_path / "journal.sqlite3"
    shutil.copyfile(FIXTURE, path)
    return path


def tables(path: Path) -> dict[str, int]:
    """Each table's row count, and the journal's version (read-only: nothing is changed)."""
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        names = [n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        counts = {n: db.execute(f"SELECT COUNT(*) FROM {n}").fetchone()[0] for n in names}
        counts["user_version"] = db.execute("PRAGMA user_version").fetchone()[0]
        return counts
    finally:
        db.close()


def test_the_fixture_is_a_version_3_journal_with_uno_elite_in_its_own_tables():
    before = tables(FIXTURE)
    assert before["user_version"] == 3
    assert (before["elite_games"], before["elite_results"]) == (2, 2)
    assert before["elite_moves"] > 0 and before["moves"] > 0


def test_it_is_upgraded_on_open_and_keeps_every_game(old):
    before = tables(old)
    j = Journal(old)
    after = tables(old)
    assert after["user_version"] == J.SCHEMA_VERSION == 4
    assert not set(ELITE_TABLES) & set(after)
    assert after["moves"] == before["moves"] + before["elite_moves"]  # every event moved
    assert after["results"] == before["elite_results"]
    assert j.damaged == []

    games = j.games()
    assert [(g.name, g.digital) for g in games] == [
        ("Friday at the table", False),
        ("digital game", True),
        (J.ELITE_GAME_NAME, True),
        (J.ELITE_GAME_NAME, True),
    ]
    table_game = EXPECTED["table_game"]
    view = build_view(j.load(table_game["id"]), game_id=1, version=0)
    assert view["players"] == table_game["view"]["players"]  # the score sheet as it was
    assert j.latest_game() == EXPECTED["disney_in_play"]["id"]  # the table's game, not Elite's

    finished = j.record(games[2].id)
    assert finished is not None
    assert record_text(*finished) == EXPECTED["elite_finished"]["record"]
    latest = j.latest_digital()
    assert latest is not None and latest.game == games[3].id and not latest.finished
    assert record_text(latest.setup, latest.events) == EXPECTED["elite_in_play"]["record"]

    results = j.results()
    assert [(r.game, r.ruleset, r.mode, r.scored) for r in results] == [
        (games[2].id, "elite", "draft", False),
        (None, "elite", "dynasty", False),
    ]
    assert results[0].winner == EXPECTED["elite_finished"]["winner"]
    assert _without(wins.tally(results), "last_t") == EXPECTED["tally"]  # last_t: added since
    j.close()
    assert tables(old) == after  # opened again: nothing more to do
    Journal(old).close()
    assert tables(old) == after


def record_text(setup, events) -> str:
    return "".join(
        json.dumps(x, separators=(", ", ": ")) + "\n" for x in (setup["header"], *events)
    )


def test_the_uno_elite_game_in_play_resumes_where_it_stood_and_plays_on(old):
    t = Table(old)
    want = EXPECTED["elite_in_play"]
    assert t.digital.journal_error is None
    assert t.digital.record() == want["record"]
    view = t.digital.view(1, want["key"])  # the same page, the same seat key
    # One view for every ruleset now: what main showed under "elite" is the view itself, and
    # "players" became the page's list of seats (name, person) for every ruleset.
    then = want["view"]["elite"]
    assert [p["name"] for p in view["players"]] == then["players"]
    reshaped = ("players", "hand", "legal", "moves", "direction")  # one observation shape since
    reshaped += ("prompt",)  # a sentence since, as Disney's (issue 41.13)
    assert _as_shown(view, {k: v for k, v in then.items() if k not in reshaped})
    assert view["prompt"] == f"Your move: {then['prompt']}."
    assert _moves_as_shown(view, then)
    assert view["direction"] == ("left" if then["direction"] == 1 else "right")
    assert view["seat"] == want["view"]["seat"] and view["winner"] is None
    assert _without(t.table.view()["wins"], "last_t") == EXPECTED["tally"]
    game, bot = t.digital.link.game, GreedyBot()
    while game.winner is None:
        assert t.digital.view()["awaiting"]["seat"] == 1
        t.digital.act(1, want["key"], bot.act(game))
    assert t.table.view()["wins"]["games"] == 3
    t.stop()
    j = Journal(old)
    assert j.latest_digital().finished
    j.close()


def test_the_disney_game_in_play_resumes_where_it_stood_and_plays_on(old):
    j = Journal(old)
    elite = j.latest_digital()
    assert elite is not None
    j.delete_game(elite.game, f"delete game {elite.game}")  # as the games page may, once over
    j.close()
    t = Table(old)
    want = EXPECTED["disney_in_play"]
    assert t.digital.journal_error is None and t.digital.link is not None
    assert t.table.game_id == want["id"]
    assert t.digital.record() == want["record"]
    view = t.digital.view(0, want["key"])
    besides = ("version", "log", "hand", "moves", "uno_possible", "says")
    assert _as_shown(view, want["view"], *besides)
    assert view["prompt"] == want["view"]["says"]  # what main's view said is the prompt now
    assert _moves_as_shown(view, want["view"])
    # The log is the same but for the next deal, which main read as draws (issue 22)
    deal = {"You draw 1 card.", "Bob draws 5 cards.", "Cy draws 7 cards."}
    assert deal <= set(want["view"]["log"]) and not deal & set(view["log"])
    then = [line for line in want["view"]["log"] if line not in deal]
    assert view["log"][-len(then) :] == then
    assert _without(t.table.view(), "version", "elite", "wins", "redo", "played") == _without(
        want["table_view"], "version", "elite"
    )  # "redo" and "played" are newer than the kept expectation (nothing undone: None)
    assert t.table.view()["redo"] is None
    assert t.table.view()["played"] is True  # its hands: entered then, its record's from now
    rng = random.Random(5)
    play_out(t.digital, Picks(t.bus, rng), 0, want["key"], rng)
    game = t.digital.link.game
    assert [p["total"] for p in t.table.view()["players"]] == list(game.sheet.scores)
    t.stop()


def _without(view: dict, *keys: str) -> dict:
    return {k: v for k, v in view.items() if k not in keys}


def _moves_as_shown(view: dict, shown: dict) -> bool:
    """`view` holds the same cards and offers the same moves of the seat's turn as `shown`, a
    view of the shape before every ruleset's observation had one (`engine.observation`): a hand
    whose cards carried their moves (`hand[].moves`) and the other moves (`moves`), or the seat's
    every action, calls included (`legal`, UNO Elite's)."""
    if "legal" in shown:
        offered = {m["action"] for m in shown["legal"]}
        legal = {m["action"] for m in view["legal"]}
    else:
        offered = {m["a"] for c in shown["hand"] for m in c["moves"]}
        offered |= {m["a"] for m in shown["moves"]}
        legal = {m["action"] for m in view["legal"] if not m["out_of_turn"]}
    codes = [c["code"] for c in view["hand"]] == [c["code"] for c in shown["hand"]]
    return codes and legal == offered


def _as_shown(view: dict, shown: dict, *besides: str) -> bool:
    """`view` shows everything `shown` showed, the same (besides `besides`): a field a later
    release added to a view (two levels down) is not a difference in the game's state."""

    def same(now: object, then: object, depth: int) -> bool:
        if depth and isinstance(now, dict) and isinstance(then, dict):
            return all(k in now and same(now[k], v, depth - 1) for k, v in then.items())
        return now == then

    return same(_without(view, *besides), _without(shown, *besides), 2)


CRASH = textwrap.dedent(
    """
    import os, sys
    from scoreboard import journal

    fold = journal._fold_elite_tables

    def crash(db, names):
        fold(db, names)  # every row moved and the old tables dropped, not yet committed
        os._exit(9)

    journal._fold_elite_tables = crash
    journal.Journal(sys.argv[1])
    """
)


@pytest.mark.slow  # a subprocess
def test_a_crash_mid_upgrade_leaves_the_old_journal_as_it_was(old):
    before = tables(old)
    done = subprocess.run([sys.executable, "-c", CRASH, str(old)], cwd=Path.cwd(), check=False)
    assert done.returncode == 9
    assert tables(old) == before  # version 3, the Elite tables and their rows
    j = Journal(old)  # and the next start upgrades it
    assert len(j.games()) == 4 and len(j.results()) == 2
    j.close()


def test_an_upgrade_the_disk_cannot_take_starts_read_only_and_changes_nothing(old, monkeypatch):
    """The upgrade cannot be written (a full disk): the table starts all the same, every game
    upgraded in memory and shown, nothing saved and the file as it was; the next start that
    can write upgrades it."""
    before = tables(old)
    fold = J._fold_elite_tables

    def full(db, names):
        fold(db, names)
        if db.execute("PRAGMA database_list").fetchone()[2]:  # the file, not the memory copy
            raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(J, "_fold_elite_tables", full)
    j = Journal(old, retry_s=3600)
    assert j.unwritable is not None and "the disk is full" in j.unwritable
    assert len(j.games()) == 4 and len(j.results()) == 2
    with pytest.raises(J.JournalWriteError, match="the disk is full"):
        j.create_game({"kind": "start", "players": ["A", "B"], "dealer": 0, "options": {}})
    j.close()
    assert tables(old) == before
    monkeypatch.setattr(J, "_fold_elite_tables", fold)
    j = Journal(old)
    assert j.unwritable is None and len(j.games()) == 4
    j.close()


def test_damaged_elite_rows_move_over_as_they_are_and_are_said_when_read(old):
    with sqlite3.connect(old) as db:
        db.execute("UPDATE elite_results SET players = '{bad' WHERE game IS NULL")
        db.execute(
            "UPDATE elite_moves SET event = 'nope' WHERE id = (SELECT MAX(id) FROM elite_moves)"
        )
    db.close()
    j = Journal(old)
    assert len(j.results()) == 1  # the good one still counts
    assert any(d.startswith("result 2 is damaged") for d in j.damaged)
    with pytest.raises(J.DamagedGame, match="game 4 is damaged"):
        j.latest_digital()
    j.close()
    t = Table(old)  # digital play does not resume it: as main did, said, and left
    assert "cannot be resumed" in t.digital.view()["journal_error"]
    assert any(d.startswith("game 4 is damaged") for d in t.journal.damaged)
    t.stop()


@pytest.mark.parametrize("table", ELITE_TABLES)
def test_an_old_journal_that_lost_an_elite_table_is_upgraded_and_said(old, table):
    with sqlite3.connect(old) as db:
        db.execute("PRAGMA foreign_keys=OFF")
        db.execute(f"DROP TABLE {table}")
    db.close()
    t = Table(old)  # the service starts
    assert any(f"lost its {table} table" in d for d in t.journal.damaged)
    assert t.table.game_id == EXPECTED["disney_in_play"]["id"]  # the table's game is there
    assert len(t.journal.games()) == (2 if table == "elite_games" else 4)
    assert tables(old)["user_version"] == J.SCHEMA_VERSION
    t.stop()


def leave_free(disk: Path, room: int) -> None:
    """Fill the disk with a file, leaving `room` bytes free."""
    free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
    (disk / "filler").write_bytes(b"\0" * max(0, free - room))


def test_the_upgrade_gives_the_space_of_the_old_tables_back(old):
    """Version 3's UNO Elite rows are copied into the common tables and their own dropped: the
    file must not keep both (a 55 MB journal became 110 MB)."""
    before = grown(old, 150)
    moves = tables(old)["elite_moves"]
    j = Journal(old)
    assert len(j.games()) == 4 + 150
    j.close()
    after = on_disk(old)
    assert tables(old)["moves"] >= moves
    assert after < before * 1.2, (before, after)


@pytest.mark.slow  # a tmpfs mounted for each amount of free space
@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")
def test_on_a_card_too_full_to_give_the_space_back_the_upgrade_still_stands(tmp_path, caplog):
    """On a real tmpfs with less and less room beside the journal: every start shows every
    game, and either upgrades the file (giving the space back when the card has room for
    VACUUM, keeping it and saying so when it has not) or, with no room for the upgrade itself,
    upgrades in memory and leaves version 3 as it was."""
    source = tmp_path / "journal.sqlite3"
    shutil.copyfile(FIXTURE, source)
    size = grown(source, 40)
    seen = set()
    for room in range(size * 3 // 2, size * 7 // 2, size // 8):
        with small_tmpfs((size + room) // 1024 + 64) as disk:
            path = disk / "journal.sqlite3"
            shutil.copyfile(source, path)
            leave_free(disk, room)
            j = Journal(path)
            assert len(j.games()) == 44 and len(j.results()) == 2
            in_memory = j.unwritable is not None
            j.close()
            if in_memory:
                assert tables(path) == tables(source)
                seen.add("in memory")
            else:
                assert tables(path)["user_version"] == 4
                seen.add("given back" if path.stat().st_size < size else "kept")
    assert seen == {"in memory", "kept", "given back"}, seen
    assert "keeps its freed space for now: database or disk is full" in caplog.text
