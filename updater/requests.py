"""How the host's page asks for an update it may not run itself, and reads how it goes.

The tray's service runs as its own user on a read-only system (the unit's ProtectSystem=strict);
installing a release is root's. So the page only leaves a request in the service's own state
folder, and a root unit (tinker-tray-update.path starts tinker-tray-update.service) carries it
out and keeps its progress where the page can read it and nobody but root can write:

    STATE/update/request        {"action": "check" | "install" | "install-file"}   (the page's)
    STATE/update/upload.update  an update file uploaded on the page                (the page's)
    RUN/status.json             the update's progress (updater.progress)           (root's)

Root reads the page's files as data only, never following a link, and bounds them.
In a checkout with no such unit (a laptop), the service runs the update itself as a child
process (`in_process`), as the checkout's own user.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path

ACTIONS = ("check", "install", "install-file")
UPLOAD = "upload.update"
STATUS = Path("/run/tinker-tray-update/status.json")
"""Where the root unit keeps the progress (its RuntimeDirectory, kept between runs)."""
MAX_REQUEST = 4096


class RequestError(Exception):
    """A request that cannot be taken, in one sentence."""


def folder(state: Path) -> Path:
    return state / "update"


def ask(state: Path, action: str) -> None:
    """Leave a request for the root unit (written whole: a temporary file renamed)."""
    if action not in ACTIONS:
        raise RequestError(f"no such update action: {action!r}")
    where = folder(state)
    where.mkdir(parents=True, exist_ok=True)
    temporary = where / ".request.new"
    temporary.write_text(json.dumps({"action": action}))
    os.replace(temporary, where / "request")


def take(state: Path, taking: Callable[[], None] = lambda: None) -> str | None:
    """The waiting request's action (removed as it is taken), or None. Read as root from a
    folder the service's user writes: no link is followed, the size is bounded.

    `taking` runs once a request is there and before it goes, whatever it holds: the page
    that asked watches while it sees the request or a run's progress, so the progress must
    begin before the request ends, or a page that looks in between stops watching."""
    path = folder(state) / "request"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        taking()
        path.unlink(missing_ok=True)
        raise RequestError(f"the page's request could not be read: {exc.strerror}") from None
    taking()
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise RequestError("the page's request is not a plain file")
        data = os.read(fd, MAX_REQUEST + 1)
    finally:
        os.close(fd)
        path.unlink(missing_ok=True)
    try:
        action = json.loads(data)["action"]
    except (ValueError, KeyError, TypeError):
        raise RequestError("the page's request is not one the update reads") from None
    if action not in ACTIONS or len(data) > MAX_REQUEST:
        raise RequestError(
            f"the page's request asks for no such update action: {str(action)[:40]!r}"
        )
    return str(action)


def open_upload(state: Path) -> int:
    """The uploaded update file, opened without following a link (a file descriptor)."""
    path = folder(state) / UPLOAD
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        raise RequestError(f"no uploaded update file ({exc.strerror})") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise RequestError("the uploaded update file is not a plain file")
    return fd


def read_status(path: Path = STATUS) -> dict[str, object] | None:
    """The last update's progress, if any (for the page)."""
    try:
        with open(path, "rb") as status:
            data = json.loads(status.read(256 * 1024))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
