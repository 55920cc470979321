"""The benches' one harness: how they run what they measure, beside what, and how they print it.

A figure alone says little on a shared machine (a neighbour's build halves it) and nothing on
another one (a Pi is ten times slower than a laptop). So every bench measures its subject beside
a peer in the same run, on the same machine, minutes apart at most: a bare library doing the same
work, the code before a change, the writable card beside the full one. What it reports is the
ratio; the absolute figures stand beside it so that the ratio can be checked.

- `interleaved` takes the runs: each side once a round, in turns, so that a slow spell of the
  machine hits both sides alike;
- `Spread` and `percentile` reduce a side's samples, every bench the same way (nearest rank);
- `heading`, `row`, `timings`, `versus` print them: a numbered heading, then one aligned row a
  figure, `label  value`; times as median, 99th percentile and worst; a ratio as `1.23x`.

Run a bench from the checkout's root as a module, `.venv/bin/python -m bench.NAME --help`
(each also runs as `.venv/bin/python bench/NAME.py`: ./tinker's venv has the checkout on its
path). What the benches share with the tests (a broker, a long game, a full card) is in
tests/helpers/, the one support package both import.
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

ROOT = Path(__file__).resolve().parents[1]
"""The checkout: a bench's child process runs here (`child`), where its packages import."""

WIDTH = 52
"""The label column: wide enough for every bench's longest label, so the values line up."""


def percentile(values: Sequence[float], q: float) -> float:
    """The `q` quantile (0 to 1) by nearest rank: a sample that was measured, never one
    interpolated between two (a p99 of 100 samples is the 99th smallest)."""
    if not values:
        raise ValueError("no samples to take a percentile of")
    if not 0 <= q <= 1:
        raise ValueError(f"a quantile is from 0 to 1, not {q}")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


@dataclass(frozen=True)
class Spread:
    """A side's samples as every bench reports them: median, 99th percentile, worst, count."""

    median: float
    p99: float
    worst: float
    n: int

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        if not values:
            raise ValueError("no samples: the side measured nothing")
        return cls(statistics.median(values), percentile(values, 0.99), max(values), len(values))


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% interval of a win rate (Wilson's score interval: right near 0% and 100% and for
    a few hundred games, where the normal approximation is not)."""
    if n <= 0:
        raise ValueError("no games decided: no win rate")
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def win_rate(wins: int, n: int) -> str:
    """Wins as every bench of the bots reports them: "won 276 of 400 = 69.0% (95% CI ...)"."""
    if n <= 0:
        return f"won {wins} of 0: no game decided"
    low, high = wilson(wins, n)
    return f"won {wins} of {n} = {wins / n:.1%} (95% CI {low:.1%} to {high:.1%})"


def interleaved(sides: Mapping[str, Callable[[], T]], rounds: int) -> dict[str, list[T]]:
    """Each side's results of `rounds` runs, taken in turns (a, b, a, b ...; the order flips
    every round, so neither side always runs on a machine the other has just warmed)."""
    if rounds < 1:
        raise ValueError(f"at least one round, not {rounds}")
    found: dict[str, list[T]] = {name: [] for name in sides}
    order = list(sides)
    for r in range(rounds):
        for name in order if r % 2 == 0 else reversed(order):
            found[name].append(sides[name]())
    return found


def child(module: str, *args: str) -> list[str]:
    """The command of a process of its own that runs `module` (of this checkout: run it with
    cwd=ROOT) with this interpreter, e.g. a bench's server apart from its clients."""
    return [sys.executable, "-m", module, *args]


def resident_mib(pid: int) -> float:
    """The resident memory of process `pid` now (VmRSS), in MiB."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(x for x in status.splitlines() if x.startswith("VmRSS")).split()[1]) / 1024


def timed(run: Callable[[], object]) -> float:
    """Seconds `run` takes on the wall clock (perf_counter)."""
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def ratio(ours: float, peer: float) -> str:
    """`ours` as a multiple of `peer`: "1.23x"; "-" where the peer measured nothing."""
    if peer == 0:
        return "-"
    return f"{ours / peer:.2f}x"


def duration(seconds: float) -> str:
    """A time in the unit that reads best: µs under a millisecond, ms under ten seconds, s above."""
    if math.isinf(seconds):
        return "never"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 10:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.1f} s"


def timings(seconds: Sequence[float], peer: Sequence[float] | None = None) -> str:
    """A side's times: median, p99, worst and count, and with `peer` its medians' ratio (a side
    that took no sample, a bot that never had a choice, says so)."""
    if not seconds:
        return "none measured (n=0)"
    s = Spread.of(seconds)
    text = (
        f"median {duration(s.median)}, p99 {duration(s.p99)}, worst {duration(s.worst)} (n={s.n})"
    )
    if peer:
        text += f", {versus(s.median, Spread.of(peer).median)}"
    return text


def versus(ours: float, peer: float, what: str = "the peer") -> str:
    """The ratio as a row reads it: "1.23x the peer"."""
    return f"{ratio(ours, peer)} {what}"


def heading(text: str) -> None:
    """A part of a bench's report (numbered by the bench, if it has several)."""
    print(text, flush=True)


def row(label: str, value: str) -> None:
    """One figure: its label, then its value, aligned with every other row's."""
    print(f"  {label:<{WIDTH}} {value}", flush=True)


def rows(pairs: Iterable[tuple[str, str]]) -> None:
    for label, value in pairs:
        row(label, value)
