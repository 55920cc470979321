"""Backup and restore on the host's page (`scoreboard.backup` makes and checks the file):

    GET  /api/backup     the whole journal as one file (host): tinker-tray-backup-DATE.ttb
    POST /api/restore    the file as the body (host): the journal becomes the backup's
                         (?replace=1: over a journal that holds games; else 409, asking first)

Only the host (the table's token) may do either: a backup holds the token itself. After a
restore the table is taken up from the restored journal as at a start (the scoreboard, digital
play), the table's token is the backup's, so phones paired with the old card are host here
too, and the phone that restored is given it.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import State
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from scoreboard import auth, backup
from scoreboard.auth import needs
from scoreboard.bodies import BadRequest
from scoreboard.journal import Journal
from scoreboard.session import TableSession

REPLACE = "1"
"""`?replace=1`: the host has confirmed that the journal's games are to be replaced."""


@needs("host")
async def make_backup(request: Request) -> Response:
    journal: Journal = request.state.journal
    try:
        made = await run_in_threadpool(backup.make, journal, journal.path.parent)
    except (OSError, sqlite3.Error) as exc:
        raise BadRequest(f"the backup could not be made: {_reason(exc)}", 503) from None
    return FileResponse(
        made.path,
        media_type="application/octet-stream",
        filename=made.name,
        headers={"Cache-Control": "no-store"},
        background=BackgroundTask(made.path.unlink, missing_ok=True),
    )


@needs("host")
async def restore(request: Request) -> Response:
    replace = request.query_params.get("replace", "")
    if replace not in ("", REPLACE):
        raise BadRequest(f"replace is {REPLACE} (to replace the games here) or left out", 400)
    journal: Journal = request.state.journal
    upload = await _received(request, journal.path.parent)
    try:
        answer = await run_in_threadpool(_restore, request.state, upload, replace == REPLACE)
    finally:
        upload.unlink(missing_ok=True)
    response = JSONResponse(answer)
    token = request.state.table_key.value
    response.set_cookie(auth.TOKEN_COOKIE, token, **auth.cookie_options())
    return response


def _restore(shared: State, upload: Path, replace: bool) -> dict[str, Any]:
    """Check the file through, then restore it with every write of the table held back.
    `shared`: the request's view of the app's state (the journal, the table, the table key)."""
    journal: Journal = shared.journal
    session: TableSession = shared.table
    try:
        with backup.checked(upload, journal.path.parent) as kept:
            replaced = session.replace_journal(
                lambda: backup.restore(journal, kept, replace=replace)
            )
    except backup.BackupRefused as exc:
        raise BadRequest(f"{exc}. Nothing was changed.", 422) from None
    except (OSError, sqlite3.OperationalError) as exc:
        raise BadRequest(f"the backup could not be checked: {_reason(exc)}", 503) from None
    shared.table_key.value = journal.token()  # the backup's: phones paired with it are host here
    for journal_replaced in shared.on_restore:
        journal_replaced()
    return {"restored": kept.games, "made": kept.made, "replaced": replaced}


async def _received(request: Request, folder: Path) -> Path:
    """The body, written to a scratch file on the journal's card as it comes (at most
    `backup.MAX_BYTES`: a larger one is refused without reading it all)."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > backup.MAX_BYTES:
        raise BadRequest(_too_large(), 413)
    try:
        handle, name = tempfile.mkstemp(prefix=backup.SCRATCH, suffix=".upload", dir=folder)
    except OSError as exc:
        raise BadRequest(f"the backup could not be received: {_reason(exc)}", 503) from None
    path, size = Path(name), 0
    try:
        with os.fdopen(handle, "wb") as out:
            async for chunk in request.stream():
                size += len(chunk)
                if size > backup.MAX_BYTES:
                    raise BadRequest(_too_large(), 413)
                await run_in_threadpool(out.write, chunk)
    except OSError as exc:
        path.unlink(missing_ok=True)
        raise BadRequest(f"the backup could not be received: {_reason(exc)}", 503) from None
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    if size == 0:
        path.unlink(missing_ok=True)
        raise BadRequest("send the backup file (.ttb) as the request's body", 400)
    return path


def _too_large() -> str:
    return f"the file is over {backup.MAX_BYTES // 2**20} MB: it is not a tinker-tray backup"


def _reason(exc: OSError | sqlite3.Error) -> str:
    """What stopped it, in words: the card is full, or what the system said."""
    said = (exc.strerror if isinstance(exc, OSError) else None) or str(exc)
    if (isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)) or "full" in said:
        return "the card is full; free some space. Nothing was changed"
    return f"{said.lower()}. Nothing was changed"


def lifespan_state(token: str, extensions: Iterable[Any], journal: Journal) -> dict[str, Any]:
    """The app's state for a restore: the table's token, held so a restore can change it for
    every request (`auth.TableKey`), and what each extension does once the journal is
    replaced (its `journal_replaced`, if it has one). The scratch files of a backup or restore
    that a power cut stopped are removed now, as the app starts."""
    backup.sweep(journal.path.parent)
    hooks: list[Callable[[], None]] = [
        s.journal_replaced for s in extensions if hasattr(s, "journal_replaced")
    ]
    return {"table_key": auth.TableKey(token), "on_restore": hooks}


routes = [
    Route("/api/backup", make_backup),
    Route("/api/restore", restore, methods=["POST"]),
]
