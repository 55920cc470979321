"""The size a version 3 journal leaves on the card after the upgrade to version 4: the upgrade
alone (the old UNO Elite tables copied into the common ones, then dropped) beside the upgrade
that gives their space back (`scoreboard.journal._give_back_freed_pages`, VACUUM), and the time
each start took.

    .venv/bin/python -m bench.journal_upgrade [--megabytes 55]

The journal is the test fixture (tests/scoreboard/journals/main-14f5ae9.sqlite3, written by a
release that kept UNO Elite apart) with its first Elite game copied until the file is about
`--megabytes` MB, as a long season of play would leave it. Sizes are the file and its WAL.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from bench.harness import heading, ratio, row
from scoreboard import journal as J
from tests.helpers.old_journal import FIXTURE, grown, on_disk


def upgraded(source: Path, folder: Path, give_back: bool) -> tuple[int, float]:
    """(bytes on disk, seconds) of one start that upgrades a copy of `source`."""
    path = folder / f"journal-{give_back}.sqlite3"
    shutil.copyfile(source, path)
    kept = J._give_back_freed_pages
    if not give_back:
        J._give_back_freed_pages = lambda db, path: None  # the upgrade as it was before
    try:
        started = time.perf_counter()
        J.Journal(path).close()
        took = time.perf_counter() - started
    finally:
        J._give_back_freed_pages = kept
    return on_disk(path), took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=float, default=55)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "v3.sqlite3"
        shutil.copyfile(FIXTURE, source)
        per_copy = (grown(source, 10) - FIXTURE.stat().st_size) / 10
        before = grown(source, max(0, int((args.megabytes * 1e6 - on_disk(source)) / per_copy)))
        alone, alone_s = upgraded(source, Path(folder), give_back=False)
        back, back_s = upgraded(source, Path(folder), give_back=True)
    heading(f"a version 3 journal of {before / 1e6:.1f} MB, upgraded to version 4 on start:")
    row(
        "the upgrade alone (the peer)",
        f"{alone / 1e6:.1f} MB ({ratio(alone, before)}), {alone_s:.2f} s",
    )
    row(
        "with the space given back",
        f"{back / 1e6:.1f} MB ({ratio(back, before)}), {back_s:.2f} s;"
        f" {ratio(back, alone)} the peer's size, {ratio(back_s, alone_s)} its time",
    )


if __name__ == "__main__":
    main()
