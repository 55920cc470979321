"""The update file a release publishes, fetched for the page's Update from the origin's host.

A release's page carries its update file (the release workflow: the wheels for the trays'
Python and arm64, the compiled engine), so a tray updating from its origin installs and compiles
nothing it can be handed. GitHub, Gitea and Forgejo publish a release's files at the same place,
`REPOSITORY/releases/download/TAG/FILE`, so the address follows from the origin's. The file is
data from outside: bounded in size before a byte is written (its length, the card's room) and in
time while it comes, then believed only as far as its signature and hashes say
(updater/bundle.py). Without it (no such file, no network, a refusal) the update goes on as
before, from the origin and PyPI: slower, never less safe, as the tag itself was verified.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

from updater import room
from updater.bundle import MAX_FILE, BundleError, Handed, unpacked
from updater.releases import Release

READ_TIMEOUT = 30.0
"""Seconds the host may stay silent before the download is given up."""
DEADLINE = 20 * 60.0
"""The whole download at most (an update file is about 30 MB: a minute at 4 Mbit/s)."""
BLOCK = 1 << 16
TOO_LARGE = f"it is more than {MAX_FILE / 1e6:.0f} MB, more than an update file can be"
ORIGIN = re.compile(
    r"(?:(?P<scheme>https?)://(?:[^@/\s]+@)?(?P<host>[^/\s]+)/|ssh://(?:[^@/\s]+@)?"
    r"(?P<ssh_host>[^/:\s]+)(?::\d+)?/|[^@/\s]+@(?P<scp_host>[^:/\s]+):)"
    r"(?P<path>[A-Za-z0-9_.~/-]+?)(?:\.git)?/?"
)


def file_name(tag: str) -> str:
    return f"tinker-tray-{tag}.update"


def address(origin: str, tag: str) -> str | None:
    """Where the origin's host publishes `tag`'s update file (None: the origin is no web
    host, a folder or a bundle)."""
    found = ORIGIN.fullmatch(origin.strip())
    if found is None or not found["path"].strip("/"):
        return None
    scheme = found["scheme"] or "https"
    host = found["host"] or found["ssh_host"] or found["scp_host"]
    return f"{scheme}://{host}/{found['path'].strip('/')}/releases/download/{tag}/{file_name(tag)}"


def fetch(
    url: str,
    into: Path,
    say: Callable[[str], None],
    *,
    clock: Callable[[], float] = time.monotonic,
) -> Path | None:
    """The file at `url`, written into the folder `into` (on the card), or None with a line
    said: not published, not reachable, too large for the card or a tray, too slow."""
    try:
        answer = urllib.request.urlopen(url, timeout=READ_TIMEOUT)
    except urllib.error.HTTPError as exc:
        said = "none is published" if exc.code == 404 else f"the host answered {exc.code}"
        say(f"no update file from {url} ({said}): the set-up fetches what it needs itself")
        return None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        say(f"no update file from {url} ({reason}): the set-up fetches what it needs itself")
        return None
    with answer:
        try:
            return _save(answer, url, into, say, clock)
        except (http.client.HTTPException, OSError) as exc:  # the host went away half-way
            (into / file_name("download")).unlink(missing_ok=True)
            say(f"the update file at {url} did not arrive whole ({exc.__class__.__name__})")
            return None


def _save(
    answer: object, url: str, into: Path, say: Callable[[str], None], clock: Callable[[], float]
) -> Path | None:
    length = _length(getattr(answer, "headers", {}).get("Content-Length"))
    if length is not None and (problem := _too_large(length, into)):
        say(f"the update file at {url} was not taken: {problem}")
        return None
    path = into / file_name("download")
    started, count = clock(), 0
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
    with open(os.open(path, flags, 0o644), "wb") as out:
        while block := answer.read(BLOCK):  # type: ignore[attr-defined]
            count += len(block)
            problem = _beyond(count, length, into)
            if problem is None and clock() - started > DEADLINE:
                problem = f"it took more than {DEADLINE / 60:.0f} minutes"
            if problem:
                out.close()
                path.unlink(missing_ok=True)
                say(f"the update file at {url} was not taken: {problem}")
                return None
            out.write(block)
    if length is not None and count != length:
        path.unlink(missing_ok=True)
        say(f"the update file at {url} was cut short ({count} of {length} bytes)")
        return None
    say(f"downloaded the update file {url} ({count / 1e6:.1f} MB in {clock() - started:.0f} s)")
    return path


def _length(text: str | None) -> int | None:
    try:
        return int(text) if text is not None and int(text) >= 0 else None
    except ValueError:
        return None


def _beyond(count: int, length: int | None, into: Path) -> str | None:
    """Why a download that has brought `count` bytes must stop (its length was checked)."""
    if length is not None:
        return None if count <= length else f"it sent more than the {length} bytes it announced"
    if count > MAX_FILE:
        return TOO_LARGE
    if room.free(into) < room.MARGIN:
        return room.shortage("the update file", count + room.MARGIN, room.free(into) + count)
    return None


def _too_large(size: int, into: Path) -> str | None:
    if size > MAX_FILE:
        return TOO_LARGE
    free = room.free(into)
    if free < size + room.MARGIN:
        return room.shortage("the update file", size + room.MARGIN, free)
    return None


@contextlib.contextmanager
def published(
    home: Path, origin: str, release: Release, say: Callable[[str], None]
) -> Iterator[Handed | None]:
    """What `release`'s published update file hands its set-up (None: nothing, and the set-up
    fetches its wheels and compiles its engine itself), downloaded and unpacked beside `home`'s
    slots, removed afterwards."""
    with contextlib.ExitStack() as stack:
        yield _take(stack, home, origin, release, say)


def _take(
    stack: contextlib.ExitStack,
    home: Path,
    origin: str,
    release: Release,
    say: Callable[[str], None],
) -> Handed | None:
    url = address(origin, release.tag)
    if url is None:
        return None
    (home / ".releases").mkdir(exist_ok=True)
    folder = Path(
        stack.enter_context(tempfile.TemporaryDirectory(prefix="incoming-", dir=home / ".releases"))
    )
    file = fetch(url, folder, say)
    if file is None:
        return None
    try:
        _, given = stack.enter_context(unpacked(file, home, say, file_name(release.tag)))
    except BundleError as exc:
        say(
            f"the published update file was refused: {exc}: the set-up fetches what it needs itself"
        )
        return None
    finally:
        file.unlink(missing_ok=True)  # unpacked (or refused): its room is the slot's now
    if (given.tag, given.commit) != (release.tag, release.commit):
        say(
            f"the published {file_name(release.tag)} holds {given.tag} ({given.commit[:12]}), "
            f"not {release.describe()}: the set-up fetches what it needs itself"
        )
        return None
    return given
