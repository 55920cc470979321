"""A backup left on the SD card's boot partition, taken once, before the tray starts.

A family writing a new card (the image's update without SSH) copies the file the host's page's
"Back up" gave (`tinker-tray-backup-DATE.ttb`) onto the card's boot partition, the FAT one any
computer shows, beside `tinker-tray-wifi.txt`. At the next start, the image's
tinker-tray-restore.service (root: the boot partition is root's) runs this before the tray:

    python -m scoreboard.backup_boot BOOT_DIR JOURNAL

The backup is checked through (`scoreboard.backup`: within 30 s, its rows read as data) and
restored onto a journal that holds no game (one that holds games is the tray's own: only the
host's page, which asks first, replaces them). The file is taken once and never tried again at
every boot: it is renamed `.refused` *before* it is tried, with a sentence beside it
(`NAME.refused.txt`) saying the restore was cut short, so a power cut or the unit's time limit
mid-restore still leaves it tried once; then `.done` once restored, or `.refused` with the
sentence why in that file, on the HDMI screen and in the system's log
(`journalctl -u tinker-tray-restore`). Exit status 0 always: the tray starts all the same.
"""

from __future__ import annotations

import contextlib
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
CUT_SHORT = (
    "the restore was cut short (the power went, or it took longer than the start allows); "
    "take the backup on the host's page instead"
)
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
        said.append(_refused(older, older, f"not taken: {shown(found[-1].name)} is newer"))
    if found:
        said.append(_take_one(found[-1], journal_path))
    return said


def _take_one(file: Path, journal_path: Path) -> str:
    """Set `file` aside as refused, then try it: what is said of it, and where it ends up."""
    taking = file.with_name(file.name + REFUSED)
    try:
        _sentence(taking).write_text(f"{shown(file.name)}: not restored: {CUT_SHORT}.\n")
        file.rename(taking)
    except OSError as exc:  # a card that cannot be written: tried as it is (within its limit)
        with contextlib.suppress(OSError):
            _sentence(taking).unlink(missing_ok=True)
        taking = file
        unmoved = f"; it could not be renamed {REFUSED} ({_reason(exc)})"
    else:
        unmoved = ""
    try:
        games = restore_file(taking, journal_path)
    except ConfirmError:
        why = HOLDS_GAMES
    except (backup.BackupRefused, JournalError, InPlayError) as exc:
        why = str(exc)
    except (JournalWriteError, OSError, sqlite3.Error) as exc:
        why = _reason(exc)
    else:
        _sentence(taking).unlink(missing_ok=True)
        restored = f"restored: {games} games, and the table's token (phones stay paired)"
        return _renamed(file, taking, DONE, restored)
    if unmoved:
        return f"{shown(file.name)}: not restored: {why}{unmoved}"
    return _refused(file, taking, f"not restored: {why}")


def _refused(file: Path, now: Path, what: str) -> str:
    """`file` (found as `now`) renamed `.refused`, with the sentence why beside it."""
    said = _renamed(file, now, REFUSED, what)
    with contextlib.suppress(OSError):
        _sentence(file.with_name(file.name + REFUSED)).write_text(said + "\n")
    return said


def _sentence(refused: Path) -> Path:
    """The text file beside a refused backup that says why (a family reads the boot partition
    on any computer, which shows no console)."""
    return refused.with_name(refused.name + ".txt")


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


def _renamed(file: Path, now: Path, ending: str, what: str) -> str:
    """Rename `file` (found as `now`) to its name and `ending`, so it is not taken again; the
    sentence naming it, and what happened."""
    name = shown(file.name)
    try:
        now.rename(file.with_name(file.name + ending))
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
