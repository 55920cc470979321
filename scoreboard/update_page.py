"""The host's page updates the tray: the version that runs, a check, an install, an update file.

The service may not install anything itself on the image: it runs as its own user on a read-only
system, and installing is root's. So there the page only leaves a request in the service's state
folder (`updater.requests.ask`) and a root unit carries it out (tinker-tray-update.path starts
tinker-tray-update.service, `tinker-tray update --requests STATE --status FILE`), keeping its
progress in a JSON file the page reads. The unit is known by its path file being installed.

In a checkout with no such unit (a laptop's `./tinker run`), the service runs the same command
itself, one child process at a time, as the checkout's own user; it cannot restart itself, so a
release it installed runs from the next start, and the page says so.

    GET  /api/update          the version that runs, how updates run here, the last progress
    POST /api/update/check    ask whether the origin has a newer signed release
    POST /api/update/install  install it
    POST /api/update/file     the body is an update file (at most 512 MB): kept, then installed

All four are the host's. A request while an update runs is a 409 with a sentence.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import threading
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from scoreboard import bodies
from scoreboard.auth import needs
from updater import requests
from updater.releases import SYSTEM_SIGNERS
from updater.room import MARGIN, megabytes
from updater.version import TREE, running_version

ROOT_UNIT = Path("/etc/systemd/system/tinker-tray-update.path")
"""Installed on the image: then root carries out the page's requests."""
STALE_S = 30 * 60.0
"""A root update whose progress has not moved for this long is taken as ended (killed by a
power cut): its longest silence is a set-up on a Pi (minutes) or a trial start (2 minutes)."""
SILENT_S = 5 * 60.0
"""A root run that has said nothing at all for this long is taken as ended too (one killed
between taking the page's request and its first line): a real one says its first line within
seconds (a 512 MB upload copied: a minute). A request nobody took for this long was not going
to be: the root unit did not run (its path unit gave up, after failed starts)."""
NOT_TAKEN = (
    "nothing started it in five minutes (the tray's update unit did not run); "
    "restarting the tray carries it out"
)
SHOWN_LINES = 12
STALL_S = 60.0
"""An upload that sends nothing for this long is dropped (a phone that left the Wi-Fi half-way):
its connection would otherwise hold the one update slot until the kernel gave up on it."""
TAR_MAGIC = (257, b"ustar")
"""Where every tar file (an update file is one) says so: a photo sent by mistake is refused
before 512 MB of it are written to the card."""
HEADERS = {"Cache-Control": "no-store"}
MAX_FILE = 512 * 1024 * 1024
"""The largest update file, as `updater.bundle.MAX_FILE` reads it (a test keeps them equal):
not imported from there, which would bring tarfile and hashlib into every start of the tray."""


class Updates:
    """How this service updates its tray, and the update under way (one at a time).

    `state`: the service's state folder (the journal's); `home`: the checkout whose `tinker`
    runs an update in checkout mode; `unit`: the root unit's path file, whose presence means
    root carries out requests; `root_status`: where root keeps the progress; `tree`: the code
    that runs (its version is shown); `free`: bytes free on the card under a folder;
    `stall_s`: how long an upload may send nothing before it is dropped; `signers`: the
    allowed-signers file an update checks releases against (None: not looked at), whose
    absence the page says in one sentence instead of offering what would fail."""

    def __init__(
        self,
        state: Path,
        *,
        home: Path = TREE,
        unit: Path = ROOT_UNIT,
        root_status: Path = requests.STATUS,
        tree: Path = TREE,
        free: Callable[[Path], int] = lambda where: shutil.disk_usage(where).free,
        stall_s: float = STALL_S,
        signers: Path | None = None,
    ) -> None:
        self.state, self.home, self.unit = state, home, unit
        self.root_status, self.tree, self.free = root_status, tree, free
        self.stall_s, self.signers = stall_s, signers
        self._version: str | None = None
        self._child: subprocess.Popen[bytes] | None = None
        self._receiving = False
        self._lock = threading.RLock()
        """Held while an update is begun and while the page's report is read, so a report
        never sees the moment between a last update and the next (a file gone, no child yet)."""

    @classmethod
    def for_journal(cls, journal: Path) -> Updates:
        """The service's own: its state folder is the journal's; TINKER_TRAY_HOME names the
        checkout (as `./tinker` sets it); TINKER_TRAY_UPDATE_UNIT and TINKER_TRAY_UPDATE_STATUS
        stand in for the root unit's files (tests, a development machine);
        TINKER_TRAY_ALLOWED_SIGNERS names the keys an update trusts, as for `tinker update`."""
        env = os.environ
        return cls(
            journal.parent,
            home=Path(env.get("TINKER_TRAY_HOME") or TREE),
            unit=Path(env.get("TINKER_TRAY_UPDATE_UNIT") or ROOT_UNIT),
            root_status=Path(env.get("TINKER_TRAY_UPDATE_STATUS") or requests.STATUS),
            signers=Path(env.get("TINKER_TRAY_ALLOWED_SIGNERS") or SYSTEM_SIGNERS),
        )

    # ------------------------------------------------------------------ reading
    @property
    def by_root(self) -> bool:
        return self.unit.exists()

    @property
    def folder(self) -> Path:
        return requests.folder(self.state)

    @property
    def status_file(self) -> Path:
        return self.root_status if self.by_root else self.folder / "status.json"

    def version(self) -> str | None:
        """The release that runs: found once (the code of a running service does not change)."""
        if self._version is None:
            self._version = running_version(self.tree)
        return self._version

    def status(self) -> dict[str, Any] | None:
        """The last update's progress. In checkout mode, one whose child ended (or whose
        service stopped) while its file still says "running" is said failed, with its last
        words: the page must not wait for an update nobody runs. With the root unit, so is a
        request it never took."""
        status = requests.read_status(self.status_file)
        if self.by_root:
            waited = self._request_waited()
            if waited is not None and waited >= SILENT_S:
                return {"state": "failed", "lines": [], "last": NOT_TAKEN}
            return _ended_if_quiet(status)
        if self._running_here():
            return status
        if status is not None and status.get("state") != "running":
            return status
        if status is None and self._child is None:
            return None
        ended = "the update ended before it finished"
        if self._child is not None:
            ended += f" (exit status {self._child.returncode})"
        return {**(status or {}), "state": "failed", "last": f"{ended}: {self._last_words()}"}

    def _running_here(self) -> bool:
        return self._child is not None and self._child.poll() is None

    def _last_words(self) -> str:
        try:
            said = (self.folder / "update.log").read_bytes()[-2000:]
        except OSError:
            return "it said nothing"
        lines = said.decode(errors="replace").strip().splitlines()
        return lines[-1][:300] if lines else "it said nothing"

    def busy(self) -> bool:
        if self._receiving:
            return True
        if not self.by_root:
            return self._running_here()
        waited = self._request_waited()
        if waited is not None and waited < SILENT_S:
            return True
        status = requests.read_status(self.status_file) or {}
        return status.get("state") == "running" and not _quiet(status)

    def _request_waited(self) -> float | None:
        """Seconds the page's request has waited for root, if there is one. A clock set back
        since reads as just asked, never as given up on."""
        try:
            asked = (self.folder / "request").lstat().st_mtime
        except OSError:
            return None
        return max(0.0, time.time() - asked)

    def how(self) -> str | None:
        """Why this page cannot update this tray, in a family's words (None: it can): with no
        allowed-signers file no release can be trusted, so a check would end in a refusal."""
        if self.signers is None or self.signers.is_file():
            return None
        if self.by_root:
            return (
                "This card was made without the maintainers' key, so it cannot check that a "
                "release is theirs: it is updated by flashing a newer card."
            )
        return (
            "This tray runs from a copy of the project's code: it is updated with git pull "
            "where that copy is, not from this page (docs/release.md says how to update it "
            "from here)."
        )

    def report(self) -> dict[str, Any]:
        with self._lock:
            status = self.status()
            busy = self.busy()
            ended = (status or {}).get("state") in ("done", "failed")
            if not busy and ended and self._request_waited() is None:
                # the update it was sent for has ended (root copied it first): 512 MB back
                (self.folder / requests.UPLOAD).unlink(missing_ok=True)
        if status is not None:
            status = {
                "state": status.get("state"),
                "lines": [str(line)[:300] for line in _list(status.get("lines"))][-SHOWN_LINES:],
                "last": status.get("last"),
                "running": status.get("running"),
                "available": status.get("available"),
                "action": status.get("action"),
                "at": status.get("at"),
            }
        version = self.version()
        return {
            "version": version,
            "mode": "root" if self.by_root else "checkout",
            "busy": busy,
            "status": status,
            "installed": installed_not_running(status, version),
            "max_upload": MAX_FILE,
            "how": self.how(),
        }

    # ------------------------------------------------------------------ asking
    def start(self, action: str) -> None:
        """Ask for `action` ("check", "install", "install-file"): a request for root, or the
        update run here as a child. HTTPException 409 while one runs, 503 if it cannot start."""
        with self._lock:
            if self.busy():
                raise HTTPException(409, BUSY)
            self._begin(action)

    def _begin(self, action: str) -> None:
        if self.by_root:
            try:
                requests.ask(self.state, action)
            except OSError as exc:
                raise HTTPException(503, f"the request could not be left: {_why(exc)}") from None
            return
        self._spawn(action)

    def _spawn(self, action: str) -> None:
        arguments = {
            "check": ["--check"],
            "install": [],
            "install-file": ["--file", str(self.folder / requests.UPLOAD)],
        }[action]
        status = ["--status", str(self.status_file)]
        command = [str(self.home / "tinker"), "update", *arguments, *status]
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.status_file.unlink(missing_ok=True)  # what the page shows is this run's
            with open(self.folder / "update.log", "wb") as log:
                self._child = subprocess.Popen(
                    command,
                    cwd=self.home,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
        except OSError as exc:
            raise HTTPException(503, f"the update could not start: {_why(exc)}") from None

    # ------------------------------------------------------------------ an update file
    async def receive(self, request: Request) -> None:
        """The request's body, streamed to the card as the uploaded update file, then installed.
        Refused before a byte is written when too large or the card lacks the room."""
        length = _length(request)
        with self._lock:
            if self.busy():
                raise HTTPException(409, BUSY)
            self._receiving = True
        kept = False
        try:
            await run_in_threadpool(self._make_room_for, length)
            part = self.folder / ".upload.part"
            try:
                await self._write(request, part, length)
                os.replace(part, self.folder / requests.UPLOAD)
                kept = True
            finally:
                part.unlink(missing_ok=True)
        except OSError as exc:
            raise HTTPException(413, f"the update file could not be kept: {_why(exc)}") from None
        finally:
            with self._lock:
                try:
                    if kept:
                        self._begin("install-file")
                finally:
                    self._receiving = False

    def _make_room_for(self, length: int) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / requests.UPLOAD).unlink(missing_ok=True)  # a last update's file
        free = self.free(self.folder)
        if free < length + MARGIN:
            raise HTTPException(
                413,
                f"not enough room on the card for this update file: it needs about "
                f"{megabytes(length + MARGIN)} and {megabytes(free)} are free",
            )

    async def _write(self, request: Request, part: Path, length: int) -> None:
        written = 0
        head = b""
        with open(part, "wb") as out:
            try:
                async for chunk in _bounded(request, self.stall_s):
                    written += len(chunk)
                    if written > length:
                        raise HTTPException(400, f"the body is longer than its {length} bytes")
                    if len(head) <= TAR_MAGIC[0] + len(TAR_MAGIC[1]):
                        head += chunk[:600]
                        _looks_like_an_update_file(head, length)
                    await run_in_threadpool(out.write, chunk)
            except ClientDisconnect:
                raise HTTPException(400, "the upload was cut short: nothing was kept") from None
            if written != length:
                raise HTTPException(
                    400, f"the upload ended after {written} of {length} bytes: nothing was kept"
                )
            await run_in_threadpool(_flushed, out)


def _quiet(status: dict[str, Any]) -> bool:
    """Whether a root run's progress has not moved for longer than a run stays silent."""
    at = status.get("at")
    quiet_for = time.time() - at if isinstance(at, (int, float)) else float("inf")
    return quiet_for >= (STALE_S if _list(status.get("lines")) else SILENT_S)


def _ended_if_quiet(status: dict[str, Any] | None) -> dict[str, Any] | None:
    """A root run's progress as the page shows it: one that went quiet while "running" ended
    without saying how (nothing to show, if it never said anything)."""
    if status is None or status.get("state") != "running" or not _quiet(status):
        return status
    if not _list(status.get("lines")):
        return None
    last = "the update stopped without saying how it ended (a power cut?); its last line is below"
    return {**status, "state": "failed", "last": last}


def installed_not_running(status: dict[str, Any] | None, version: str | None) -> str | None:
    """The release an update installed that this service does not run yet (it runs from the
    next start), else None. By tag: a checkout at a tag names itself without the commit. A check
    installs nothing: its `running` is what ran when it looked."""
    if status is None or status.get("state") != "done" or status.get("action") == "check":
        return None
    installed = status.get("running")
    if not isinstance(installed, str) or not installed.startswith("v"):
        return None  # a check, or an install that found nothing newer, in a checkout
    if version is not None and version.split()[0] == installed.split()[0]:
        return None
    return installed


BUSY = "an update is already running: wait for it to end (its progress is on this page)"


def _length(request: Request) -> int:
    raw = request.headers.get("content-length")
    if raw is None:
        raise HTTPException(411, "send the update file with its length (Content-Length)")
    if not raw.isdigit() or len(raw) > 15:
        raise HTTPException(400, f"the length {raw[:20]!r} is not a number of bytes")
    length = int(raw)
    if length == 0:
        raise HTTPException(400, "the body is empty: send the update file (tinker-tray-*.update)")
    if length > MAX_FILE:
        raise HTTPException(
            413,
            f"an update file is at most {MAX_FILE >> 20} MB; this one is {-(-length >> 20)} MB",
        )
    return length


def _looks_like_an_update_file(head: bytes, length: int) -> None:
    at, magic = TAR_MAGIC
    enough = len(head) >= at + len(magic) or len(head) >= length
    if enough and head[at : at + len(magic)] != magic:
        raise HTTPException(
            415, "this is not an update file (a tinker-tray-*.update a maintainer published)"
        )


async def _bounded(request: Request, stall_s: float) -> AsyncIterator[bytes]:
    """The body's chunks, each within `stall_s` of the last."""
    chunks = request.stream().__aiter__()
    while True:
        try:
            chunk = await asyncio.wait_for(chunks.__anext__(), stall_s)
        except StopAsyncIteration:
            return
        except TimeoutError:
            raise HTTPException(
                408, f"the upload sent nothing for {stall_s:.0f} s: nothing was kept"
            ) from None
        yield chunk


def _flushed(out: Any) -> None:
    out.flush()
    os.fsync(out.fileno())


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


# ---------------------------------------------------------------------- routes
def _updates(request: Request) -> Updates:
    """The app's one `Updates` (it knows the update under way): the service's own, made on the
    first ask, beside the journal; or the one set as `app.state.updates` (tests). Called on the
    event loop only, so two first asks cannot make two."""
    state = request.app.state
    if getattr(state, "updates", None) is None:
        state.updates = Updates.for_journal(request.state.journal.path)
    updates: Updates = state.updates
    return updates


@needs("host")
async def update_state(request: Request) -> Response:
    report = await run_in_threadpool(_updates(request).report)
    return JSONResponse(report, headers=HEADERS)


@needs("host")
async def update_check(request: Request) -> Response:
    await bodies.read(request, EMPTY)
    await run_in_threadpool(_updates(request).start, "check")
    return JSONResponse({"asked": "check"}, status_code=202)


@needs("host")
async def update_install(request: Request) -> Response:
    await bodies.read(request, EMPTY)
    await run_in_threadpool(_updates(request).start, "install")
    return JSONResponse({"asked": "install"}, status_code=202)


@needs("host")
async def update_file(request: Request) -> Response:
    await _updates(request).receive(request)
    return JSONResponse({"asked": "install-file"}, status_code=202)


EMPTY = bodies.Body("this request", ())

routes = [
    Route("/api/update", update_state),
    Route("/api/update/check", update_check, methods=["POST"]),
    Route("/api/update/install", update_install, methods=["POST"]),
    Route("/api/update/file", update_file, methods=["POST"]),
]
