"""What the rulesets cost the service's start: the modules of a ruleset imported, the import time,
the time to the page's first answer and the peak memory of `tinker-tray run`, beside the same of
an earlier revision in the same run (issue 49: the registry's first lookup imported 38 modules
of the rulesets, which a Zero 2 W paid at every start).

    .venv/bin/python -m bench.start_imports [--against REV] [--rounds 5]

Two things are measured for each side, in turns (`harness.interleaved`):

1. `registry.names()` in a fresh Python: the modules of engine/disney and engine/elite it
   imports, and the sum of their import times (`-X importtime`, the modules' own time).
2. `tinker-tray run --seconds 6` (what `./tinker run` execs; on this machine, with no pins, the
   emulator) on a new journal, the page on 127.0.0.1: the seconds from the process's start to
   the page's first 200, its peak resident memory (VmHWM) then, and the ruleset modules it
   imported by then (`-X importtime`, read from its standard error).

The earlier revision is a `git worktree` of REV (default: the commit before issue 49's work),
run with this venv's packages. Both sides run the pure engine (TINKER_TRAY_PURE=1: a worktree
has no compiled build), so the import times are the pure modules' (a Pi's compiled engine loads
its extension modules instead; the module counts are the same).
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from bench.harness import ROOT, heading, interleaved, row, timings, versus

BEFORE = "f5c8cfb"
"""The main this issue's work began on."""
RULESETS = re.compile(r"\bengine\.(disney|elite)\b[\w.]*")
IMPORT_LINE = re.compile(r"^import time:\s+(\d+) \|\s+\d+ \|\s+(\S.*)$")


@dataclass(frozen=True)
class Imports:
    modules: frozenset[str]
    micros: int  # the modules' own import time, summed
    peak_mib: float = 0.0  # the process's peak resident memory, where it said it


def imports_of(stderr: str) -> Imports:
    """The ruleset modules an `-X importtime` report names, and their own times summed."""
    found, micros = set(), 0
    for line in stderr.splitlines():
        match = IMPORT_LINE.match(line)
        if match and RULESETS.fullmatch(match.group(2).strip()):
            found.add(match.group(2).strip())
            micros += int(match.group(1))
    return Imports(frozenset(found), micros)


def environment() -> dict[str, str]:
    return {**os.environ, "TINKER_TRAY_PURE": "1", "TINKER_TRAY_MDNS": "0", "PYTHONUNBUFFERED": "1"}


def names_lookup(tree: Path) -> Imports:
    """The lookup's ruleset modules (one run under -X importtime) and its peak memory (a run
    without it: the report's own bookkeeping would count)."""
    code = "from engine import registry; registry.names()"
    peak = (  # VmHWM, not ru_maxrss: that keeps the forking parent's size across exec
        "; print(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')))"
    )
    timed, plain = (
        [sys.executable, "-X", "importtime", "-c", code],
        [sys.executable, "-c", code + peak],
    )
    found = imports_of(_run(timed, tree).stderr)
    return Imports(found.modules, found.micros, int(_run(plain, tree).stdout.split()[-1]) / 1024)


def _run(command: list[str], tree: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=tree, env=environment(), capture_output=True, text=True, check=True
    )


@dataclass(frozen=True)
class Start:
    ready_s: float
    peak_mib: float
    imports: Imports


def service_start(tree: Path) -> Start:
    with tempfile.TemporaryDirectory() as work, socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        journal = Path(work) / "journal.sqlite3"
        args = ["--seconds", "6", "--host", "127.0.0.1", "--port", str(port), "--no-mdns"]
        started = time.monotonic()
        proc = subprocess.Popen(
            [sys.executable, "-X", "importtime", "-m", "cli", "run", *args, "--journal", journal],
            cwd=tree, env=environment(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        ready_s = _ready(proc, port) - started
        peak = _peak_mib(proc.pid)
        _, err = proc.communicate(timeout=60)
        return Start(ready_s, peak, imports_of(err))


def _ready(proc: subprocess.Popen[str], port: int) -> float:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            said = proc.stderr.read()[-2000:] if proc.stderr else ""
            raise SystemExit(f"tinker-tray run stopped ({proc.returncode}): {said}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/view", timeout=2) as answer:
                if answer.status == 200:
                    return time.monotonic()
        except OSError:
            time.sleep(0.02)
    proc.kill()
    raise SystemExit("tinker-tray run did not answer within 60 s")


def _peak_mib(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    kib = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:"))
    return kib / 1024


def worktree(rev: str, into: Path) -> Path:
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(into), rev],
                   check=True, capture_output=True)  # fmt: skip
    return into


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--against", default=BEFORE, help=f"the earlier revision (default {BEFORE})"
    )
    parser.add_argument("--rounds", type=int, default=5, help="runs of each side (default 5)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        before = worktree(args.against, Path(tmp) / "before")
        try:
            sides = {"now": ROOT, f"{args.against} (before)": before}
            looked = {k: functools.partial(names_lookup, t) for k, t in sides.items()}
            lookups = interleaved(looked, 1)
            started = {k: functools.partial(service_start, t) for k, t in sides.items()}
            starts = interleaved(started, args.rounds)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(before)],
                           check=False, capture_output=True)  # fmt: skip
    now, then = list(sides)
    heading("1. registry.names() in a fresh Python (pure engine)")
    for side in sides:
        found = lookups[side][0]
        row(
            f"{side}: ruleset modules imported",
            f"{len(found.modules)} ({found.micros / 1000:.1f} ms of their own), "
            f"peak {found.peak_mib:.1f} MiB",
        )
    heading(f"2. tinker-tray run to the page's first 200 ({args.rounds} starts a side, in turns)")
    ready = {side: [s.ready_s for s in starts[side]] for side in sides}
    peak = {side: [s.peak_mib for s in starts[side]] for side in sides}
    for side in sides:
        last = starts[side][-1].imports
        row(
            f"{side}: ruleset modules imported by then",
            f"{len(last.modules)} ({last.micros / 1000:.1f} ms of their own)",
        )
        row(
            f"{side}: seconds to the first 200",
            timings(ready[side], ready[then] if side == now else None),
        )
        row(f"{side}: peak resident MiB", f"median {sorted(peak[side])[len(peak[side]) // 2]:.1f}")
    row(
        "now: peak memory",
        versus(
            sorted(peak[now])[len(peak[now]) // 2], sorted(peak[then])[len(peak[then]) // 2], then
        ),
    )
    row(
        "now: ruleset modules still imported at the start",
        ", ".join(sorted(starts[now][-1].imports.modules)) or "none",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
