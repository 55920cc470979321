"""Files a command will write, checked before the work starts: a game played for half an hour
must not end with "could not write the record"; and where the journal of games is kept unless
a command is told (`default_journal`: `run`, `emulate`, `display`, `club`)."""

from __future__ import annotations

import os
from pathlib import Path


def file_problem(path: Path) -> str | None:
    """Why `path` cannot be written as a file (a sentence), or None if it can."""
    if path.is_dir():
        return f"{path} is a directory, not a file"
    parent = path.parent
    if not parent.exists():
        return f"the folder {parent} does not exist"
    if not parent.is_dir():
        return f"{parent} is not a folder"
    if path.exists() and not os.access(path, os.W_OK):
        return f"{path} cannot be written (permission denied)"
    if not path.exists() and not os.access(parent, os.W_OK | os.X_OK):
        return f"cannot create files in {parent} (permission denied)"
    return _try_writing(path)


def _try_writing(path: Path) -> str | None:
    """Open `path` for writing as the command will (permissions alone do not tell: root passes
    every access check, and a folder like /proc or a full or read-only disk refuses anyway). A
    file that did not exist is removed again; one that did is left as it was."""
    existed = path.exists()
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as exc:
        return f"cannot write {path}: {(exc.strerror or str(exc)).lower()}"
    if not existed:
        path.unlink(missing_ok=True)
    return None


def make_directory(path: Path) -> str | None:
    """Create `path` (and its parents) if needed; why it cannot hold new files, or None."""
    if path.exists() and not path.is_dir():
        return f"{path} is a file, not a folder"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"cannot create the folder {path}: {(exc.strerror or str(exc)).lower()}"
    if not os.access(path, os.W_OK | os.X_OK):
        return f"cannot create files in {path} (permission denied)"
    return None


def default_journal() -> Path:
    state = os.environ.get("STATE_DIRECTORY") or os.environ.get("XDG_STATE_HOME")
    base = Path(state) if state else Path.home() / ".local" / "state"
    return base / "tinker-tray" / "journal.sqlite3"


DEFAULT_JOURNAL = (
    "$STATE_DIRECTORY (else $XDG_STATE_HOME, else ~/.local/state)/tinker-tray/journal.sqlite3"
)
"""`default_journal` in words, for --help (`run`, `emulate`, `display`): where it looks, not
where it found, so the help is the same for everyone (and names no one's home)."""
