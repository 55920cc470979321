"""The GPIO tray on gpiozero's MockFactory pins: real gpiozero devices, our debounce."""

from __future__ import annotations

import dataclasses
import threading
import time

import pytest

from tray.backend import DARK, Frame, Tray
from tray.events import ButtonHeld, ButtonPressed, Fault
from tray.gpio_tray import GpioTray
from tray.player import Scheduler


@pytest.fixture
def tray(mock_factory, quick_config, recorder):
    tray = GpioTray(quick_config)
    tray.open(recorder)
    yield tray
    tray.close()


def button_pin(tray):
    return tray.devices.button.pin


def tap(pin, bounces: int = 0):
    """A finger press: contact bounce on both edges (all inside the debounce time)."""
    for _ in range(bounces):
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    done = threading.Event()
    done.wait(0.06)  # held down longer than the 20 ms debounce time, as a finger is
    for _ in range(bounces):
        pin.drive_high()
        pin.drive_low()
    pin.drive_high()


def drain(scheduler, timeout=10.0):
    """Until every job and timer queued so far has run (a loaded machine runs them late)."""
    deadline = time.monotonic() + timeout
    while scheduler.pending() and time.monotonic() < deadline:
        threading.Event().wait(0.005)
    assert scheduler.pending() == 0, "the scheduler never caught up"
    assert scheduler.alive(timeout), "the last job never finished"


def test_it_is_a_tray(tray):
    assert isinstance(tray, Tray) and tray.capabilities.leds == 4 and tray.capabilities.pwm


def test_a_bouncy_tap_is_one_press(tray, recorder):
    tap(button_pin(tray), bounces=5)
    recorder.wait_for(ButtonPressed)
    assert tray.scheduler.alive()  # every job queued so far has run
    assert len(recorder.of(ButtonPressed)) == 1 and recorder.of(ButtonPressed)[0].source == "gpio"


def test_ten_taps_are_ten_presses(tray, recorder):
    for _ in range(10):
        tap(button_pin(tray), bounces=2)
        threading.Event().wait(0.03)  # the finger lifts for longer than the debounce time
    recorder.wait_for(ButtonPressed, 10)


def test_hold_then_stuck_on_mock_pins(tray, recorder):
    button_pin(tray).drive_low()
    [held] = recorder.wait_for(ButtonHeld)
    assert held.seconds == 0.3
    [fault] = recorder.wait_for(Fault)
    assert fault.kind == "stuck_button"
    button_pin(tray).drive_high()
    assert tray.scheduler.alive()
    assert recorder.of(ButtonPressed) == []


def test_a_raising_deliver_does_not_silence_later_presses(mock_factory, quick_config, recorder):
    calls = []

    def deliver(event):
        calls.append(event)
        if len(calls) == 1:
            raise RuntimeError("a subscriber blew up")
        recorder(event)

    tray = GpioTray(quick_config)
    tray.open(deliver)
    try:
        tap(button_pin(tray))
        threading.Event().wait(0.03)
        tap(button_pin(tray))
        recorder.wait_for(ButtonPressed)
        assert len(calls) == 2
    finally:
        tray.close()


def test_a_failing_handoff_is_caught_inside_the_gpio_callback(tray, recorder, mocker):
    mocker.patch.object(tray.scheduler, "call_soon", side_effect=RuntimeError("queue broke"))
    button_pin(tray).drive_low()  # must not raise into gpiozero (with lgpio it would kill events)
    button_pin(tray).drive_high()
    mocker.stopall()
    tap(button_pin(tray))
    recorder.wait_for(ButtonPressed)


def test_frames_reach_the_pins_in_order_and_the_last_stays(tray):
    red = tray.devices.red.pin
    tray.play([Frame((1.0, 0, 0, 0), 0.01), Frame((0.5, 0, 0, 0), 0.01), Frame((0.2, 0, 0, 0), 0)])
    drain(tray.scheduler)
    assert [s.state for s in red.states] == [0, 1.0, 0.5, 0.2]
    assert tray.devices.levels() == (0.2, 0.0, 0.0, 0.0)


def test_a_new_show_replaces_the_old_one(tray):
    tray.play([Frame((1.0, 0, 0, 0), 10.0), Frame((0, 0, 0, 1.0), 0)])
    tray.set_lights((0, 1.0, 0, 0))
    assert tray.scheduler.alive()
    assert tray.devices.levels() == (0.0, 1.0, 0.0, 0.0)


def test_calibrated_brightness_and_active_low(mock_factory, quick_config):
    leds = dict(quick_config.leds)
    leds["red"] = dataclasses.replace(leds["red"], brightness=0.5, active_high=False)
    tray = GpioTray(dataclasses.replace(quick_config, leds=leds))
    try:
        tray.set_lights((1.0, 1.0, 0, 0))
        assert tray.scheduler.alive()
        assert tray.devices.red.pin.state == pytest.approx(0.5)  # inverted duty: 1 - 0.5
        assert tray.devices.red.value == pytest.approx(0.5)
        assert tray.devices.blue.pin.state == 1.0
    finally:
        tray.close()


def test_on_off_leds_without_pwm(mock_factory, quick_config):
    tray = GpioTray(dataclasses.replace(quick_config, pwm=False))
    try:
        tray.set_lights((0.7, 0.2, 0, 0))
        assert tray.scheduler.alive()
        assert tray.devices.levels() == (1.0, 0.0, 0.0, 0.0)
    finally:
        tray.close()


def test_close_turns_the_lights_off_releases_the_pins_and_is_idempotent(mock_factory, quick_config):
    tray = GpioTray(quick_config)
    tray.open(lambda e: None)
    tray.set_lights((1, 1, 1, 1))
    assert tray.scheduler.alive()
    red = tray.devices.red.pin
    tray.close()
    tray.close()
    assert red.state == 0 and red.states[-1].state == 0
    assert not any(mock_factory._reservations.values())  # every pin is free for the next user
    again = GpioTray(quick_config)  # the same pins can be claimed again
    again.close()


def test_a_pin_already_in_use_releases_the_ones_claimed(mock_factory, quick_config):
    from gpiozero import LED

    blocker = LED(quick_config.button.pin)
    with pytest.raises(Exception, match="GPIO26"):
        GpioTray(quick_config)
    blocker.close()
    assert not any(mock_factory._reservations.values())


def test_scheduler_survives_a_raising_job_and_runs_timers_in_order():
    scheduler = Scheduler()
    seen = []
    scheduler.call_later(0.02, seen.append, "late")
    scheduler.call_soon(lambda: 1 / 0)
    scheduler.call_later(0.01, seen.append, "early")
    scheduler.call_soon(seen.append, "soon")
    deadline = time.monotonic() + 10  # a loaded machine may run the timers late, never early
    while len(seen) < 3 and time.monotonic() < deadline:
        threading.Event().wait(0.005)
    assert scheduler.alive()
    assert seen == ["soon", "early", "late"]
    scheduler.close()
    scheduler.call_soon(seen.append, "after close")
    assert not scheduler.alive(timeout=0.05) and seen[-1] == "late"


def test_dark_constant():
    assert DARK == (0.0, 0.0, 0.0, 0.0)
