"""What a backup and a restore cost: the file's size, the time to make it, to check it and to
restore it, and the process's peak memory.

    .venv/bin/python bench/backup.py [--hands 20000]

Builds a journal with one game of `--hands` hands (`tests.helpers.long_game`), backs it up as
the host's "Back up" does (`scoreboard.backup.make`), then checks the file and restores it onto
a fresh journal as `POST /api/restore` does (`backup.checked`, `backup.restore`). Every step
streams (the journal is copied by SQLite, packed and hashed a megabyte at a time), so the
memory should not grow with the journal. Its peer: a bare copy of the journal's file
(`shutil.copyfile`, what keeping it by hand would cost, unchecked and unpacked).
"""

from __future__ import annotations

import argparse
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoreboard import backup  # noqa: E402
from scoreboard.journal import Journal  # noqa: E402
from tests.helpers.long_game import build  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        build(folder / "old.sqlite3", args.hands)
        built_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        old = Journal(folder / "old.sqlite3")
        started = time.perf_counter()
        made = backup.make(old, folder)
        making = time.perf_counter() - started
        new = Journal(folder / "new" / "journal.sqlite3")
        started = time.perf_counter()
        with backup.checked(made.path, folder / "new") as kept:
            checking = time.perf_counter() - started
            started = time.perf_counter()
            backup.restore(new, kept)
            restoring = time.perf_counter() - started
        assert new.games() == old.games()
        started = time.perf_counter()
        shutil.copyfile(folder / "old.sqlite3", folder / "peer.sqlite3")
        peer = time.perf_counter() - started
        peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        size = (folder / "old.sqlite3").stat().st_size
        print(
            f"{args.hands} hands: journal {size / 1e6:.1f} MB, backup "
            f"{made.path.stat().st_size / 1e6:.2f} MB; made in {making:.2f} s, checked and "
            f"unpacked in {checking:.2f} s, restored in {restoring:.2f} s; peak memory "
            f"{peak_kib / 1024:.0f} MiB ({built_kib / 1024:.0f} MiB after building the journal)"
        )
        print(f"peer: the journal's file copied as it is in {peer:.3f} s")
        old.close()
        new.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
