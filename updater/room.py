"""Room on the card for a new slot, asked before anything is written.

A slot is a release's tree and its venv: about what the running slot takes, which is the best
estimate a tray has of the next one (measured on the image: 45 MB of venv, 10 MB of tree).
Room for a second copy, and a margin for pip's temporary files and the journal's growth, must
be free before the set-up starts, so a nearly full card is refused cleanly rather than found out
half-way through a copy.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

MARGIN = 64 * 1024 * 1024
"""pip's build and cache files during a set-up, and room left for the journal afterwards."""
SKIPPED = {".git", ".releases", "mypyc-c", "mypyc-tmp", "node_modules", "__pycache__"}
"""Not part of what a slot carries (the checkout's history, the other slots, the compiler's
C files: only build/mypyc, the compiled engine, is)."""


class RoomError(Exception):
    """Not enough room for the update, with the figures."""


def size_of(folder: Path) -> int:
    """Bytes a slot's files take on the card (blocks, not lengths; links not followed)."""
    total = 0
    for top, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if name not in SKIPPED]
        for name in files:
            try:
                total += os.lstat(os.path.join(top, name)).st_blocks * 512
            except OSError:
                continue
    return total


def megabytes(count: int) -> str:
    return f"{count / 1e6:.0f} MB"


def room_needed(running_slot: Path) -> int:
    return size_of(running_slot) + MARGIN


def free(where: Path) -> int:
    """Bytes free on the card that holds `where` (one place to ask, so the tests can say)."""
    return shutil.disk_usage(where).free


def shortage(what: str, needed: int, free: int) -> str:
    """The refusal of a card too full for `what` (a release, an update file): named, with the
    figures, so the last line alone says what could not go in and by how much."""
    return (
        f"not enough room on the card for {what}: it needs about {megabytes(needed)}, "
        f"{megabytes(free)} free (nothing was changed)"
    )


def check_room(where: Path, running_slot: Path, release: str) -> str:
    """One line with the figures if there is room for `release`; RoomError with them if not."""
    needed = room_needed(running_slot)
    left = free(where)
    if left < needed:
        raise RoomError(shortage(release, needed, left))
    return f"{release} needs about {megabytes(needed)}; {megabytes(left)} are free"
