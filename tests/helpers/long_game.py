"""A journal holding one long game played at the table, for the tests and benches of a long
game's start (tests/scoreboard/test_long_game.py, bench/table_journal.py, bench/table_fold.py).

4 players, a typed total per seat, one dealer correction after the 10th hand, a declaration and
a pick every 5 hands, target 100,000: the totals stay under it up to 100,000 hands and more, so
the game never ends."""

from __future__ import annotations

from pathlib import Path

from scoreboard.journal import Journal
from tray.backend import COLOURS

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def build(path: Path, hands: int) -> int:
    """A journal at `path` with one game of `hands` hands; returns the number of entries."""
    journal = Journal(path)
    journal._db.execute("PRAGMA synchronous=OFF")  # building only: no fsync per entry
    game = journal.create_game(
        {"kind": "start", "players": PLAYERS, "dealer": 0, "options": {"target": 100_000}}
    )
    count = 1
    for n in range(hands):
        winner = (n * 7) % 4
        held = [None if seat == winner else (n + seat) % 3 for seat in range(4)]
        entries = [{"kind": "hand", "winner": winner, "held": held}]
        if n == 9:  # one correction early: the walk from it is as long as the game
            entries.append({"kind": "dealer", "seat": n % 4})
        if n % 5 == 0:
            entries.append({"kind": "declare", "card": "RD2", "seat": winner})
            entries.append({"kind": "pick", "seq": n, "colour": COLOURS[n % 4]})
        for entry in entries:
            journal.append(game, entry)
        count += len(entries)
    journal.close()
    return count
