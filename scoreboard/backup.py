"""A backup of the journal as one file, and its check before a restore takes it.

A new SD card (the image's only update without SSH) starts with an empty journal: the family
keeps their games by taking a backup on the host's page before, and giving it to the new card
after (the page, or the boot partition: `scoreboard.backup_boot`). One file holds the whole
journal: every game and its record, the results, the table's token (so phones paired with
the old card stay paired) and every setting the journal keeps.

The file (`.ttb`), as Home Assistant keeps its backups, one file that says what it is:

    tinker-tray backup 1 sha256=<64 hex digits>\\n     the format, its version, and the SHA-256
                                                       of everything after this line
    {"made": ..., "schema": 4, "games": N, "bytes": N}\\n   what it holds (one line of JSON)
    <the journal: an SQLite database, zlib-compressed>

A restore checks everything before anything changes (as an update that cannot brick verifies
its bundle first): the first line, the SHA-256 (one changed byte anywhere is refused), the
description, the size unpacked (bounded). The SHA-256 only tells that the file is as it was
made, and anyone can make one: so its database is data, never a database to trust. Its rows
are read into a new journal made by this version's own schema (`scoreboard.journal.rebuild`:
no trigger, view, index or setting of the file comes along), which must hold the games the
description counts; an older journal is upgraded there. The whole check is bounded in time
(`rebuild.TIME_LIMIT_S`, 30 s) as well as in size. Only then does the journal take the new
one, in one transaction (`Journal.replace_with`). Anything refused is one sentence
(`BackupRefused`) and changes nothing.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import re
import sqlite3
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from scoreboard.journal import SCHEMA_VERSION, Journal, JournalError
from scoreboard.journal import rebuild as rows

FORMAT = "tinker-tray backup"
VERSION = 1
SUFFIX = ".ttb"
MAX_BYTES = 256 * 1024 * 1024
"""The largest backup file taken (a journal of 100,000 hands is about 55 MB, a few MB packed)."""
MAX_JOURNAL_BYTES = 2 * 1024 * 1024 * 1024
"""The largest journal a backup may unpack to: a file that claims more is refused unread."""
MAX_HEADER = 4096
SCRATCH = ".tinker-backup-"
"""How the scratch files beside the journal begin (`sweep` removes those a power cut left)."""
CHUNK = 1024 * 1024
_FIRST_LINE = re.compile(rb"tinker-tray backup (\d{1,6}) sha256=([0-9a-f]{64})\n")
_FIRST_LINE_BYTES = len(f"{FORMAT} {VERSION} sha256=") + 64 + 1
_FOREIGN = (
    "is not a tinker-tray backup: choose the .ttb file that the host's page's \"Back up\" gave"
)


class BackupRefused(ValueError):
    """A file that is not a whole, readable tinker-tray backup: one sentence; nothing changed."""


@dataclasses.dataclass(frozen=True)
class Made:
    """A backup file just made (the caller sends it, then removes it)."""

    path: Path
    name: str  # the name to save it under: tinker-tray-backup-YYYYMMDD-HHMM.ttb


@dataclasses.dataclass(frozen=True)
class Checked:
    """A backup that passed every check: its journal, unpacked into `database`."""

    database: Path
    games: int
    made: str


def file_name(when: float) -> str:
    """The name a backup is saved under: dated, so a family keeps several apart."""
    return time.strftime("tinker-tray-backup-%Y%m%d-%H%M", time.gmtime(when)) + SUFFIX


def make(journal: Journal, folder: Path, clock: Callable[[], float] = time.time) -> Made:
    """Back up `journal` into a new file in `folder` (the journal's own card: as much room as
    the journal, at most, is needed for the copy while it is packed). OSError or
    sqlite3.Error if the card has no room; nothing is left behind then."""
    with _scratch(folder, ".copy") as copy:
        journal.copy_to(copy)
        with contextlib.closing(sqlite3.connect(copy, isolation_level=None)) as db:
            db.execute("PRAGMA journal_mode=DELETE")  # one file: the copy needs no WAL
            games = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            schema = db.execute("PRAGMA user_version").fetchone()[0]
        now = clock()
        about = {
            "made": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now)),
            "schema": schema,
            "games": games,
            "bytes": copy.stat().st_size,
        }
        handle, name = tempfile.mkstemp(prefix=SCRATCH, suffix=SUFFIX, dir=folder)
        path = Path(name)
        try:
            with os.fdopen(handle, "w+b") as out:
                _write(out, copy, about)
        except BaseException:
            path.unlink(missing_ok=True)
            raise
    return Made(path, file_name(now))


def _write(out: BinaryIO, copy: Path, about: dict[str, Any]) -> None:
    """The file: a first line kept free, the rest written and hashed, then the first line."""
    out.write(b" " * _FIRST_LINE_BYTES)
    digest = hashlib.sha256()

    def put(data: bytes) -> None:
        digest.update(data)
        out.write(data)

    put(json.dumps(about, separators=(",", ":")).encode() + b"\n")
    packer = zlib.compressobj(6)
    with copy.open("rb") as journal:
        while chunk := journal.read(CHUNK):
            put(packer.compress(chunk))
    put(packer.flush())
    out.seek(0)
    out.write(f"{FORMAT} {VERSION} sha256={digest.hexdigest()}\n".encode())
    out.flush()  # (no fsync: the file is sent, then removed; a power cut meanwhile loses nothing)


@contextlib.contextmanager
def checked(
    backup: Path, folder: Path, clock: Callable[[], float] = time.monotonic
) -> Iterator[Checked]:
    """The backup at `backup`, checked through and its rows read into a new journal in a
    scratch file in `folder` (removed on leaving), all within `rows.TIME_LIMIT_S` on `clock`.
    BackupRefused, one sentence, for anything that is not a whole tinker-tray backup this
    version can take; OSError or sqlite3.OperationalError when the card cannot take the check
    (full, failing)."""
    deadline = clock() + rows.TIME_LIMIT_S
    size = backup.stat().st_size
    if size > MAX_BYTES:
        raise BackupRefused(f"the file is over {MAX_BYTES // 2**20} MB: it {_FOREIGN}")
    with backup.open("rb") as file:
        _check_sum(file, lambda: _in_time(clock, deadline))
        about = _about(file)
        with _scratch(folder, ".unpacked") as unpacked, _scratch(folder, ".restore") as database:
            _unpack(file, unpacked, about["bytes"], lambda: _in_time(clock, deadline))
            games = _take_rows(unpacked, database, about["games"], clock, deadline)
            unpacked.unlink()  # the card's room back before the restore copies the new journal
            yield Checked(database, games, about["made"])


def _in_time(clock: Callable[[], float], deadline: float) -> None:
    if clock() > deadline:
        raise BackupRefused(
            f"it could not be read in {rows.TIME_LIMIT_S:.0f} s: the file {_FOREIGN}"
        )


def _check_sum(file: BinaryIO, in_time: Callable[[], None]) -> None:
    """The first line (the format, a version this one reads) and the SHA-256 of the rest."""
    first = file.readline(_FIRST_LINE_BYTES + 8)
    found = _FIRST_LINE.fullmatch(first)
    if found is None:
        raise BackupRefused(f"the file {_FOREIGN}")
    version = int(found.group(1))
    if version > VERSION:
        raise BackupRefused(
            f"the backup was made by a newer tinker-tray (backup format {version}): update "
            "this tray first, then restore it"
        )
    if version < 1:
        raise BackupRefused(f"the file {_FOREIGN}")
    digest = hashlib.sha256()
    while chunk := file.read(CHUNK):
        in_time()
        digest.update(chunk)
    if digest.hexdigest() != found.group(2).decode():
        raise BackupRefused(
            "the backup is damaged (its SHA-256 does not match: it was changed or cut short "
            "since it was made); take the backup again"
        )
    file.seek(len(first))


def _about(file: BinaryIO) -> dict[str, Any]:
    """The description line, every field checked."""
    line = file.readline(MAX_HEADER)
    try:
        about = json.loads(line)
    except ValueError:
        raise BackupRefused(f"its description cannot be read: the file {_FOREIGN}") from None
    if not isinstance(about, dict):
        raise BackupRefused(f"its description cannot be read: the file {_FOREIGN}")
    for key, kind in (("made", str), ("schema", int), ("games", int), ("bytes", int)):
        value = about.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise BackupRefused(f"its description has no {key}: the file {_FOREIGN}")
    if not 0 < about["bytes"] <= MAX_JOURNAL_BYTES:
        raise BackupRefused(
            f"its journal would be {about['bytes']} bytes, more than a tray keeps "
            f"({MAX_JOURNAL_BYTES // 2**30} GB at most): the file {_FOREIGN}"
        )
    if about["schema"] > SCHEMA_VERSION:
        raise BackupRefused(
            f"the backup holds a journal of a newer tinker-tray (version {about['schema']}): "
            "update this tray first, then restore it"
        )
    return about


def _unpack(file: BinaryIO, database: Path, size: int, in_time: Callable[[], None]) -> None:
    """The journal, unpacked to `database`: exactly `size` bytes, never more (a file that
    would unpack to more is refused as soon as it does)."""
    unpacker = zlib.decompressobj()
    written = 0
    with database.open("wb") as out:
        try:
            while chunk := file.read(CHUNK):
                in_time()
                data = unpacker.decompress(chunk, size + 1 - written)
                while data:
                    written += len(data)
                    if written > size:
                        break
                    out.write(data)
                    data = unpacker.decompress(unpacker.unconsumed_tail, size + 1 - written)
                if written > size or unpacker.eof:
                    break
        except zlib.error:
            raise BackupRefused(f"its journal cannot be unpacked: the file {_FOREIGN}") from None
        if written != size or not unpacker.eof or unpacker.unused_data or file.read(1):
            raise BackupRefused(
                f"its journal does not unpack to the {size} bytes it says: the file {_FOREIGN}"
            )
        out.flush()


def _take_rows(
    unpacked: Path, database: Path, games: int, clock: Callable[[], float], deadline: float
) -> int:
    """The unpacked journal's rows, read into a new journal at `database` (`rows.rebuild`),
    holding the `games` its description counts; an older one upgraded (as the journal upgrades
    on open). Its number of games, once upgraded."""
    try:
        version = rows.rebuild(unpacked, database, deadline=deadline, clock=clock)
    except rows.Unfit as exc:
        raise BackupRefused(f"{exc}: the file {_FOREIGN}") from None
    with contextlib.closing(sqlite3.connect(database)) as db:
        held = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    if held != games:
        raise BackupRefused(
            f"the backup says it holds {games} games but its journal holds {held}: it was not "
            "made by tinker-tray, or was changed since"
        )
    if version < SCHEMA_VERSION:
        _upgrade(database)
    with contextlib.closing(sqlite3.connect(database)) as db:
        return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])


def _upgrade(database: Path) -> None:
    """An older journal in the backup, upgraded in the scratch copy as the journal upgrades
    one on open (one transaction); anything it finds damaged refuses the backup."""
    try:
        journal = Journal(database)
    except JournalError as exc:
        raise BackupRefused(f"its journal cannot be upgraded ({exc})") from None
    try:
        if journal.damaged:
            raise BackupRefused(f"its journal is damaged ({journal.damaged[0]})")
    finally:
        journal.close()
    with contextlib.closing(sqlite3.connect(database, isolation_level=None)) as db:
        db.execute("PRAGMA journal_mode=DELETE")  # the WAL the journal made, folded back in
    Path(f"{database}.lock").unlink(missing_ok=True)


def restore(journal: Journal, backup: Checked, *, replace: bool = False) -> int:
    """Make `journal` the checked backup's journal (`Journal.replace_with`: ConfirmError while it
    holds games and not `replace`, InPlayError, JournalWriteError). The games it held before."""
    return journal.replace_with(backup.database, replace=replace)


def sweep(folder: Path) -> None:
    """Remove the scratch files a backup or a restore cut short (a power cut) left in `folder`:
    called as the service starts, when none is in use."""
    for left in folder.glob(f"{SCRATCH}*"):
        with contextlib.suppress(OSError):
            left.unlink()


@contextlib.contextmanager
def _scratch(folder: Path, suffix: str) -> Iterator[Path]:
    """A name for a scratch file in `folder` (created empty), removed on leaving with what
    SQLite made beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix=SCRATCH, suffix=suffix, dir=folder)
    os.close(handle)
    path = Path(name)
    try:
        yield path
    finally:
        for extra in ("", "-wal", "-shm", "-journal"):
            Path(f"{path}{extra}").unlink(missing_ok=True)
