"""The journal: the table's entries in SQLite, the source of truth across restarts.

Every entry is committed in its own transaction (WAL, `synchronous=FULL`) before `append`
returns, and the display shows an entry only after that, so a power cut or `kill -9` at any
moment loses nothing that was shown. A game is the fold of its entries through its ruleset's
score sheet (`engine.sheets.fold`); undo is a compensating entry, never a deletion. Only a
whole game can be deleted, and only with its confirmation phrase.

One schema for every ruleset. A game is a `games` row. A game with points has a score sheet: its
entries. A digital game, of any ruleset, also keeps its game record (`records`: how it was set
up; `moves`: every game-record event, in order), written before a page shows the move, so the
game in play is replayed exactly after a restart and the record can be exported long after. A
finished game's winner is a `results` row, for every ruleset; the scoreboard tallies the wins of
the games that have no score sheet (UNO Elite has no points) from them.

A file that is not ours (another application's database, a corrupt file, a text file) is refused
with a message and opened read-only for the check, so it is never modified. An older journal is
upgraded on open in one transaction (a crash part-way leaves it as it was), then the space
of the tables it dropped is given back (VACUUM, when the card has room for it).

One module a job; `Journal` is their layers stacked, and every name callers use is here:

- `connection`: the connection's life on a failing card (open, the read-only fallback, the
  retries, what a write does when the card cannot take it); `card` what the card says, and
  `transaction` one write's BEGIN ... COMMIT;
- `schema`: the tables, the check that a file is ours, the upgrades;
- `writes`, `reads`, `exports` (a record, a score sheet as JSON or CSV), `copies` (backup and
  restore); `rows` what the reads hand out; `errors` every error, each a sentence.
"""

from __future__ import annotations

from scoreboard.journal.card import FULL_BELOW
from scoreboard.journal.connection import RETRY_S
from scoreboard.journal.copies import RESTORE_TRIES, Copies
from scoreboard.journal.errors import (
    ConfirmError,
    DamagedGame,
    InPlayError,
    JournalError,
    JournalWriteError,
    NoScoreSheetError,
    UnknownGameError,
)
from scoreboard.journal.exports import Exports
from scoreboard.journal.rows import DigitalKept, GameInfo, Logged, Result
from scoreboard.journal.schema import APPLICATION_ID, ELITE_GAME_NAME, SCHEMA_VERSION

# The upgrade's two steps, called through this package (`schema.prepare`): the tests replace
# one to crash or fill the disk mid-upgrade, bench/journal_upgrade.py to measure without it.
from scoreboard.journal.schema import _fold_elite_tables as _fold_elite_tables
from scoreboard.journal.schema import _give_back_freed_pages as _give_back_freed_pages
from scoreboard.journal.writes import Writes

__all__ = [
    "APPLICATION_ID",
    "ELITE_GAME_NAME",
    "FULL_BELOW",
    "RESTORE_TRIES",
    "RETRY_S",
    "SCHEMA_VERSION",
    "ConfirmError",
    "DamagedGame",
    "DigitalKept",
    "GameInfo",
    "InPlayError",
    "Journal",
    "JournalError",
    "JournalWriteError",
    "Logged",
    "NoScoreSheetError",
    "Result",
    "UnknownGameError",
]


class Journal(Writes, Exports, Copies):
    """The journal at `path`: its connection's life (`Connection`: the lock of a service with
    `exclusive`, the read-only fallback on a card that cannot be written, the retries), its
    reads, writes, exports, and whole copies."""
