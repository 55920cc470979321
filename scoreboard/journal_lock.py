"""One service per journal: a lock file beside it, held with `flock` for as long as the service
runs, so the operating system lets it go the moment the service stops, however it stops (kill
-9, a power cut: a lock on a file does not outlive its process).

Two services on one journal would both resume its game, both run its bots and both write its
moves, and the saved game would no longer replay. The second one is refused at start with a
sentence naming the first (its process id and where it serves, which it writes into the lock
file). The lock file is never deleted: a file removed while another process waits to lock it
would let a third lock a new file of the same name.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path


class JournalInUse(Exception):
    """Another process holds the journal's lock: the message names it."""


class JournalLock:
    """The lock of the journal at `journal` (`<journal>.lock`); `acquire` to take it."""

    def __init__(self, journal: Path):
        self.journal = journal
        self.path = journal.with_name(f"{journal.name}.lock")
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> None:
        """Take the lock (nothing if held already). JournalInUse, naming the holder, if another
        process holds it; OSError if no lock file can be opened here (a read-only or missing
        folder with none in it): then nothing may be written either."""
        if self._fd is not None:
            return
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError:  # a read-only card: the lock file of an earlier start, if any
            fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = _holder(fd)
            os.close(fd)
            raise JournalInUse(
                f"the journal {self.journal} is in use by another tinker-tray ({holder}): stop "
                "that one first, or give this one another journal with --journal"
            ) from None
        self._fd = fd
        self.describe("")

    def describe(self, where: str) -> None:
        """Write this process's id (and `where` it serves) into the lock file, for the sentence
        a second service is refused with (nothing, if the file cannot be written)."""
        if self._fd is None:
            return
        text = f"pid {os.getpid()}" + (f", serving {where}" if where else "")
        with contextlib.suppress(OSError):  # read-only or full: the lock holds all the same
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, text.encode(), 0)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the last descriptor lets the lock go
            self._fd = None


def _holder(fd: int) -> str:
    """What the holder wrote into the lock file, or a word that it is not known."""
    try:
        text = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    return text or "its process id is not known"
