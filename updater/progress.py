"""What an update says: lines on stderr, and for the host's page the same as a JSON file.

The page cannot watch a process it did not start (the update runs as root, from its own unit),
so the update keeps its progress in a small file the page reads: written whole by a rename, so a
reader never sees half of it, and bounded (the last lines only).
"""

from __future__ import annotations

import contextlib
import sys
import time
from pathlib import Path

from updater.slots import write_json

KEPT_LINES = 30


class Progress:
    """Nothing is written until there is something to say: a run that finds nothing asked (the
    root unit started with no request, a boot with no update file) leaves the last status as it
    was, never at "running"."""

    def __init__(self, status: Path | None) -> None:
        self.status = status
        self.lines: list[str] = []
        self.extra: dict[str, object] = {}
        """What the page shows beside the lines: the release that runs, the one available."""
        self.action = "install"
        """What was asked ("check" or "install"): the page says "the check stopped" of a check."""

    def begin(self) -> None:
        """Running, with nothing said yet: written when a run has something asked of it, before
        its first line (the host's page watches a run from its request to its last line)."""
        self._write("running", None)

    def say(self, line: str) -> None:
        print(f"tinker-tray update: {line}" if not line.startswith("tinker-tray") else line,
              file=sys.stderr, flush=True)  # fmt: skip
        self.lines = [*self.lines, line][-KEPT_LINES:]
        self._write("running", None)

    def finish(self, last_line: str, *, ok: bool) -> None:
        print(last_line, file=sys.stderr, flush=True)
        self.lines = [*self.lines, last_line][-KEPT_LINES:]
        self._write("done" if ok else "failed", last_line)

    def _write(self, state: str, last: str | None) -> None:
        if self.status is None:
            return
        with contextlib.suppress(OSError):  # the page's view is not worth failing an update
            write_json(
                self.status,
                {
                    "state": state,
                    "lines": self.lines,
                    "last": last,
                    "at": time.time(),
                    "action": self.action,
                    **self.extra,
                },
            )
