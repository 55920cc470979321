"""`simulate` on every core: the run cut into fixed chunks, each with its own seed, played by a
pool of processes and merged in order, so a seed gives the same statistics and records whatever
the number of workers. The engine stays single-threaded; processes live only here.

A chunk's size depends only on what is played (never on the workers), and its seed only on the
master seed and its index; the first chunk plays on the master seed itself, so a run that fits
in one chunk is the same as the ruleset's own simulation called once (`registry.Entry.simulate`).
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import queue as queue_mod
import time
from collections.abc import Callable, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, TextIO

GAMES_PER_CHUNK = 4
HANDS_PER_CHUNK_PER_PLAYER = 100  # a multiple of the players keeps the dealer's rotation
BAR_AFTER_SECONDS = 2.0


@dataclass(frozen=True)
class Chunk:
    index: int
    seed: int
    hands: int | None
    games: int | None


@dataclass
class Job:
    """One `simulate` run as the command line asked for it."""

    players: int
    seed: int
    hands: int | None
    games: int | None
    bots: list[str]
    options: Mapping[str, Any]
    ruleset: str
    records: bool = False
    inputs: Mapping[str, Any] = field(default_factory=dict)
    """The files the ruleset needs, parsed (its registry entry's `inputs`, read by cli/inputs.py:
    UNO Elite's cards and deck)."""
    chunks: list[Chunk] = field(default_factory=list)

    def __post_init__(self) -> None:
        total = self.hands if self.hands is not None else self.games
        if total is None:
            raise ValueError("give either a number of hands or a number of games")
        size = GAMES_PER_CHUNK if self.hands is None else HANDS_PER_CHUNK_PER_PLAYER * self.players
        for index, start in enumerate(range(0, total, size)):
            n = min(size, total - start)
            seed = self.seed if index == 0 else chunk_seed(self.seed, index)
            hands, games = (n, None) if self.hands is not None else (None, n)
            self.chunks.append(Chunk(index, seed, hands, games))

    @property
    def total(self) -> int:
        return sum(c.hands or c.games or 0 for c in self.chunks)


def chunk_seed(seed: int, index: int) -> int:
    """A seed for chunk `index`, from the master seed alone."""
    digest = hashlib.sha256(f"tinker-tray simulate {seed} {index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def default_workers() -> int:
    return os.cpu_count() or 1


# ---------------------------------------------------------------- one chunk (in any process)
_progress_queue: Any = None  # set in each worker process: where it reports games or hands done


def _init_worker(progress_queue: Any) -> None:
    global _progress_queue
    _progress_queue = progress_queue


def play_chunk(
    job: Job, chunk: Chunk, on_progress: Callable[[int], None] | None = None
) -> tuple[dict[str, Any], list[str]]:
    """Statistics of one chunk, and its records' text when the job keeps records."""
    from engine import registry

    texts: list[str] = []
    if on_progress is None and _progress_queue is not None:
        put = _progress_queue.put
        on_progress = lambda done: put(1)  # noqa: E731 (one item done)
    asked = registry.Simulation(
        players=job.players,
        seed=chunk.seed,
        hands=chunk.hands,
        games=chunk.games,
        bots=job.bots,
        options=job.options,
        inputs=job.inputs,
        record=job.records,
        on_game=(lambda game: texts.append(game.record())) if job.records else None,
        on_progress=on_progress,
    )
    return registry.get(job.ruleset).simulate(asked), texts


# ---------------------------------------------------------------- the whole run
def run(
    job: Job,
    workers: int,
    on_records: Callable[[list[str]], None] | None = None,
    bar: ProgressBar | None = None,
) -> dict[str, Any]:
    """Play every chunk on `workers` processes (in this one if 1, or if there is one chunk) and
    merge them in order. `on_records` gets each chunk's records, in order."""
    from engine import registry, simulation

    bar = bar or ProgressBar(job.total, None)
    results: list[tuple[dict[str, Any], list[str]] | None] = [None] * len(job.chunks)
    if workers <= 1 or len(job.chunks) == 1:
        for chunk in job.chunks:
            results[chunk.index] = play_chunk(job, chunk, _progress_from(bar, bar.done))
    else:
        _run_pool(job, min(workers, len(job.chunks)), results, bar)
    bar.close()
    parts = []
    for result in results:
        assert result is not None
        stats, texts = result
        parts.append(stats)
        if on_records is not None:
            on_records(texts)
    return simulation.merge_stats(parts, registry.get(job.ruleset).rates)


def _progress_from(bar: ProgressBar, before: int) -> Callable[[int], None]:
    """A chunk's `on_progress` (items done in the chunk) moving the whole run's bar."""
    return lambda done: bar.to(before + done)


def _run_pool(job: Job, workers: int, results: list, bar: ProgressBar) -> None:
    context = multiprocessing.get_context("spawn")  # no fork of a process holding threads
    progress = context.Queue()
    with ProcessPoolExecutor(
        workers, mp_context=context, initializer=_init_worker, initargs=(progress,)
    ) as pool:
        pending: dict[Future, int] = {
            pool.submit(play_chunk, job, chunk): chunk.index for chunk in job.chunks
        }
        try:
            while pending:
                finished, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                bar.advance(_drain(progress))
                for future in finished:
                    results[pending.pop(future)] = future.result()  # a worker's error, raised
        except BaseException:
            for future in pending:
                future.cancel()
            raise
    bar.advance(_drain(progress))


def _drain(progress: Any) -> int:
    done = 0
    while True:
        try:
            done += progress.get_nowait()
        except queue_mod.Empty:
            return done


class ProgressBar:
    """A rich progress bar on `stream`, shown only when it is a terminal and the run has taken
    more than a couple of seconds; never on a pipe."""

    def __init__(
        self,
        total: int,
        stream: TextIO | None,
        clock: Callable[[], float] = time.monotonic,
        after: float = BAR_AFTER_SECONDS,
    ) -> None:
        self.total = total
        self.done = 0
        self.enabled = stream is not None and stream.isatty()
        self._stream = stream
        self._clock = clock
        self._show_at = clock() + after
        self._progress: Any = None
        self._task: Any = None

    @property
    def shown(self) -> bool:
        return self._progress is not None

    def advance(self, n: int) -> None:
        self.to(self.done + n)

    def to(self, done: int) -> None:
        self.done = done
        if not self.enabled:
            return
        if self._progress is None:
            if self._clock() < self._show_at:
                return
            from rich.console import Console
            from rich.progress import Progress

            self._progress = Progress(console=Console(file=self._stream), transient=True)
            self._progress.start()
            self._task = self._progress.add_task("playing", total=self.total)
        self._progress.update(self._task, completed=self.done)

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
