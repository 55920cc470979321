"""A file of the boot partition, read as what it is: bytes anyone could have written from any
computer. Read at most one byte past the limit (a 4 GB file costs no more than a 64 KB one),
decoded only on request, and known by its SHA-256 so that a refusal is said once (refusals.py).
Writing goes through write_file: atomic and synced, as a power cut can come at any moment."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

MAX_BYTES = 64 * 1024
"""No file the tray reads there needs more: a filled-in settings file is about 6 KB."""


class Refused(ValueError):
    """A boot-partition file, or a value in it, that is not used: one sentence naming the file."""


@dataclass(frozen=True)
class CardFile:
    name: str
    data: bytes
    """The file's first MAX_BYTES + 1 bytes at most: one more than that means it is too big."""

    @property
    def digest(self) -> str:
        """What refusals.py remembers: the same file is the same refusal."""
        return hashlib.sha256(self.data).hexdigest()

    def text(self) -> str:
        """The file as UTF-8 text (a byte-order mark dropped), or Refused in one sentence."""
        if len(self.data) > MAX_BYTES:
            raise Refused(f"{self.name}: is over {MAX_BYTES // 1024} KB: not a file the tray reads")
        try:
            return self.data.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            raise Refused(f"{self.name}: is not UTF-8 text (save it as UTF-8)") from None


def read(path: Path) -> CardFile:
    """The file's bytes, bounded. OSError as open() raises it (the caller says it in a sentence)."""
    with open(path, "rb") as file:
        return CardFile(path.name, file.read(MAX_BYTES + 1))


def read_text(path: Path) -> str:
    """The file as text, or Refused in one sentence (too big, not UTF-8)."""
    return read(path).text()


def write_file(path: Path, text: str, mode: int = 0o644) -> bool:
    """Write `text` to `path` unless it is there already; atomically (a power cut leaves the
    old file or the new), synced. True when it changed."""
    try:
        if read(path).data == text.encode():
            return False
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".new")
    with open(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode), "wb") as file:
        file.write(text.encode())
        file.flush()
        os.fsync(file.fileno())
    os.chmod(temporary, mode)
    os.replace(temporary, path)
    return True
