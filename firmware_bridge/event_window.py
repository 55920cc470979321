"""Which button events the host has already taken since the last HELLO.

The device numbers its events 1, 2, 3 ... (mod 2^16) and resends an unacknowledged one every
250 ms, keeping at most 8. Its first sending can be lost (noise on the line, a frame cut by a
reconnect) while the next event's first sending arrives: the lost one then comes *after* a
newer one, as a resend. "New only if ahead of the newest" would drop it, so the host keeps the
event numbers it took within a window behind the newest and takes any number in that window
exactly once, whatever order the sendings arrive in.
"""

from __future__ import annotations

WINDOW = 64
"""How far behind the newest event a first arrival is still taken: the device keeps at most 8
events unacknowledged (and a DOWN between two of them), so a resend is never further behind."""
_HALF = 0x8000  # event numbers are u16: "ahead" is by 1 to 32767, modulo 65536


class EventWindow:
    """`take(event_no)` is True exactly once per event, in whichever order sendings arrive."""

    def __init__(self, size: int = WINDOW) -> None:
        self.size = size
        self._newest: int | None = None
        self._seen: set[int] = set()  # the numbers taken within `size` behind the newest

    def reset(self) -> None:
        """A HELLO: the device numbers again from 1 and has cleared its resend queue."""
        self._newest = None
        self._seen.clear()

    def take(self, event_no: int) -> bool:
        """True if `event_no` was not taken yet (then it is, from now on)."""
        newest = self._newest
        if newest is None:
            self._newest, self._seen = event_no, {event_no}
            return True
        behind = (newest - event_no) & 0xFFFF
        if behind > _HALF:  # ahead of the newest: new, and the window moves up to it
            self._newest = event_no
            self._seen = {n for n in self._seen if (event_no - n) & 0xFFFF < self.size}
            self._seen.add(event_no)
            return True
        if behind >= self.size or event_no in self._seen:
            return False  # a resend of one taken, or one too old to be anything but a resend
        self._seen.add(event_no)
        return True
