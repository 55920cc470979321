"""Shared fixtures: a fresh gpiozero MockFactory per test, quick settings, event recording."""

from __future__ import annotations

import contextlib
import dataclasses
import threading

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from tray import config as tray_config
from tray.bus import Bus
from tray.events import Event


@contextlib.contextmanager
def installed_factory(pin_class=MockPWMPin):
    """Install a fresh MockFactory as the default, like gpiozero's own tests: MockFactory.close()
    does not release pins, so reset() it and restore the previous factory afterwards."""
    previous = Device.pin_factory
    factory = MockFactory(pin_class=pin_class)
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = previous


@pytest.fixture
def mock_factory():
    """A fresh MockFactory with PWM-capable pins, installed as the default."""
    with installed_factory() as factory:
        yield factory


@pytest.fixture
def quick_config():
    """The default pin map with a show a few tens of milliseconds long and short button times."""
    base = tray_config.load()
    return dataclasses.replace(
        base,
        button=dataclasses.replace(base.button, debounce_s=0.02, hold_s=0.3, stuck_s=0.6),
        show=dataclasses.replace(
            base.show, steps=4, first_step_s=0.01, last_step_s=0.02, blinks=1, blink_s=0.02,
            lit_s=0.05,
        ),
    )


class Recorder:
    """A bus subscriber (or a tray's deliver) that lets a test wait for events, not sleep."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self._cond = threading.Condition()

    def __call__(self, event: Event) -> None:
        with self._cond:
            self.events.append(event)
            self._cond.notify_all()

    def of(self, kind: type[Event]) -> list[Event]:
        with self._cond:
            return [e for e in self.events if isinstance(e, kind)]

    def wait_for(self, kind: type[Event], count: int = 1, timeout: float = 5.0) -> list[Event]:
        with self._cond:
            ok = self._cond.wait_for(lambda: len(self.of(kind)) >= count, timeout)
        assert ok, f"expected {count} {kind.__name__}, got {self.events}"
        return self.of(kind)


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def bus(recorder) -> Bus:
    bus = Bus()
    bus.subscribe(recorder)
    return bus
