"""The fair pick: which colour Tinker Bell chooses.

Uniform over the four colours from the operating system's randomness (`secrets.SystemRandom`,
whose `randrange` draws whole bits and rejects the excess, so there is no modulo bias), or from a
seeded `random.Random` for demos and tests. The pick is made before the light show starts and
the show is computed from it, so nothing about the animation's timing can influence it. Every
pick carries a sequence number that rises by one, so a table can audit that none went missing.
"""

from __future__ import annotations

import random
import secrets
import threading
import time

from tray.backend import COLOURS
from tray.events import Pick


class Picker:
    """Thread-safe: the service loop and a test may pick at once without sharing a number."""

    def __init__(self, seed: int | None = None, *, first_seq: int = 1) -> None:
        self._rng: random.Random = secrets.SystemRandom() if seed is None else random.Random(seed)
        # Where the light show starts: its own source, so the colours a seed gives are the same
        # with or without it, and the start says nothing about the pick (tray.show).
        self._leads: random.Random = (
            secrets.SystemRandom() if seed is None else random.Random(f"lead {seed}")
        )
        self.seeded = seed is not None
        self._next_seq = first_seq
        self._lock = threading.Lock()

    def pick(self, source: str = "tray") -> Pick:
        with self._lock:
            colour = COLOURS[self._rng.randrange(len(COLOURS))]
            lead = COLOURS[self._leads.randrange(len(COLOURS))]
            seq, self._next_seq = self._next_seq, self._next_seq + 1
        return Pick(seq=seq, colour=colour, t=time.time(), source=source, lead=lead)

    def continue_after(self, seq: int) -> None:
        """Number the next pick after `seq` (the journal's last): the sequence an audit reads,
        and MQTT's "is this pick new?", run on across restarts instead of starting at 1."""
        with self._lock:
            self._next_seq = max(self._next_seq, seq + 1)

    @property
    def next_seq(self) -> int:
        return self._next_seq
