"""`tinker-tray update`: install the newest signed release beside the running one (docs/release.md).

`./tinker update` and the image's `sudo tinker-tray update` run this from the slot that runs, with
TINKER_TRAY_HOME naming the checkout whose slots it manages. `--file F` installs from an update
file instead of the origin (a tray with no network to it); `--check` only says what is there.
The last line names the release tried and the one that runs; the exit status is 0 only when what
runs is the newest release that could be trusted.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]


def home() -> Path:
    named = os.environ.get("TINKER_TRAY_HOME")
    return Path(named) if named else CHECKOUT


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--file", type=Path, metavar="FILE", help="an update file (tinker-tray-*.update) to install"
    )
    parser.add_argument(
        "--status",
        type=Path,
        metavar="FILE",
        help="also keep the progress in FILE as JSON (the host's page reads it)",
    )


def run(args: argparse.Namespace) -> int:
    from updater.bundle import BundleError, unpacked
    from updater.progress import Progress
    from updater.releases import ReleaseError
    from updater.room import RoomError
    from updater.update import UpdateError, update

    progress = Progress(args.status)
    outcome = None
    try:
        if args.file is not None:
            with unpacked(args.file, home(), progress.say) as (bundle, setup_env):
                outcome = update(home(), progress.say, source=str(bundle), setup_env=setup_env)
        else:
            outcome = update(home(), progress.say)
    except (UpdateError, ReleaseError, RoomError, BundleError) as exc:
        progress.finish(f"tinker-tray update: {exc}", ok=False)
        return 1
    for sentence in outcome.said:
        progress.say(sentence)
    progress.finish(outcome.last_line(), ok=outcome.ok)
    return 0 if outcome.ok else 1
