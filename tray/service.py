"""The tray service: a tray, the bus, the fair picker and the light show, on one loop thread.

Every input (a tap or hold from any tray backend, a virtual press from the web page or the
terminal) enters through `_deliver`, which only queues it on the service's scheduler thread;
so a hardware tap and a virtual press take exactly the same path from there on, and handlers
never run on a GPIO or serial thread.

On a tap: if a show is still spinning, the tap is ignored (the original tray does not restart).
Otherwise the colour is picked first, the show is computed from it and started at once (lights
before anything slow), then `ButtonPressed` and `Pick` are published. The show's timing cannot
influence the pick: the pick is already made, and the show's length is the same for every colour.

On a long hold (`button.hold_action`): "repeat" plays the last pick's show again without a new
pick (for the player who looked away), "selftest" walks the four lights, "none" only publishes
`ButtonHeld`. Faults from the tray (a stuck button, an unplugged USB tray) are published.

`run_forever()` blocks until SIGINT/SIGTERM (or `request_stop()`), tells systemd READY=1 and pings
its watchdog after a health check (the service loop and the tray both answer), then stops
cleanly: lights off, pins released.
"""

from __future__ import annotations

import collections
import logging
import signal
import threading
import time
from typing import Any

from tray import show, systemd
from tray.backend import DARK, Tray
from tray.bus import Bus
from tray.config import Config
from tray.events import ButtonHeld, ButtonPressed, Event, Fault, Pick
from tray.pick import Picker
from tray.player import Scheduler

log = logging.getLogger(__name__)


class TrayService:
    def __init__(self, tray: Tray, bus: Bus, picker: Picker, settings: Config) -> None:
        self.tray, self.bus, self.picker, self.settings = tray, bus, picker, settings
        self.history: collections.deque[Pick] = collections.deque(maxlen=100)
        self.ignored = 0  # taps ignored because a show was spinning
        self._busy_until = float("-inf")
        self._loop: Scheduler | None = None
        self._stop_requested = threading.Event()
        self._stopped = False
        self._own_loop = True

    # --- life cycle ---
    def start(self) -> None:
        # A tray that runs its own Scheduler (the GPIO tray) lends it to the service: then an edge
        # crosses threads once (callback -> scheduler) instead of three times, and the Pi runs one
        # thread fewer. Other trays (USB) get a loop of the service's own.
        shared = getattr(self.tray, "scheduler", None)
        self._own_loop = not isinstance(shared, Scheduler)
        self._loop = Scheduler("tray-service") if self._own_loop else shared
        try:
            self.tray.open(self._deliver)
            self.tray.set_lights(DARK)
        except BaseException:
            if self._own_loop:
                self._loop.close()
            raise
        log.info("tray service started on %s", getattr(self.tray, "name", "a tray"))

    def stop(self) -> None:
        """Stop handling input, then lights off and the tray closed (pins released). Idempotent."""
        if self._stopped:
            return
        self._stopped = True
        self._stop_requested.set()
        systemd.notify("STOPPING=1")
        if self._loop is not None and self._own_loop:
            self._loop.close()
        self.tray.close()  # closes a lent scheduler too
        log.info("tray service stopped")

    def request_stop(self) -> None:
        """Make `run_forever` return (thread-safe, signal-safe)."""
        self._stop_requested.set()

    def run_forever(self, *, signals: bool = True, ready: Any = None) -> None:
        """Block until SIGINT/SIGTERM or `request_stop()`, then `stop()`.

        `ready()` is called once the signal handlers are in place (so a "ready" message is
        never printed before a signal can stop the service cleanly)."""
        previous: dict[int, Any] = {}
        if signals and threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                previous[sig] = signal.signal(sig, lambda *_: self._stop_requested.set())
        try:
            if ready is not None:
                ready()
            systemd.notify("READY=1")
            interval = systemd.watchdog_interval()
            while not self._stop_requested.wait(interval if interval else 0.5):
                if interval and self.healthy():
                    systemd.notify("WATCHDOG=1")
        finally:
            self.stop()
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def healthy(self) -> bool:
        loop_ok = self._loop is not None and self._loop.alive(timeout=2.0)
        tray_check = getattr(self.tray, "healthy", None)
        return loop_ok and (tray_check is None or bool(tray_check()))

    # --- input: any thread ---
    def press(self) -> None:
        """A virtual tap (web page, keyboard): the same path as a hardware tap from here on."""
        self._deliver(ButtonPressed(t=time.time(), source="virtual"))

    def hold(self) -> None:
        """A virtual long hold."""
        self._deliver(ButtonHeld(t=time.time(), seconds=self.settings.button.hold_s,
                                 source="virtual"))

    def _deliver(self, event: Event) -> None:
        try:
            if self._loop is not None:
                self._loop.call_soon(self._handle, event)
        except Exception:
            log.exception("could not queue %r", event)

    # --- the service loop thread ---
    @property
    def spinning(self) -> bool:
        return time.monotonic() < self._busy_until

    def _handle(self, event: Event) -> None:
        try:
            if isinstance(event, ButtonPressed):
                self._on_tap(event)
            elif isinstance(event, ButtonHeld):
                self._on_hold(event)
            else:
                self.bus.publish(event)
        except Exception as exc:
            log.exception("handling %s failed", event.type)
            self.bus.publish(Fault(kind="service_error", message=f"{event.type}: {exc}",
                                   t=time.time()))

    def _on_tap(self, event: ButtonPressed) -> None:
        if self.spinning:
            self.ignored += 1
            log.debug("tap ignored: the show is still spinning")
            return
        pick = self.picker.pick(source=event.source)  # first: the show is computed from it
        try:
            self._show(pick)
            self.tray.buzz("press")
        except Exception as exc:  # the pick stands (no gap in the sequence); say the tray failed
            log.exception("the tray could not show pick %d", pick.seq)
            self._busy_until = float("-inf")
            self.bus.publish(Fault(kind="tray_error", t=time.time(),
                                   message=f"the lights could not show pick {pick.seq}: {exc}"))
        self.history.append(pick)
        self.bus.publish(event)
        self.bus.publish(pick)
        self._after_spin(self.tray.buzz, "pick")

    def _on_hold(self, event: ButtonHeld) -> None:
        if self.spinning:
            return
        self.bus.publish(event)
        action = self.settings.button.hold_action
        if action == "repeat" and self.history:
            self._show(self.history[-1])
        elif action == "selftest":
            frames = show.walk(brightness=self.settings.show.brightness)
            self._play(frames, sum(f.seconds for f in frames))

    def _show(self, pick: Pick) -> None:
        """The light show that lands on `pick` (taps are ignored until it has landed)."""
        settings = self.settings.show
        self._play(show.frames(pick.colour, settings, pick.lead),
                   show.spin_seconds(settings, pick.colour, pick.lead))

    def _play(self, frames: list, busy_for: float) -> None:
        """Start a show; taps are ignored for `busy_for` seconds (until the pick has landed)."""
        self._busy_until = time.monotonic() + busy_for
        self.tray.play(frames)

    def _after_spin(self, fn: Any, *args: Any) -> None:
        assert self._loop is not None
        self._loop.call_at(self._busy_until, fn, *args)
