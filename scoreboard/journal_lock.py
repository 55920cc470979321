"""One service per journal: the journal file itself held with `flock`, and a lock file beside
it, for as long as the service runs, so the operating system lets them go the moment the
service stops, however it stops (kill -9, a power cut: a lock on a file does not outlive its
process).

Two services on one journal would both resume its game, both run its bots and both write its
moves, and the saved game would no longer replay. The second one is refused at start with a
sentence naming the first (its process id and where it serves, which it writes into the lock
file). The lock file is never deleted: a file removed while another process waits to lock it
would let a third lock a new file of the same name.

A journal has more than one name when a symbolic or a hard link points at it, so the lock
follows the file, not the name it was given: the lock file is beside the path with every
symbolic link resolved, and the journal file's own inode is locked too (a hard link is the
same inode under another name; `flock` and SQLite's own `fcntl` locks do not meet on Linux).
A second service that finds the inode locked reads the holder's process id from the kernel's
table of locks (`/proc/locks`), and its address from the holder's lock file when that is the
one beside this name.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

PROC_LOCKS = Path("/proc/locks")


class JournalInUse(Exception):
    """Another process holds the journal's lock: the message names it."""


class JournalLock:
    """The lock of the journal at `journal` (`<journal>.lock` beside its real path, and the
    journal file itself); `acquire` to take it."""

    def __init__(self, journal: Path):
        self.journal = journal
        real = journal.resolve()  # a symbolic link's target: one lock file per real path
        self.path = real.with_name(f"{real.name}.lock")
        self._fd: int | None = None
        self._file_fd: int | None = None  # the journal file itself (its inode)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> None:
        """Take the lock (if held already: the journal file's too, if it has none yet, as
        after a start on a read-only card without a journal). JournalInUse, naming the
        holder, if another process holds it; OSError if no lock file can be opened here (a
        read-only or missing folder with none in it): then nothing may be written either."""
        if self._fd is not None:
            if self._file_fd is None:  # started on a read-only card without a journal
                self.renewed()
            return
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError:  # a read-only card: the lock file of an earlier start, if any
            fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
        if not _locked(fd):
            holder = _holder(fd)
            os.close(fd)
            raise self._in_use(holder)
        file_fd = _journal_file(self.journal)
        if file_fd is not None and not _locked(file_fd):
            holder = _inode_holder(file_fd)
            os.close(file_fd)
            os.close(fd)
            raise self._in_use(holder)
        self._fd, self._file_fd = fd, file_fd
        self.describe("")

    def _in_use(self, holder: str) -> JournalInUse:
        return JournalInUse(
            f"the journal {self.journal} is in use by another tinker-tray ({holder}): stop "
            "that one first, or give this one another journal with --journal"
        )

    def describe(self, where: str) -> None:
        """Write this process's id (and `where` it serves) into the lock file, for the sentence
        a second service is refused with (nothing, if the file cannot be written)."""
        if self._fd is None:
            return
        text = f"pid {os.getpid()}" + (f", serving {where}" if where else "")
        with contextlib.suppress(OSError):  # read-only or full: the lock holds all the same
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, text.encode(), 0)

    def renewed(self) -> None:
        """Lock the journal file anew: the one locked was moved aside (unreadable) and a new
        journal starts under its name, or there was none to lock."""
        if self._fd is None:
            return
        if self._file_fd is not None:
            os.close(self._file_fd)
        self._file_fd = _journal_file(self.journal)
        if self._file_fd is not None and not _locked(self._file_fd):
            os.close(self._file_fd)  # taken meanwhile by another name: the lock file holds
            self._file_fd = None

    def release(self) -> None:
        for fd in (self._file_fd, self._fd):
            if fd is not None:
                os.close(fd)  # closing the last descriptor lets the lock go
        self._fd = self._file_fd = None


def _locked(fd: int) -> bool:
    """`flock` taken on `fd` now (False: another process holds it)."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _journal_file(journal: Path) -> int | None:
    """The journal file opened for its lock (created empty if missing: SQLite takes an empty
    file for a new database); None where there is none and none can be made (a read-only
    card without a journal: the lock file beside it is the lock)."""
    try:
        return os.open(journal, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError:
        return None


def _holder(fd: int) -> str:
    """What the holder wrote into the lock file, or a word that it is not known."""
    try:
        text = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    return text or "its process id is not known"


def _inode_holder(fd: int) -> str:
    """Who holds the `flock` of the file open at `fd`, from the kernel's table of locks: "pid
    N" (the journal reached by another name: its lock file is beside that name)."""
    found = os.fstat(fd)
    inode = f"{os.major(found.st_dev):02x}:{os.minor(found.st_dev):02x}:{found.st_ino}"
    try:
        table = PROC_LOCKS.read_text()
    except OSError:
        return "its process id is not known"
    for line in table.splitlines():
        fields = line.split()  # 1: FLOCK ADVISORY WRITE 1234 00:2f:56789 0 EOF
        if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == inode:
            return f"pid {fields[4]}"
    return "its process id is not known"
