"""The version 3 journal that tests/scoreboard/test_journal_upgrade.py upgrades, and a way to grow
it as a long season of play would: shared with bench/journal_upgrade.py, which measures the
size the upgrade leaves on the card."""

from __future__ import annotations

import sqlite3
from pathlib import Path

FIXTURE = Path(__file__).parents[1] / "scoreboard" / "journals" / "main-14f5ae9.sqlite3"
"""Written by a release that kept UNO Elite in tables of its own (schema version 3)."""


def grown(path: Path, copies: int) -> int:
    """Add `copies` copies of the fixture's first UNO Elite game (setup and moves) to the old
    journal, as a long season of play would; returns its size on disk, WAL checkpointed."""
    with sqlite3.connect(path) as db:
        for _ in range(copies):
            cur = db.execute(
                "INSERT INTO elite_games(created, setup) SELECT created, setup FROM elite_games "
                "WHERE id = 1"
            )
            db.execute(
                "INSERT INTO elite_moves(game, event) SELECT ?, event FROM elite_moves "
                "WHERE game = 1 ORDER BY id",
                (cur.lastrowid,),
            )
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return on_disk(path)


def on_disk(path: Path) -> int:
    """Bytes the journal takes on the card: its file and its WAL."""
    return sum(
        Path(f"{path}{suffix}").stat().st_size
        for suffix in ("", "-wal")
        if Path(f"{path}{suffix}").exists()
    )
