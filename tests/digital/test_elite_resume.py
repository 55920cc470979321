"""A digital UNO Elite game survives a restart: its record is in the journal before any page
sees a move, each person's link keeps working, and a finished game is tallied once."""

from __future__ import annotations

import json
import random
import sqlite3
import textwrap

import pytest

from scoreboard.journal import InPlayError
from tests.helpers.crash import shown_until_killed
from tests.helpers.digital import Table


def greedy_moves(table, seat, key, rng, moves):
    """`seat` plays `moves` moves as the greedy bot would (it activates its Lineup)."""
    game = table.digital.link.game
    for _ in range(moves):
        if game.winner is not None:
            return
        to_move = table.digital.view()["awaiting"]["seat"]
        assert to_move == seat
        table.digital.act(seat, key, game.hints.act(game))


def test_an_elite_game_carries_on_after_a_restart_and_is_tallied_once(tmp_path):
    path = tmp_path / "journal.sqlite3"
    t = Table(path)
    t.table.new_game(["Xa", "Yo"])  # a table game before it: the Elite game is the later one
    keys = t.digital.new_game(
        ["Ann", "Ben", "Cat"], [0], "greedy", options={"mode": "draft"}, ruleset="elite", seed=4
    )
    rng = random.Random(4)
    greedy_moves(t, 0, keys[0], rng, 12)
    before = t.digital.view(0, keys[0])
    record = t.digital.record()
    t.stop()  # as a restart would (the journal has every move)

    t = Table(path)
    after = t.digital.view(0, keys[0])
    same = {k: v for k, v in after.items() if k != "version"}
    assert same == {k: v for k, v in before.items() if k != "version"}
    assert after["ruleset"] == "elite"
    assert t.digital.record() == record
    greedy_moves(t, 0, keys[0], rng, 5_000)
    winner = t.digital.view()["winner"]
    assert winner is not None
    assert t.table.view()["wins"]["games"] == 1
    t.stop()

    t = Table(path)
    assert t.digital.view(0, keys[0])["winner"] == winner  # shown as it ended
    assert t.table.view()["wins"]["games"] == 1, "a game is tallied once, restart or not"
    elite = [r.winner for r in t.journal.results() if r.ruleset == "elite"]
    assert elite == [["Ann", "Ben", "Cat"].index(winner)]
    t.stop()


def test_an_elite_game_in_play_cannot_be_deleted_until_won_restart_or_not(tmp_path):
    """Digital play holds its game (`Journal.hold`) from its start, and again when resumed,
    until it is won: then the scoreboard may delete it."""
    path = tmp_path / "journal.sqlite3"
    t = Table(path)
    t.table.new_game(["Xa", "Yo"])  # a table game before it: the Elite game is resumed
    keys = t.digital.new_game(["Ann", "Ben"], [0], "greedy", ruleset="elite", seed=5)
    game = t.journal.latest_digital().game
    with pytest.raises(InPlayError, match="being played in digital play"):
        t.journal.delete_game(game, f"delete game {game}")
    t.stop()

    t = Table(path)  # resumed: held again
    with pytest.raises(InPlayError, match="being played in digital play"):
        t.journal.delete_game(game, f"delete game {game}")
    greedy_moves(t, 0, keys[0], random.Random(5), 5_000)
    assert t.digital.view()["winner"] is not None
    t.journal.delete_game(game, f"delete game {game}")
    assert t.journal.results() == []
    t.stop()


def test_a_record_that_no_longer_replays_is_left_alone_and_said(tmp_path):
    path = tmp_path / "journal.sqlite3"
    t = Table(path)
    keys = t.digital.new_game(["Ann", "Ben"], [0], "greedy", ruleset="elite", seed=2)
    greedy_moves(t, 0, keys[0], random.Random(2), 3)
    t.stop()
    db = sqlite3.connect(path)
    db.execute('UPDATE moves SET event=\'{"seat": 0, "act": "fly"}\'')
    db.commit()
    db.close()
    t = Table(path)
    view = t.digital.view()
    assert "cannot be resumed" in view["journal_error"] and view["game"] is None
    t.digital.new_game(["Ann", "Ben"], [0], "greedy", ruleset="elite", seed=3)
    assert "journal_error" not in t.digital.view()
    t.stop()


def test_a_disney_game_started_after_an_elite_game_is_the_one_resumed(tmp_path):
    path = tmp_path / "journal.sqlite3"
    t = Table(path)
    t.digital.new_game(["Ann", "Ben"], [0], "greedy", ruleset="elite", seed=2)
    t.digital.new_game(["Ann", "Ben"], [0], "greedy", options={"target": 100}, seed=2, confirm=True)
    t.stop()
    t = Table(path)
    assert t.digital.link is not None and t.digital.view()["ruleset"] == "disney"
    t.stop()


ELITE_PLAYER = textwrap.dedent(
    """
    import random, sys
    from tests.helpers.digital import Table
    table = Table(sys.argv[1])
    keys = table.digital.new_game(["Ann", "Bob", "Cy"], [0], "greedy", ruleset="elite", seed=9)
    rng = random.Random(4)
    link = table.digital.link
    while link.game.winner is None:
        table.digital.act(0, keys[0], link.game.hints.act(link.game))
        with link.lock:  # what a page could see now
            print(len(link.game.events), flush=True)
    """
)


@pytest.mark.parametrize("after", [1, 25])
@pytest.mark.slow  # a subprocess
def test_kill_9_in_an_elite_game_loses_no_move_that_was_shown(tmp_path, after):
    path = tmp_path / "journal.sqlite3"
    shown = shown_until_killed(ELITE_PLAYER, str(path), after=after)
    again = Table(path)
    assert again.digital.journal_error is None
    game = again.digital.link.game
    assert len(game.events) >= max(shown)
    keys = {int(s): k for s, k in again.journal.latest_digital().setup["keys"].items()}
    greedy_moves(again, 0, keys[0], random.Random(8), 5_000)  # and it plays on, to the end
    assert game.winner is not None and again.table.view()["wins"]["games"] == 1
    again.stop()


def test_the_journal_holds_every_elite_move_after_every_move(tmp_path):
    t = Table(tmp_path / "journal.sqlite3")
    keys = t.digital.new_game(["Ann", "Ben"], [0], "random", ruleset="elite", seed=12)
    game, rng = t.digital.link.game, random.Random(6)
    while game.winner is None:
        greedy_moves(t, 0, keys[0], rng, 1)
        assert t.journal.latest_digital().events == json.loads(json.dumps(game.events))
    t.stop()
