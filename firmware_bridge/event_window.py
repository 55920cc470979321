"""Which button events the host has already taken since the last HELLO.

The device numbers its events 1, 2, 3 ... (mod 2^16, from 1 after boot), resends an unacknowledged
UP, HOLD or RELEASE every 250 ms (keeping at most 8; a DOWN is sent once), and forgets them all
at a HELLO. A first sending can be lost (noise on the line, a frame cut by a reconnect) while the
next event's arrives: the lost one then comes *after* a newer one, as a resend. So the host
cannot say "new only if ahead of the newest"; it remembers the numbers it took and takes each
number once, whatever order the sendings arrive in.

Nothing on the line tells the device's frames from forged ones (noise that passed the CRC, a
confused or hostile sender): both are just numbers. The rule before this one let a far-ahead
number sent twice move the window there, and every real event after it then looked like an old
resend: acknowledged, dropped, until the device restarted. Here a number is dropped as a resend
only if the host really took it, so a forged frame can cost at most the one event with its
number; and where the device is, is remembered as *runs*, so a jump does not lose it:

- A run is where one sender's numbering is: its newest number. A number continues a run if it
  is 1 to 64 ahead of the newest, or up to 63 behind it (a lost first sending, resent late).
- A number already taken (one of the last 1024 taken) is a RESEND: acknowledged, not delivered.
- A number that continues the current run is NEW; failing that, one that continues a run the
  window left (3 are kept) is NEW and makes that run current again. A device's events continue
  its own numbering, so after a forged jump its next event is taken at once, there.
- A number that continues no run is a *stray*: neither delivered nor acknowledged. It starts a
  new run (NEW) when it comes again *in a row*: before the host takes any event more than 64
  away from it. A device that really moved on (it lost more events than it could keep) resends
  it 250 ms later, with only its own nearby events, heartbeats and other strays between; an
  event taken elsewhere in between shows the device is elsewhere, and the stray is forgotten.

Guarantees, for the events of a device since the last HELLO:
- At most once: a sending of a number among the last 1024 taken is a RESEND.
- Never dropped as a resend unless its number was taken before: by an earlier sending of the
  same event, or by a forged frame carrying the same number (see below).
- Taken at its first sending if it continues one of the 4 runs kept, and otherwise at its next
  sending, if that comes in a row as above (with fewer than 16 other strays between). So after
  any forged frames, every UP, HOLD and RELEASE of the device (the ones it resends) is
  delivered exactly once, unless a forged frame took its number first. A DOWN that arrives as
  a stray is never taken; it delivers nothing.
- One frame moves the window at most 64 on from a run it keeps; only a number sent twice in a
  row starts a new run.

What it cannot do:
- A forged frame that is taken consumes the device's event with the same number, if the device
  sends it while the number is among the last 1024 taken: that event is then a resend. So a
  forger who sends the device's coming numbers first takes those events in its place.
- A forged frame that is taken is delivered: a forger can add presses (it could with any number
  the window would take).
- While forged frames keep being taken between a stray's sendings, it stays a stray; the device
  keeps resending it, and it is taken within two resends after the forging stops (if the
  device still keeps it: 8 newer unacknowledged events push it out).
- A resend is recognised while fewer than 1024 events were taken after it: one whose ACKs were
  all lost for that long (500 taps), or that many forged takes, make it new again. And if the
  device's numbers wrapped round while the host took fewer than 1024 of them (it lost 98% of
  the events without the link going down), a number is still remembered when the device reuses
  it, and that event is dropped as a resend.
"""

from __future__ import annotations

import enum

WINDOW = 64
"""How far ahead of a run's newest number, and behind it, a number continues the run: the device
keeps at most 8 events unacknowledged (and a DOWN between two of them), so a late resend is
never further behind, nor a new event further ahead while no frame is lost."""
MEMORY = 1024
"""Numbers taken that are remembered (the latest): a resend comes within 8 events of its first
sending unless its ACKs keep getting lost, and the device's numbers take 65536 events to wrap."""
RUNS_LEFT = 3
"""Runs the window left and still recognises: a forger must make this many runs, each with a
pair of frames and nothing of the device's between, before the device's next event is a stray."""
STRAYS_KEPT = 16
"""Strays remembered until their resend: the device resends at most 8 at a time."""
_HALF = 0x8000  # event numbers are u16: "ahead" is by 1 to 32767, modulo 65536


class Seen(enum.Enum):
    """What the host does with one BUTTON frame."""

    NEW = "new"  # deliver it, and acknowledge it
    RESEND = "resend"  # acknowledge it again, deliver nothing
    STRAY = "stray"  # in no run and not yet sent twice in a row: neither


def _ahead(event_no: int, of: int) -> int:
    return (event_no - of) & 0xFFFF


def _continues(newest: int, event_no: int, size: int) -> bool:
    """Whether `event_no` (not taken yet) can be the next of the run whose newest is `newest`."""
    return 0 < _ahead(event_no, newest) <= size or _ahead(newest, event_no) < size


def _near(a: int, b: int, size: int) -> bool:
    return min(_ahead(a, b), _ahead(b, a)) <= size


class EventWindow:
    """`take(event_no)` is NEW exactly once per event, in whichever order sendings arrive, and a
    forged number can neither block the device's events nor stand for more than its own."""

    def __init__(self, size: int = WINDOW) -> None:
        self.size = size
        self._newest: int | None = None  # the newest number of the current run
        self._left: list[int] = []  # the newest numbers of runs left, the latest first
        self._taken: dict[int, None] = {}  # the last MEMORY numbers taken, oldest first
        self._strays: dict[int, None] = {}  # strays sent once so far, oldest first

    def reset(self) -> None:
        """A HELLO: the device has forgotten its unacknowledged events, so nothing sent before
        can come again (and after a reboot it numbers from 1 again)."""
        self._newest = None
        self._left.clear()
        self._taken.clear()
        self._strays.clear()

    def take(self, event_no: int) -> Seen:
        """NEW if `event_no` was not taken yet and can be the device's (then it is taken)."""
        if event_no in self._taken:
            return Seen.RESEND
        newest = self._newest
        if newest is None or _continues(newest, event_no, self.size):
            self._step(event_no)
        elif (run := self._left_run(event_no)) is not None:
            self._left.remove(run)
            self._switch_to(run)
            self._step(event_no)
        elif event_no in self._strays:
            self._switch_to(event_no)
        else:
            return self._stray(event_no)
        self._remember(event_no)
        return Seen.NEW

    def _left_run(self, event_no: int) -> int | None:
        """The newest number of the latest run left that `event_no` continues, if any."""
        return next((n for n in self._left if _continues(n, event_no, self.size)), None)

    def _step(self, event_no: int) -> None:
        """`event_no` continues the current run: the run moves up to it if it is ahead."""
        if self._newest is None or 0 < _ahead(event_no, self._newest) < _HALF:
            self._newest = event_no

    def _switch_to(self, newest: int) -> None:
        if self._newest is not None:
            self._left.insert(0, self._newest)
            del self._left[RUNS_LEFT:]
        self._newest = newest

    def _remember(self, event_no: int) -> None:
        self._taken[event_no] = None
        if len(self._taken) > MEMORY:
            del self._taken[next(iter(self._taken))]
        # an event taken here: strays far from it were not sent twice in a row by the device
        self._strays = {n: None for n in self._strays if _near(n, event_no, self.size)}
        self._strays.pop(event_no, None)

    def _stray(self, event_no: int) -> Seen:
        self._strays[event_no] = None
        while len(self._strays) > STRAYS_KEPT:
            del self._strays[next(iter(self._strays))]
        return Seen.STRAY
