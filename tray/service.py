"""The tray service: a tray, the bus, the fair picker and the light show, on one loop thread.

Every input (a tap or hold from any tray backend, a virtual press from the web page or the
terminal) enters through `_deliver`, which hands it to the service's loop thread (or handles it
at once when it already runs there: the GPIO tray lends its scheduler, and its press detector
delivers on it); so a hardware tap and a virtual press take exactly the same path from there on,
and handlers never run on a GPIO or serial thread.

On a tap: if a show is still spinning, the tap is ignored (the original tray does not restart).
Otherwise the colour is picked first, the show is computed from it and started at once (lights
before anything else), then `ButtonPressed` and `Pick` are posted. The show's timing cannot
influence the pick: the pick is already made. Its length depends only on how far the scan's
starting light is from the pick, which is uniform whatever the colour (`tray.show`), so the
length names nothing either. The `Pick` carries when its show started and when its lights
settle (`shown_at`, `settles_at`, on the loop's monotonic clock): nobody else recomputes the
show to know when the pick may be named. At `settles_at` the loop chimes and posts
`PickSettled`, once.

The loop thread times the show and debounces the button, so it never runs a subscriber: events
go to a `tray.bus.Relay`, which publishes them from a thread of its own (the scoreboard's journal
and digital play do their I/O there).

On a long hold (`button.hold_action`): "repeat" plays the last pick's show again without a new
pick (for the player who looked away), "selftest" walks the four lights, "none" only publishes
`ButtonHeld`. Faults from the tray (a stuck button, an unplugged USB tray) are published.

`run_forever()` blocks until SIGINT/SIGTERM (or `request_stop()`), tells systemd READY=1 and pings
its watchdog after a health check (the service loop, the relay and the tray all answer), then
stops cleanly: lights off, pins released. The signals' handlers do nothing that can block: the
signal is a byte on a pipe the loop waits on (`tray.signals`).
"""

from __future__ import annotations

import collections
import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from tray import show, systemd
from tray.backend import DARK, Frame, Loop, Tray
from tray.bus import Bus, Relay
from tray.config import Config
from tray.events import ButtonHeld, ButtonPressed, Event, Fault, Pick, PickSettled
from tray.pick import Picker
from tray.player import Scheduler
from tray.signals import STOP, StopSignals

log = logging.getLogger(__name__)


class TrayService:
    def __init__(self, tray: Tray, bus: Bus, picker: Picker, settings: Config) -> None:
        self.tray, self.bus, self.picker, self.settings = tray, bus, picker, settings
        self.history: collections.deque[Pick] = collections.deque(maxlen=100)
        self.ignored = 0  # taps ignored because a show was spinning
        self._busy_until = float("-inf")
        self._loop: Loop | None = None
        self._relay: Relay | None = None
        self._stop_requested = threading.Event()
        self._stops: StopSignals | None = None  # what run_forever waits on, while it runs
        self._stopped = False
        self._own_loop = True

    # --- life cycle ---
    def start(self) -> None:
        # A tray that runs its own loop (the GPIO tray) lends it to the service: then an edge
        # crosses threads once (callback -> scheduler) instead of three times, and the Pi runs one
        # thread fewer. Other trays (USB) get a loop of the service's own.
        lent = self.tray.scheduler
        self._own_loop = lent is None
        loop: Loop = Scheduler("tray-service") if lent is None else lent
        self._loop = loop
        self._relay = Relay(self.bus, "tray-events")
        try:
            self.tray.open(self._deliver)
            self.tray.set_lights(DARK)
        except BaseException:
            if self._own_loop:
                loop.close()
            self._relay.close()
            raise
        log.info("tray service started on %s", self.tray.name)

    def stop(self) -> None:
        """Stop handling input, then lights off and the tray closed (pins released); the events
        already posted are still published. Idempotent."""
        if self._stopped:
            return
        self._stopped = True
        self._stop_requested.set()
        systemd.notify("STOPPING=1")
        if self._loop is not None and self._own_loop:
            self._loop.close()
        try:
            self.tray.close()  # closes a lent loop too
        finally:
            if self._relay is not None:
                self._relay.close()
        log.info("tray service stopped")

    def request_stop(self) -> None:
        """Make `run_forever` return (from any thread; never from a signal handler: that is
        `tray.signals`' job)."""
        self._stop_requested.set()
        stops = self._stops
        if stops is not None:
            stops.request()

    def run_forever(
        self,
        *,
        signals: bool = True,
        ready: Callable[[], Any] | None = None,
        stops: StopSignals | None = None,
    ) -> None:
        """Block until SIGINT/SIGTERM (with `signals`) or `request_stop()`, then `stop()`.

        The signals only write to a pipe that this loop waits on (`tray.signals`): a handler
        that took a lock could hang the stop. `stops`: a command's own `StopSignals`, already
        entered (it outlives this call, while the command closes the rest); else one of this
        call's, with the handlers put back on return. `ready()` is called once they are
        in place (so a "ready" message is never printed before a signal can stop the service
        cleanly)."""
        owned = stops is None
        if stops is None:
            stops = StopSignals(STOP if signals else ())
            stops.__enter__()
        self._stops = stops
        try:
            if self._stop_requested.is_set():  # asked before there was a pipe to write to
                stops.request()
            if ready is not None:
                ready()
            systemd.notify("READY=1")
            interval = systemd.watchdog_interval()
            while not stops.wait(interval if interval else 0.5):
                if interval and self.healthy():
                    systemd.notify("WATCHDOG=1")
        finally:
            self.stop()  # a signal meanwhile is one more byte on the pipe: nothing else
            self._stops = None
            if owned:
                stops.__exit__(None, None, None)

    def healthy(self) -> bool:
        """The loop runs a job, the relay gets through its queue, and the tray says it is well."""
        return (
            self._loop is not None
            and self._loop.alive(timeout=2.0)
            and self._relay is not None
            and self._relay.alive(timeout=2.0)
            and bool(self.tray.healthy())
        )

    # --- input: any thread ---
    def press(self) -> None:
        """A virtual tap (web page, keyboard): the same path as a hardware tap from here on."""
        self._deliver(ButtonPressed(t=time.time(), source="virtual"))

    def hold(self) -> None:
        """A virtual long hold."""
        self._deliver(
            ButtonHeld(t=time.time(), seconds=self.settings.button.hold_s, source="virtual")
        )

    def _deliver(self, event: Event) -> None:
        try:
            loop = self._loop
            if loop is None:
                return
            if loop.in_thread():  # the lent GPIO scheduler's press detector: no second hop
                self._handle(event)
            else:
                loop.call_soon(self._handle, event)
        except Exception:
            log.exception("could not handle %r", event)

    # --- the service loop thread ---
    def _now(self) -> float:
        return self._loop.clock() if self._loop is not None else time.monotonic()

    @property
    def spinning(self) -> bool:
        return self._now() < self._busy_until

    def _post(self, event: Event) -> None:
        if self._relay is not None:
            self._relay.post(event)

    def _handle(self, event: Event) -> None:
        try:
            if isinstance(event, ButtonPressed):
                self._on_tap(event)
            elif isinstance(event, ButtonHeld):
                self._on_hold(event)
            else:
                self._post(event)
        except Exception as exc:
            log.exception("handling %s failed", event.type)
            self._post(Fault(kind="service_error", message=f"{event.type}: {exc}", t=time.time()))

    def _on_tap(self, event: ButtonPressed) -> None:
        if self.spinning:
            self.ignored += 1
            log.debug("tap ignored: the show is still spinning")
            return
        pick = self.picker.pick(source=event.source)  # first: the show is computed from it
        try:
            pick = self._show(pick)
        except Exception as exc:  # the pick stands (no gap in the sequence); say the tray failed
            log.exception("the tray could not show pick %d", pick.seq)
            self._busy_until = float("-inf")
            self._post(
                Fault(
                    kind="tray_error",
                    t=time.time(),
                    message=f"the lights could not show pick {pick.seq}: {exc}",
                )
            )
        self.history.append(pick)
        self._post(event)
        self._post(pick)
        self._buzz("press")
        if pick.settles_at is not None:
            assert self._loop is not None
            self._loop.call_at(pick.settles_at, self._settled, pick)

    def _settled(self, pick: Pick) -> None:
        """The lights have landed on `pick` (the loop's timer at `settles_at`)."""
        self._buzz("pick")
        self._post(PickSettled(pick.seq))

    def _buzz(self, tune: str) -> None:
        try:
            self.tray.buzz(tune)
        except Exception:  # a sound is never worth a lost pick or a stopped loop
            log.exception("the tray could not play the %r tune", tune)

    def _on_hold(self, event: ButtonHeld) -> None:
        if self.spinning:
            return
        self._post(event)
        action = self.settings.button.hold_action
        if action == "repeat" and self.history:
            self._show(self.history[-1])
        elif action == "selftest":
            frames = show.walk(brightness=self.settings.show.brightness)
            self._play(frames, sum(f.seconds for f in frames))

    def _show(self, pick: Pick) -> Pick:
        """Start the light show that lands on `pick` (taps are ignored until it has landed);
        returns the pick stamped with when its show started and when it settles."""
        settings = self.settings.show
        spin = show.spin_seconds(settings, pick.colour, pick.lead)
        started = self._play(show.frames(pick.colour, settings, pick.lead), spin)
        return dataclasses.replace(pick, shown_at=started, settles_at=started + spin)

    def _play(self, frames: Sequence[Frame], busy_for: float) -> float:
        """Start a show; taps are ignored for `busy_for` seconds (until the pick has landed).
        Returns when it started, on the loop's clock."""
        started = self._now()
        self._busy_until = started + busy_for
        self.tray.play(frames)
        return started
