"""Which button events the host has already taken since the last HELLO.

The device numbers its events 1, 2, 3 ... (mod 2^16) and resends an unacknowledged one every
250 ms, keeping at most 8. Its first sending can be lost (noise on the line, a frame cut by a
reconnect) while the next event's first sending arrives: the lost one then comes *after* a
newer one, as a resend. "New only if ahead of the newest" would drop it, so the host keeps the
event numbers it took within a window behind the newest and takes any number in that window
exactly once, whatever order the sendings arrive in.

Ahead of the newest, only a short step is taken at once. A single frame numbered far ahead
(noise that happens to pass the CRC, a forged frame) must not move the window there: every real
event after it would then look like an old resend and be dropped until the device restarts.
So a number far ahead is a *stray* until it is sent again: the host does not acknowledge it,
and a device that really moved on (it dropped events its queue could not keep) resends it within
250 ms, which moves the window up to it. Noise or a forgery is not resent, and is forgotten.
"""

from __future__ import annotations

import enum

WINDOW = 64
"""How far behind the newest event a first arrival is still taken, and how far ahead one is
taken at once: the device keeps at most 8 events unacknowledged (and a DOWN between two of
them), so a resend is never further behind, nor a new event further ahead while no frame is
lost."""
STRAYS_KEPT = 16
"""Far-ahead numbers remembered until their resend: the device resends at most 8 at a time."""
_HALF = 0x8000  # event numbers are u16: "ahead" is by 1 to 32767, modulo 65536


class Seen(enum.Enum):
    """What the host does with one BUTTON frame."""

    NEW = "new"  # deliver it, and acknowledge it
    RESEND = "resend"  # acknowledge it again, deliver nothing
    STRAY = "stray"  # far ahead and sent once so far: neither, until the device sends it again


class EventWindow:
    """`take(event_no)` is NEW exactly once per event, in whichever order sendings arrive."""

    def __init__(self, size: int = WINDOW) -> None:
        self.size = size
        self._newest: int | None = None
        self._seen: set[int] = set()  # the numbers taken within `size` behind the newest
        self._strays: dict[int, None] = {}  # far-ahead numbers sent once (oldest first)

    def reset(self) -> None:
        """A HELLO: the device numbers again from 1 and has cleared its resend queue."""
        self._newest = None
        self._seen.clear()
        self._strays.clear()

    def take(self, event_no: int) -> Seen:
        """NEW if `event_no` was not taken yet (then it is, from now on)."""
        newest = self._newest
        if newest is None:
            self._move_to(event_no)
            return Seen.NEW
        ahead = (event_no - newest) & 0xFFFF
        if 0 < ahead < _HALF:
            if ahead <= self.size or event_no in self._strays:  # near, or far and resent
                self._move_to(event_no)
                return Seen.NEW
            return self._stray(event_no)
        behind = (newest - event_no) & 0xFFFF
        if behind >= self.size or event_no in self._seen:
            return Seen.RESEND  # a resend of one taken, or one too old to be anything else
        self._seen.add(event_no)
        return Seen.NEW

    def _move_to(self, event_no: int) -> None:
        """`event_no` is the newest now: the window moves up to it."""
        self._newest = event_no
        self._seen = {n for n in self._seen if (event_no - n) & 0xFFFF < self.size}
        self._seen.add(event_no)
        self._strays = {n: None for n in self._strays if 0 < (n - event_no) & 0xFFFF < _HALF}

    def _stray(self, event_no: int) -> Seen:
        self._strays[event_no] = None
        while len(self._strays) > STRAYS_KEPT:
            del self._strays[next(iter(self._strays))]
        return Seen.STRAY
