"""The journal's errors. Each says in one sentence what happened and what to do: the web app
answers it as it stands (4xx, or 503 for a write the card could not save), never as a traceback."""

from __future__ import annotations

import sqlite3


class JournalError(Exception):
    """The journal file cannot be used; the message says why and what to do."""


class JournalWriteError(Exception):
    """The journal could not save a write (a full or failing SD card, a read-only file): nothing
    was changed, and the message says so in a sentence for the page (HTTP 503)."""

    def __init__(self, cause: sqlite3.Error):
        super().__init__(
            f"not saved: {_advice(cause)}. Nothing was changed; try again once it is fixed."
        )
        self.reason = str(cause)


def _advice(cause: sqlite3.Error) -> str:
    """What stopped a write, in words for the page."""
    reason = str(cause)
    if "full" in reason:
        return "the disk is full; free some space"
    if "readonly" in reason or "read-only" in reason:
        return "the journal cannot be written (read-only)"
    return f"the disk or the journal failed ({reason})"


class DamagedGame(JournalError):
    """A game whose journal rows no longer read (not JSON, not UTF-8, or entries that do not
    replay): it is set aside as it is, and the page and the log say which and why."""

    def __init__(self, game: int | None, why: str):
        which = f"game {game}" if game is not None else "the picks made with no game"
        super().__init__(f"{which} is damaged: {why}. It was left as it is")
        self.game = game


class _Unreadable(Exception):
    """The file is an SQLite database SQLite cannot read: it is moved aside, never written."""


class ConfirmError(ValueError):
    """A destructive request without its confirmation phrase."""


class InPlayError(ValueError):
    """A game that is being played cannot be deleted (HTTP 409, with the sentence)."""


class UnknownGameError(LookupError):
    """A game id that the journal does not hold."""


class NoScoreSheetError(UnknownGameError):
    """A game without points (UNO Elite) has no score sheet to export: its record has it all."""
