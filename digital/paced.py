"""The pacing of the game link (`digital.link.GameLink`): the seats people hold, one lock, and
bots paced on a timer thread, one step a tick, so a table can watch them play. The link says
what a step is (`_paced_step`) and how far the game runs (`_advance`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection

from tray.player import Scheduler


def human_seats(humans: Collection[int], players: int) -> frozenset[int]:
    """The seats people hold, checked: ValueError naming a seat that is not at the table."""
    bad = [s for s in humans if not isinstance(s, int) or not 0 <= s < players]
    if bad:
        raise ValueError(f"human seats are 0 to {players - 1}, not {bad[0]!r}")
    return frozenset(humans)


class PacedLink:
    """A timer thread (started with the first paced step) takes the bots' steps one a tick."""

    loop_name = "digital-pace"

    def __init__(self, pace: float) -> None:
        self.pace = pace
        self.lock = threading.RLock()
        self._loop: Scheduler | None = None
        self._step_due = False
        self._closed = False

    @property
    def closed(self) -> bool:
        """Closed: read under `lock`, so nothing started before the close writes after it."""
        return self._closed

    def close(self) -> None:
        with self.lock:
            self._closed = True
            loop, self._loop = self._loop, None
        if loop is not None:
            loop.close()

    def call_later(self, seconds: float, fn: Callable[[], None]) -> None:
        """Run `fn` on the link's timer thread in `seconds` (not once the link is closed): a
        bot's press of Tinker Bell (`digital.bot_press`) waits there, as its moves do."""
        with self.lock:
            if self._closed:
                return
            if self._loop is None:
                self._loop = Scheduler(self.loop_name)
            self._loop.call_later(seconds, fn)

    def _advance(self) -> None:
        raise NotImplementedError

    def _paced_step(self) -> None:
        """One bot step, if a bot is to act (an out-of-turn call, or else its move)."""
        raise NotImplementedError

    def _schedule(self) -> None:
        if self._step_due:
            return
        if self._loop is None:
            self._loop = Scheduler(self.loop_name)
        self._step_due = True
        self._loop.call_later(self.pace, self._tick)

    def _tick(self) -> None:
        with self.lock:
            self._step_due = False
            if self._closed:
                return
            self._paced_step()
            self._advance()  # schedules the next step, publishes
