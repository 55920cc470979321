"""The journal as a package (issue 40): callers import what they did from `scoreboard.journal`,
and its log lines still name `scoreboard.journal` (what an operator greps `journalctl` for),
whichever of its modules says them."""

from __future__ import annotations

import logging

import scoreboard.journal as J
from scoreboard.journal import Journal

# Every public name of the single module it was (scoreboard/journal.py at db67885).
BEFORE = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "ELITE_GAME_NAME",
    "RETRY_S",
    "RESTORE_TRIES",
    "FULL_BELOW",
    "JournalError",
    "JournalWriteError",
    "DamagedGame",
    "ConfirmError",
    "InPlayError",
    "UnknownGameError",
    "NoScoreSheetError",
    "GameInfo",
    "Result",
    "DigitalKept",
    "Logged",
    "Journal",
]


def test_every_name_callers_used_is_still_in_scoreboard_journal():
    assert [name for name in BEFORE if not hasattr(J, name)] == []
    assert sorted(BEFORE) == sorted(J.__all__)


def test_the_upgrade_steps_a_test_replaces_are_the_packages():
    """tests/scoreboard/test_journal_upgrade.py and bench/journal_upgrade.py replace these in
    the package, and the upgrade calls them there."""
    assert callable(J._fold_elite_tables) and callable(J._give_back_freed_pages)


def test_the_log_names_the_journal(tmp_path, caplog):
    journal = Journal(tmp_path / "journal.sqlite3")
    try:
        with caplog.at_level(logging.WARNING, logger="scoreboard.journal"):
            journal.report_damage("game 3 is damaged: a test")
    finally:
        journal.close()
    assert [(r.name, r.getMessage()) for r in caplog.records] == [
        ("scoreboard.journal", "game 3 is damaged: a test")
    ]
