"""When the displays may show a pick, and what the virtual tray's lights play meanwhile.

The tray posts `Pick` as its light show *starts*, and the journal records it at once. A
scoreboard that showed the colour straight away would spoil the show everybody is watching, so
the pick is presented only once the lights have settled on it. The pick itself says when that
is (`Pick.shown_at`, `Pick.settles_at`, on the monotonic clock the tray timed the show on):
nothing here recomputes the show's length, and there is no second clock to drift from it. The
tray service announces the landing once (`PickSettled`), which is when the displays redraw.

The virtual tray plays the very frames the LEDs play: the same pure function (`tray.show.frames`)
with the tray's settings, timed from the pick's own stamps.

Everything here is pure: each question takes `now`, so tests need no sleeping.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from tray import show
from tray.backend import COLOURS, Frame
from tray.config import ShowSettings
from tray.events import Pick


@dataclasses.dataclass(frozen=True)
class Showing:
    """The show of one pick: when it started and when it lands (the session's monotonic clock),
    and its frames (empty when the display was not given the tray's show settings)."""

    seq: int
    started: float
    reveal_at: float
    frames: tuple[Frame, ...]

    def hidden(self, now: float) -> bool:
        """True while the lights are still spinning: the pick must not be named yet."""
        return now < self.reveal_at

    def payload(self, now: float) -> dict[str, Any]:
        """What the virtual tray needs to play along: the frames the lights have reached so far
        (never one ahead: a frame to come, or the show's length, would tell the pick early to
        anyone reading the page's traffic), whether more follow, and how far in the show is
        (relative seconds, so the page's clock never has to agree with the server's)."""
        elapsed = max(0.0, now - self.started)
        reached, begins = 0, 0.0
        for frame in self.frames:
            if begins > elapsed:
                break
            reached += 1
            begins += frame.seconds
        return {
            "seq": self.seq,
            "frames": [
                {"levels": list(f.levels), "seconds": f.seconds} for f in self.frames[:reached]
            ],
            "more": reached < len(self.frames),
            "elapsed": elapsed,
        }


def start(pick: Pick, settings: ShowSettings | None, now: float) -> Showing | None:
    """The show of `pick` as the tray timed it, or None if it had none (then the pick may be
    shown at once). A pick stamped later than `now` (a clock that is not ours) waits its show's
    length from its arrival, never longer."""
    if pick.shown_at is None or pick.settles_at is None:
        return None
    started = min(pick.shown_at, now)
    frames: tuple[Frame, ...] = ()
    if settings is not None and pick.colour in COLOURS:
        frames = tuple(show.frames(pick.colour, settings, pick.lead))
    return Showing(
        seq=pick.seq,
        started=started,
        reveal_at=started + max(0.0, pick.settles_at - pick.shown_at),
        frames=frames,
    )


def no_show(seq: int | None) -> dict[str, Any]:
    """The payload when no show is known for the latest pick (none yet, or one made before a
    restart): the real lights are dark then, and so are the virtual ones."""
    return {"seq": seq, "frames": [], "more": False, "elapsed": 0.0}
