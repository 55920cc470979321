"""A backup left on the SD card's boot partition, taken once, before the tray starts.

A family writing a new card (the image's update without SSH) copies the file the host's page's
"Back up" gave (`tinker-tray-backup-DATE.ttb`) onto the card's boot partition, the FAT one any
computer shows, beside `tinker-tray-wifi.txt`. At the next start, the image's
tinker-tray-restore.service (root: the boot partition is root's) runs this before the tray:

    python -m scoreboard.backup_boot BOOT_DIR JOURNAL

The backup is checked through (`scoreboard.backup`) and restored onto a journal that holds no
game (one that holds games is the tray's own: only the host's page, which asks first, replaces
them). Either way the file is renamed, so it is taken once and never tried again at every boot:
`.done` once restored, `.refused` with the sentence why, said on the HDMI screen and in the
system's log (`journalctl -u tinker-tray-restore`). Exit status 0 always: the tray starts all
the same.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path

from scoreboard import backup
from scoreboard.journal import (
    ConfirmError,
    InPlayError,
    Journal,
    JournalError,
    JournalWriteError,
)

PATTERN = "tinker-tray-backup*" + backup.SUFFIX
DONE, REFUSED = ".done", ".refused"
HOLDS_GAMES = (
    "this tray's journal holds games already, which a backup on the card never replaces: "
    "restore it on the host's page instead (it asks before replacing them)"
)


def take(boot: Path, journal_path: Path) -> list[str]:
    """Take the newest backup on `boot` (by name: the names are dated) onto the journal at
    `journal_path`; every other one is refused. What happened, one sentence per file."""
    found = sorted(p for p in boot.glob(PATTERN) if p.is_file())
    said = []
    for older in found[:-1]:
        said.append(_renamed(older, REFUSED, f"not taken: {shown(found[-1].name)} is newer"))
    if found:
        said.append(_take_one(found[-1], journal_path))
    return said


def _take_one(file: Path, journal_path: Path) -> str:
    try:
        games = restore_file(file, journal_path)
    except ConfirmError:
        return _renamed(file, REFUSED, f"not restored: {HOLDS_GAMES}")
    except (backup.BackupRefused, JournalError, InPlayError) as exc:
        return _renamed(file, REFUSED, f"not restored: {exc}")
    except (JournalWriteError, OSError, sqlite3.Error) as exc:
        return _renamed(file, REFUSED, f"not restored: {_reason(exc)}")
    return _renamed(
        file, DONE, f"restored: {games} games, and the table's token (phones stay paired)"
    )


def restore_file(file: Path, journal_path: Path) -> int:
    """Restore the backup `file` onto the journal at `journal_path` (made if missing), holding
    the journal's lock (a running tray refuses it). The number of games restored. The journal
    and what it makes beside it keep the owner of the folder it is in (run as root, for the
    tray's user)."""
    owner = _owner(journal_path)
    try:
        with backup.checked(file, journal_path.parent) as kept:  # before the journal is opened
            journal = Journal(journal_path, exclusive=True)
            try:
                backup.restore(journal, kept)
                journal.token()  # a backup without one gets one now, kept for the tray
            finally:
                journal.close()
    finally:
        _give_back(journal_path, owner)
    return kept.games


def _owner(journal_path: Path) -> tuple[Path, int, int]:
    """The nearest folder above the journal that is there now, and its owner."""
    folder = next(p for p in journal_path.absolute().parents if p.exists())
    status = folder.stat()
    return folder, status.st_uid, status.st_gid


def _give_back(journal_path: Path, owner: tuple[Path, int, int]) -> None:
    """Everything made below the owner's folder (the journal's folders, the journal, its WAL,
    index and lock files) made the owner's, so the tray's own user can write them."""
    folder, uid, gid = owner
    if os.geteuid() != 0:
        return
    made = [p for p in journal_path.absolute().parents if p.is_relative_to(folder) and p != folder]
    made += [Path(f"{journal_path}{s}") for s in ("", "-wal", "-shm", ".lock")]
    for path in made:
        if path.exists():
            os.chown(path, uid, gid)


def _renamed(file: Path, ending: str, what: str) -> str:
    """Rename `file` so it is not taken again; the sentence naming it, and what happened."""
    name = shown(file.name)
    try:
        file.rename(file.with_name(file.name + ending))
    except OSError as exc:
        return f"{name}: {what}; it could not be renamed {ending} ({_reason(exc)})"
    return f"{name}: {what}. It was renamed {name}{ending}."


def shown(text: str) -> str:
    """Text from the card as the console may show it: no escape sequence, no line break, no
    byte that is not text (each written as \\xNN), and not longer than a line."""
    safe = "".join(
        c if c.isprintable() else f"\\x{ord(c):02x}" if ord(c) < 256 else f"\\u{ord(c):04x}"
        for c in text[:120]
    )
    return safe + ("..." if len(text) > 120 else "")


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return str(exc)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python -m scoreboard.backup_boot BOOT_DIR JOURNAL", file=sys.stderr)
        return 2
    for line in take(Path(args[0]), Path(args[1])):
        print(f"tinker-tray: {line}", flush=True)
    return 0  # the tray starts all the same: with the games restored, or as it was


if __name__ == "__main__":
    sys.exit(main())
