"""The GPIO tray: the `Tray` protocol on gpiozero devices (real pins, or MockFactory pins).

Threads: gpiozero's callbacks arrive on the pin backend's thread (on a mock pin, in whoever
called `drive_low()`); they do nothing but hand the edge and its time to this tray's one
scheduler thread, inside a catch-all: with lgpio one exception escaping a callback would silence
the button for the rest of the process. The scheduler thread runs the press detector (debounce,
tap, hold, stuck), plays the frames and the buzzer, and is the only writer of output pins.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence

from gpiozero import Factory

from tray.backend import DARK, Capabilities, Deliver, Frame, Levels
from tray.config import Config
from tray.devices import TrayDevices
from tray.events import Event
from tray.player import Player, Scheduler
from tray.press import PressDetector
from tray.tunes import TUNES, tune

log = logging.getLogger(__name__)


class GpioTray:
    def __init__(
        self,
        config: Config,
        *,
        pin_factory: Factory | None = None,
        clock: Callable[[], float] = time.monotonic,
        name: str = "gpio",
    ) -> None:
        """`clock` times the button's edges and the scheduler's timers alike (tests pass a
        clock they move by hand, to play a whole tune or show without waiting for it). `name`
        is what the logs and every press call this tray: "emulator" on mock pins."""
        self.name = name
        self.config = config
        self.capabilities = Capabilities(
            leds=4, pwm=config.pwm, buzzer=config.buzzer.enabled, link_hold=True
        )
        self.devices = TrayDevices(config, pin_factory=pin_factory)
        self.clock = clock
        self.scheduler = Scheduler("gpio-tray", clock)
        # Each tune as this tray's buzzer plays it, worked out once (note names -> Hz).
        self._tunes = {name: tune.steps(config.buzzer.kind) for name, tune in TUNES.items()}
        self.player = Player(
            self.scheduler,
            self.devices.set_levels,
            self.devices.sound if config.buzzer.enabled else None,
        )
        self.detector: PressDetector | None = None
        self._deliver: Deliver | None = None
        self._armed: float | None = None
        self._closed = False

    # --- Tray protocol ---
    def open(self, deliver: Deliver) -> None:
        self._deliver = deliver
        button = self.config.button
        self.detector = PressDetector(
            button.debounce_s,
            button.hold_s,
            button.stuck_s,
            pressed=self.devices.button.is_active,
            now=self.clock(),
            source=self.name,
        )
        self.scheduler.call_soon(self._rearm)  # a button down at start may be stuck
        self.devices.button.when_activated = self._pressed_edge
        self.devices.button.when_deactivated = self._released_edge

    def play(self, frames: Sequence[Frame]) -> None:
        self.player.play(frames)

    def set_lights(self, levels: Levels) -> None:
        self.player.set_lights(levels)

    def buzz(self, name: str) -> None:
        """Play a named tune ("press", "pick") on the buzzer, if there is one; an unknown name
        raises `UnknownTune` (as on every tray)."""
        tune(name)
        if self.capabilities.buzzer:
            self.player.buzz(self._tunes[name])

    def healthy(self) -> bool:
        """For the service's watchdog: the scheduler thread still runs jobs."""
        return not self._closed and self.scheduler.alive(timeout=2.0)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            if self._deliver is not None:
                self.devices.button.when_activated = None
                self.devices.button.when_deactivated = None
            self.scheduler.close()
            self.devices.set_levels(DARK)
            self.devices.sound(None)
        finally:
            self.devices.close()  # releases every pin

    # --- GPIO callbacks: any thread; catch everything, only hand over ---
    def _pressed_edge(self) -> None:
        try:
            self.scheduler.call_soon(self._edge, True, self.clock())
        except Exception:
            log.exception("could not hand a button edge to the tray scheduler")

    def _released_edge(self) -> None:
        try:
            self.scheduler.call_soon(self._edge, False, self.clock())
        except Exception:
            log.exception("could not hand a button edge to the tray scheduler")

    # --- scheduler thread ---
    def _edge(self, pressed: bool, t: float) -> None:
        assert self.detector is not None
        self._emit(self.detector.feed(pressed, t))
        self._rearm()

    def _timer(self, when: float) -> None:
        if when != self._armed or self.detector is None:
            return  # superseded by a later deadline
        self._armed = None
        self._emit(self.detector.poll(self.scheduler.clock()))
        self._rearm()

    def _rearm(self) -> None:
        deadline = self.detector.next_deadline if self.detector else None
        if deadline is not None and deadline != self._armed:
            self._armed = deadline
            self.scheduler.call_at(deadline, self._timer, deadline)

    def _emit(self, events: list[Event]) -> None:
        for event in events:
            try:
                if self._deliver is not None:
                    self._deliver(event)
            except Exception:
                log.exception("the tray's deliver() raised on %s", event.type)
