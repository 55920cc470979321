"""Debounce, tap versus hold, and a stuck button: from raw edges and a clock, nothing else.

Why our own: gpiozero's `MockFactory` ignores `bounce_time` and each real backend debounces
differently (RPi.GPIO drops edges for N ms, lgpio waits for N us of stable level, pigpio caps at
0.3 s), so only code of ours can be proven by a test. And inside gpiozero's `when_released`,
`is_held` is already reset, so tap-versus-hold needs our own state anyway.

The rule, chosen so a tap costs no latency:
- An edge that changes the debounced level is accepted at once, then edges are ignored for
  `debounce_s` (contact bounce). When that lockout ends, the raw level is sampled again and, if
  it differs, accepted as a change at that moment (so a release inside the bounce is never lost).
- A press fully over within one lockout is noise, not a tap (a finger is down far longer).
- Released before `hold_s`: a tap, reported on release (`ButtonPressed`).
- Still down at `hold_s`: a hold, one `ButtonHeld`, reported on its release (stamped with the
  moment it became a hold); its release reports no tap.
- Still down at the link time (`LINK_S`, 3 s, or a second past `hold_s` if that is later): one
  `LinkHeld` (the display's host link, `scoreboard.pairing`) instead of the hold, so holding on
  to pair a phone never first repeats the last pick. Where the stuck time comes before the link
  time there is no link, and a hold is reported at `hold_s`, while the button is still down.
- Still down at `stuck_s`: one `Fault("stuck_button")`, never a stream of presses. A button that
  is down when the tray starts is not a hold; it is reported stuck after `stuck_s` the same way.

`PressDetector` is pure: `feed()` an edge, `poll()` when `next_deadline` comes, read the events.
"""

from __future__ import annotations

import time

from tray.events import ButtonHeld, ButtonPressed, Event, Fault, LinkHeld

LINK_S = 3.0
"""How long the button is held to open the display's pairing window (about 3 s, as a
smart-home bridge's link button)."""


def link_seconds(hold_s: float) -> float:
    """The link time for a tray whose hold time is `hold_s`: 3 s, or a second past the hold."""
    return max(LINK_S, hold_s + 1.0)


class PressDetector:
    def __init__(
        self,
        debounce_s: float,
        hold_s: float,
        stuck_s: float,
        *,
        link_s: float | None = None,
        source: str = "gpio",
        pressed: bool = False,
        now: float = 0.0,
        wall_offset: float | None = None,
    ) -> None:
        self.debounce_s, self.hold_s, self.stuck_s = debounce_s, hold_s, stuck_s
        self.link_s = link_seconds(hold_s) if link_s is None else link_s
        self.source = source
        # Events carry wall-clock times (like Pick.t); the detector runs on the monotonic clock.
        self._wall = time.time() - time.monotonic() if wall_offset is None else wall_offset
        self.raw = self.pressed = pressed
        self._lock_until = float("-inf")
        self._down_since = now
        self._held = pressed  # down at start-up: not a hold, but may still be stuck
        self._linked = pressed  # nor a link
        self._hold_waits = False  # a hold, reported on release unless it becomes a link
        self._stuck = False

    def feed(self, pressed: bool, t: float) -> list[Event]:
        """A raw edge (the level after it) at monotonic time `t`."""
        self.raw = pressed
        if t < self._lock_until or pressed == self.pressed:
            return []
        return self._accept(pressed, t)

    def poll(self, t: float) -> list[Event]:
        """Call at (or after) `next_deadline`: the end of a lockout, a hold, a stuck button."""
        events: list[Event] = []
        if t >= self._lock_until and self.raw != self.pressed:
            # The lockout that just ended began with a press: released within it = a glitch.
            events += self._accept(self.raw, self._lock_until, glitch=self.pressed)
        if self.pressed:
            down = t - self._down_since
            if not self._held and down >= self.hold_s:
                self._held = True
                if self._links:
                    self._hold_waits = True  # a hold, or on to the link: the release says
                else:
                    events.append(self._hold())
            if not self._linked and not self._stuck and self._links and down >= self.link_s:
                self._linked, self._hold_waits = True, False  # the link, not the hold
                events.append(LinkHeld(t=self._stamp(t), seconds=self.link_s, source=self.source))
            if not self._stuck and down >= self.stuck_s:
                self._stuck = True
                events.append(
                    Fault(
                        kind="stuck_button",
                        message=f"the button has been down for {self.stuck_s:g} s: "
                        "it is stuck or wired wrongly; presses are ignored until it is released",
                        t=self._stamp(t),
                    )
                )
        return events

    @property
    def next_deadline(self) -> float | None:
        """The monotonic time at which `poll` has something to decide, if any."""
        deadlines = []
        if self.raw != self.pressed:
            deadlines.append(self._lock_until)
        if self.pressed:
            if not self._held:
                deadlines.append(self._down_since + self.hold_s)
            if not self._linked and self._links:
                deadlines.append(self._down_since + self.link_s)
            if not self._stuck:
                deadlines.append(self._down_since + self.stuck_s)
        return min(deadlines, default=None)

    def _accept(self, pressed: bool, t: float, glitch: bool = False) -> list[Event]:
        self.pressed = pressed
        self._lock_until = t + self.debounce_s
        if pressed:
            self._down_since, self._held, self._linked, self._stuck = t, False, False, False
            self._hold_waits = False
            return []
        if self._hold_waits:
            self._hold_waits = False
            return [self._hold()]
        was_held, was_stuck = self._held, self._stuck
        if was_held or was_stuck or glitch:
            return []  # the hold already acted, a stuck button came free, or a glitch
        return [ButtonPressed(t=self._stamp(t), source=self.source)]

    def _hold(self) -> ButtonHeld:
        """The hold, stamped with the moment the button had been down `hold_s`."""
        at = self._stamp(self._down_since + self.hold_s)
        return ButtonHeld(t=at, seconds=self.hold_s, source=self.source)

    @property
    def _links(self) -> bool:
        """The link time comes before the stuck time (else the hold is a stuck button)."""
        return self.link_s < self.stuck_s

    def _stamp(self, t: float) -> float:
        return t + self._wall
