"""An SD card for the tests and the bench of a start on a full or read-only card: a real tmpfs of
a few MiB (root only), remounted read-only at will or filled to the last block, and a journal
prepared on it by a process of its own (a table game, and a Disney game waiting for the Tinker
Bell button)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

from tests.helpers.service import ROOT


class NoMount(Exception):
    """This machine does not let us mount a tmpfs (not root, or no permission)."""


@contextlib.contextmanager
def mounted(size_mib: int = 4) -> Iterator[Path]:
    """A real tmpfs of `size_mib` MiB: the SD card (unmounted on leaving)."""
    where = Path(f"/tmp/tinker-card-{uuid.uuid4().hex[:8]}")
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size_mib}m", "tmpfs", str(where)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        where.rmdir()
        raise NoMount(f"this machine does not let us mount a tmpfs: {done.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)
        with contextlib.suppress(OSError):
            where.rmdir()


def remount(where: Path, mode: str) -> None:
    """`ro` or `rw`: the card turns read-only, or writable again."""
    subprocess.run(["mount", "-o", f"remount,{mode}", str(where)], check=True)


PREPARE = """
import os, random, signal, sys
from pathlib import Path
from tests.helpers.digital import Table

table = Table(Path(sys.argv[1]))
table.journal.token()  # as the service makes it on its first start
table.table.new_game(["Dee", "Eve"])
table.table.submit({"kind": "hand", "winner": 0, "held": [None, ["R7"]]})
keys = table.digital.new_game(
    ["Ann", "Bob", "Cy"], [0], "greedy", options={"target": 500}, ruleset="disney", seed=7,
    confirm=True,
)
link, rng = table.digital.link, random.Random(3)
while not link.waiting_for_tinker_bell:  # the bots and Ann play until Tinker Bell is asked for
    view = table.digital.view(0, keys[0])
    moves = [m["action"] for m in view["legal"] if not m["out_of_turn"]]
    table.digital.act(0, keys[0], rng.choice(moves))
print(keys[0], flush=True)
if sys.argv[2] == "killed":
    os.kill(os.getpid(), signal.SIGKILL)
table.stop()
"""


def prepare(journal: Path, ending: str) -> str:
    """A table game and a Disney game waiting for Tinker Bell, kept by a process that then
    stops cleanly or is killed with -9 (its WAL left beside the journal); Ann's seat key."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", PREPARE, str(journal), ending],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == (-signal.SIGKILL if ending == "killed" else 0), done.stderr
    return done.stdout.split()[0]


def fill(filler: Path) -> None:
    """Take every block left on the disk (a file at `filler`, written until no byte fits)."""
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        for size in (65536, 4096, 512, 1):
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"\0" * size)
    finally:
        os.close(fd)
