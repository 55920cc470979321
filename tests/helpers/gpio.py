"""gpiozero's MockFactory, installed for one test at a time."""

from __future__ import annotations

import contextlib

from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin


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
