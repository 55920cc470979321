"""What a backup and a restore cost: the file's size, the time to make it, to check it and to
restore it, and the process's peak memory.

    .venv/bin/python -m bench.backup [--hands 20000]

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

from bench.harness import heading, ratio, rows
from scoreboard import backup
from scoreboard.journal import Journal
from tests.helpers.long_game import build


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
        heading(f"{args.hands} hands: a journal of {size / 1e6:.1f} MB")
        rows(
            [
                ("the journal's file copied as it is (the peer)", f"{peer:.3f} s"),
                ("backup made", f"{making:.2f} s ({ratio(making, peer)} the peer)"),
                ("its size", f"{made.path.stat().st_size / 1e6:.2f} MB"),
                ("checked and unpacked", f"{checking:.2f} s"),
                ("restored", f"{restoring:.2f} s"),
                ("peak memory", f"{peak_kib / 1024:.0f} MiB"),
                ("... after building the journal", f"{built_kib / 1024:.0f} MiB"),
            ]
        )
        old.close()
        new.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
