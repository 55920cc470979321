"""`tinker-tray update`: install the newest signed release beside the running one (docs/release.md).

`./tinker update` and the image's `sudo tinker-tray update` run this from the slot that runs, with
TINKER_TRAY_HOME naming the checkout whose slots it manages. `--file F` installs from an update
file instead of the origin (a tray with no network to it); `--check` only says what is there;
`--requests STATE` carries out what the host's page asked (the root unit
tinker-tray-update.service), and `--card DIR` takes an update file a family copied to the boot
partition. The last line names the release tried and the one that runs; the exit status is 0
only when what runs is the newest release that could be trusted.
"""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from updater.progress import Progress

CHECKOUT = Path(__file__).resolve().parents[2]


def home() -> Path:
    named = os.environ.get("TINKER_TRAY_HOME")
    return Path(named) if named else CHECKOUT


def add_arguments(parser: argparse.ArgumentParser) -> None:
    what = parser.add_mutually_exclusive_group()
    what.add_argument(
        "--file", type=Path, metavar="FILE", help="install an update file (tinker-tray-*.update)"
    )
    what.add_argument(
        "--check", action="store_true", help="only say whether a newer signed release exists"
    )
    what.add_argument(
        "--requests",
        type=Path,
        metavar="STATE",
        help="carry out what the host's page asked (STATE: the service's state folder)",
    )
    what.add_argument(
        "--card",
        type=Path,
        metavar="DIR",
        help="install an update file tinker-tray*.update found in DIR (the boot partition)",
    )
    parser.add_argument(
        "--status",
        type=Path,
        metavar="FILE",
        help="also keep the progress in FILE as JSON (the host's page reads it)",
    )


def run(args: argparse.Namespace) -> int:
    from updater.bundle import BundleError
    from updater.progress import Progress
    from updater.releases import ReleaseError
    from updater.requests import RequestError
    from updater.room import RoomError
    from updater.update import UpdateError

    progress = Progress(args.status)
    try:
        return _run(args, progress)
    except (UpdateError, ReleaseError, RoomError, BundleError, RequestError) as exc:
        progress.finish(f"tinker-tray update: {exc}", ok=False)
        return 1


def _run(args: argparse.Namespace, progress: Progress) -> int:
    from updater.requests import open_upload, take

    if args.check:
        return _check(progress)
    if args.card is not None:
        found = sorted(args.card.glob("tinker-tray*.update"))
        if not found:
            return 0
        status = 1
        try:  # taken once: renamed whatever came of it, so the next boot does not try again
            status = _install(progress, found[0])
        finally:
            taken = found[0].name + (".done" if status == 0 else ".refused")
            found[0].rename(found[0].with_name(taken))
        return status
    if args.requests is not None:
        action = take(args.requests, taking=progress.begin)
        if action is None:
            return 0
        if action == "check":
            return _check(progress)
        if action == "install-file":
            with _uploaded(open_upload(args.requests)) as file:
                return _install(progress, file, name="the uploaded update file")
        return _install(progress, None)
    return _install(progress, args.file)


def _check(progress: Progress) -> int:
    from updater.update import check

    progress.action = "check"
    release, running = check(home(), progress.say)
    progress.extra = {"running": running, "available": release.tag if release else None}
    line = (
        f"tinker-tray update: {release.describe()} can be installed (running {running})."
        if release
        else f"tinker-tray update: nothing newer than {running}."
    )
    progress.finish(line, ok=True)
    return 0


def _install(progress: Progress, file: Path | None, name: str | None = None) -> int:
    from updater.bundle import unpacked
    from updater.update import update

    say = progress.say
    if file is not None:
        with unpacked(file, home(), say, name) as (bundle, parts):
            given = lambda release: contextlib.nullcontext(parts)  # noqa: E731
            outcome = update(home(), say, source=str(bundle), handed=given)
    else:
        outcome = update(home(), say)
    for sentence in outcome.said:
        say(sentence)
    progress.extra = {"running": outcome.running, "available": None}
    progress.finish(outcome.last_line(), ok=outcome.ok)
    return 0 if outcome.ok else 1


@contextlib.contextmanager
def _uploaded(fd: int) -> Iterator[Path]:
    """An uploaded file, opened without following links, read through its descriptor (the
    file as opened, whatever the page's folder holds by then), not copied: the card's room
    is for the release."""
    try:
        yield Path(f"/proc/self/fd/{fd}")
    finally:
        os.close(fd)
