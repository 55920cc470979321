"""Picks as the tray service posts them, for display tests that run without a tray."""

from __future__ import annotations

import dataclasses
import threading
import time

from tray import show
from tray.bus import Bus
from tray.config import ShowSettings
from tray.events import Pick, PickSettled


def shown(pick: Pick, settings: ShowSettings, started: float) -> Pick:
    """`pick` stamped as the service stamps it: its show started at `started` (monotonic) and
    lands one spin later."""
    spin = show.spin_seconds(settings, pick.colour, pick.lead)
    return dataclasses.replace(pick, shown_at=started, settles_at=started + spin)


class ShowingTray:
    """Publishes a pick as the tray service does: stamped with its show on time.monotonic(),
    then `PickSettled` when the show lands (on a timer thread: fine in a test)."""

    def __init__(self, bus: Bus, settings: ShowSettings) -> None:
        self.bus, self.settings = bus, settings
        self.timers: list[threading.Timer] = []

    def publish(self, pick: Pick) -> Pick:
        pick = shown(pick, self.settings, time.monotonic())
        self.bus.publish(pick)
        assert pick.settles_at is not None
        timer = threading.Timer(
            max(0.0, pick.settles_at - time.monotonic()), self.bus.publish, (PickSettled(pick.seq),)
        )
        timer.daemon = True
        timer.start()
        self.timers.append(timer)
        return pick

    def close(self) -> None:
        for timer in self.timers:
            timer.cancel()
