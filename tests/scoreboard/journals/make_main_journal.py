"""Writes `main-14f5ae9.sqlite3` (and what it holds, `main-14f5ae9.expected.json`) the way the
release at commit 14f5ae9 wrote journals: by playing, through its own sessions, with bots at pace
0. Run it from a checkout of that commit, so the file is what that release left on a Pi:

    git worktree add /tmp/at-14f5ae9 14f5ae9
    cp tests/scoreboard/journals/make_main_journal.py /tmp/at-14f5ae9/
    cd /tmp/at-14f5ae9 && ../wt-journal/.venv/bin/python make_main_journal.py OUT_DIR

The journal holds, oldest first: a Disney game scored at the table (hands and a pick), a
finished UNO Elite digital game (its result on the tally), a Disney digital game in play, an
UNO Elite digital game in play (the latest game: the one digital play resumes), and an Elite
result kept without its game.
"""

from __future__ import annotations

import json
import random
import sqlite3
import sys
import time
from pathlib import Path

from engine.elite import bots as elite_bots
from tests.helpers.digital import Table, some_moves
from tray.events import Pick

NAME = "main-14f5ae9"


def greedy_moves(table: Table, seat: int, key: str, rng: random.Random, moves: int) -> None:
    game = table.digital.elite_link.game
    for _ in range(moves):
        if game.winner is not None:
            return
        table.digital.act(seat, key, elite_bots.greedy_bot(game, seat, rng))


def main(out: Path) -> None:
    path = out / f"{NAME}.sqlite3"
    if path.exists():
        raise SystemExit(f"{path} exists: remove it first")
    t = Table(path)
    expected: dict[str, object] = {}

    table_game = t.table.new_game(["Mia", "Noa", "Oli"], name="Friday at the table")
    t.table.submit({"kind": "hand", "winner": 0, "held": [None, ["R7", "B2"], ["G5"]]})
    t.bus.publish(Pick(seq=1, colour="green", t=time.time(), source="tray"))
    t.table.submit({"kind": "hand", "winner": 2, "held": [["Y9"], ["RS"], None]})
    expected["table_game"] = {"id": table_game, "view": t.table.view()}

    keys = t.digital.new_game(
        ["Ann", "Ben", "Cat"], [0], "greedy", options={"mode": "draft"}, ruleset="elite", seed=4
    )
    greedy_moves(t, 0, keys[0], random.Random(4), 5_000)
    finished = t.journal.latest_elite_game()
    assert finished is not None and finished.won
    expected["elite_finished"] = {
        "id": finished.id,
        "record": t.digital.record(),
        "winner": t.digital.elite_link.game.winner,
    }

    keys = t.digital.new_game(
        ["Ann", "Bob", "Cy"], [0], "greedy", options={"target": 500}, seed=4, confirm=True
    )
    some_moves(t, 0, keys[0], random.Random(1), 40)
    assert not t.digital.over, (t.digital.link.game.hand_no, t.digital.link.game.is_terminal())
    expected["disney_in_play"] = {
        "id": t.table.game_id,
        "key": keys[0],
        "record": t.digital.record(),
        "view": t.digital.view(0, keys[0]),
        "table_view": t.table.view(),
    }

    keys = t.digital.new_game(
        ["Dee", "Eve"], [1], "greedy", options={"mode": "quick"}, ruleset="elite", seed=7
    )
    greedy_moves(t, 1, keys[1], random.Random(7), 8)
    assert not t.digital.over
    kept = t.journal.latest_elite_game()
    assert kept is not None
    expected["elite_in_play"] = {
        "id": kept.id,
        "key": keys[1],
        "record": t.digital.record(),
        "view": t.digital.view(1, keys[1]),
    }

    t.table.elite_won(["Zed", "Yan"], 1, "dynasty")  # a result kept without its game
    expected["tally"] = t.table.view()["elite"]
    t.stop()

    with sqlite3.connect(path) as db:
        version = db.execute("PRAGMA user_version").fetchone()[0]
    if version != 3:
        raise SystemExit(f"this is a version {version} journal: run this script at commit 14f5ae9")
    (out / f"{NAME}.expected.json").write_text(json.dumps(expected, indent=1) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent))
