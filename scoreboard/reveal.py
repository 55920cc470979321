"""When the displays may show a pick, and what the virtual tray's lights play meanwhile.

The tray publishes `Pick` as its light show *starts*, and the journal records it at once. A
scoreboard that showed the colour straight away would spoil the show everybody is watching, so
the pick is presented only once the lights have settled on it: `show.spin_seconds` after it was
made. The show itself comes from the same pure function the LEDs play (`tray.show.frames`) with
the same settings, so the virtual tray can play exactly what the real lights play.

Everything here is pure: each question takes `now`, so tests need no sleeping.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from tray import show
from tray.backend import Frame
from tray.config import ShowSettings
from tray.events import Pick


@dataclasses.dataclass(frozen=True)
class Showing:
    """The show of one pick: its frames and when it started (seconds on the session's clock)."""

    seq: int
    colour: str
    started: float
    spin_s: float
    frames: tuple[Frame, ...]

    @property
    def reveal_at(self) -> float:
        return self.started + self.spin_s

    def hidden(self, now: float) -> bool:
        """True while the lights are still spinning: the pick must not be shown yet."""
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
            "frames": [{"levels": list(f.levels), "seconds": f.seconds}
                       for f in self.frames[:reached]],
            "more": reached < len(self.frames),
            "elapsed": elapsed,
        }


def start(pick: Pick, settings: ShowSettings, now: float) -> Showing:
    """The show of `pick`, which began when the pick was made (`pick.t`, on the same clock as
    `now`), or on arrival if `pick.t` claims a later time (a clock that stepped back)."""
    return Showing(
        seq=pick.seq,
        colour=pick.colour,
        started=min(pick.t, now),
        spin_s=show.spin_seconds(settings, pick.colour, pick.lead),
        frames=tuple(show.frames(pick.colour, settings, pick.lead)),
    )


def no_show(seq: int | None) -> dict[str, Any]:
    """The payload when no show is known for the latest pick (none yet, or one made before a
    restart): the real lights are dark then, and so are the virtual ones."""
    return {"seq": seq, "frames": [], "more": False, "elapsed": 0.0}
