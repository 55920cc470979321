"""A stop signal's handler does nothing that can block (issue 41, item 7): the signal is a
byte on a pipe the service's loop waits on (`tray.signals`).

The stop that hung once: SIGTERM's handler ran in the main thread while that thread held the
lock of the `threading.Event` it then set. Here that moment is made on purpose, in a process of
its own (so the old code's hang is a timeout, not a stuck test run)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading

import pytest

from tests.helpers.service import ROOT
from tray.signals import StopSignals

HELD_LOCK = """
from gpiozero.pins.mock import MockFactory, MockPWMPin
from tray import config
from tray.bus import Bus
from tray.gpio_tray import GpioTray
from tray.pick import Picker
from tray.service import TrayService
import signal

settings = config.load()
tray = GpioTray(settings, pin_factory=MockFactory(pin_class=MockPWMPin))
service = TrayService(tray, Bus(), Picker(), settings)
service.start()

def ready():
    # the main thread holds the stop event's own lock, as it does inside Event.wait, when
    # SIGTERM's handler runs (here, at once, in this thread)
    with service._stop_requested._cond:
        signal.raise_signal(signal.SIGTERM)

service.run_forever(ready=ready)
print("stopped", tray.devices.closed)
"""


@pytest.mark.slow  # a process of its own
def test_sigterm_while_the_main_thread_holds_the_stop_events_lock_stops_the_service():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("GPIOZERO_PIN_FACTORY", None)
    try:
        done = subprocess.run(
            [sys.executable, "-c", HELD_LOCK],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=30,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("the stop hung: the signal handler waited on a lock its thread held")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "stopped True"


def test_a_request_from_another_thread_ends_the_wait():
    with StopSignals(()) as stops:
        assert not stops.wait(0)
        threading.Timer(0.05, stops.request).start()
        assert stops.wait(10)


def test_a_signal_is_a_byte_on_the_pipe_and_the_handlers_come_back():
    before = signal.getsignal(signal.SIGTERM)
    with StopSignals() as stops:
        assert signal.getsignal(signal.SIGTERM) is not before
        signal.raise_signal(signal.SIGTERM)  # would end this process with the default handler
        assert stops.wait(10)
    assert signal.getsignal(signal.SIGTERM) is before


def test_once_a_commands_stop_has_begun_the_stop_signals_are_ignored():
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        with StopSignals(then_ignore=True) as stops:
            signal.raise_signal(signal.SIGINT)
            assert stops.wait(10)
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
        signal.raise_signal(signal.SIGINT)  # no KeyboardInterrupt: the stop is under way
        signal.raise_signal(signal.SIGTERM)
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
