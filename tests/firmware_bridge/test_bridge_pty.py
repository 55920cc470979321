"""The host bridge against the real firmware logic over a real pseudo-terminal."""

import dataclasses
import random

import pytest

from firmware_bridge import open_tray
from firmware_bridge.emulator import Emulator
from firmware_bridge.events import TrayLinked
from firmware_bridge.firmware import wire
from firmware_bridge.ticks import TICKS_PERIOD, ticks_diff
from firmware_bridge.tray import SerialTray
from tests.helpers.bridge import FAST, Events, eventually
from tray.backend import Capabilities, Frame, Tray
from tray.events import ButtonHeld, ButtonPressed, Fault


def test_handshake_reports_the_device(linked):
    tray, emulator, events = linked
    (link,) = events.wait_for(TrayLinked)
    assert (link.port, link.board, link.firmware) == (emulator.path, "emulator", "1.0.0")
    assert tray.capabilities == Capabilities(leds=4, pwm=True, buzzer=True)
    assert isinstance(tray, Tray)


def test_a_tap_is_delivered_as_one_button_pressed(linked):
    _tray, emulator, events = linked
    emulator.tap()
    (press,) = events.wait_for(ButtonPressed)
    assert press.source == "serial"
    emulator.tap()
    events.wait_for(ButtonPressed, 2)
    assert not events.of(ButtonHeld)


def test_a_hold_is_delivered_as_button_held_and_not_as_a_tap(linked):
    _tray, emulator, events = linked
    emulator.press()
    (held,) = events.wait_for(ButtonHeld)
    emulator.release()
    assert held.seconds >= FAST.hold_s
    eventually(lambda: not emulator.firmware.pressed)  # past the debounce, or it is bounce
    emulator.tap()  # the next tap still arrives, and the hold's release was not one
    events.wait_for(ButtonPressed)
    assert len(events.of(ButtonPressed)) == 1


def test_lights_and_shows_reach_the_leds(linked):
    tray, emulator, _ = linked
    tray.set_lights((1.0, 0.0, 0.5, 0.0))
    eventually(lambda: emulator.lights() == (1.0, 0.0, 128 * 257 / 65535, 0.0))
    frames = [Frame((float(i % 2), 0.0, 0.0, 0.0), 0.001) for i in range(99)]
    frames.append(Frame((0.0, 0.0, 0.0, 1.0), 0.01))  # > one SHOW_DATA message of frames
    tray.play(frames)
    eventually(lambda: emulator.lights() == (0.0, 0.0, 0.0, 1.0))


def test_bad_levels_are_refused_before_anything_is_sent(linked):
    tray, _, _ = linked
    with pytest.raises(ValueError, match=r"outside 0\.\.1"):
        tray.set_lights((1.5, 0, 0, 0))
    with pytest.raises(ValueError, match="4 levels"):
        tray.set_lights((1.0, 0.0))
    with pytest.raises(ValueError, match="at least one frame"):
        tray.play([])
    with pytest.raises(ValueError, match="unknown tune 'fanfare'"):
        tray.buzz("fanfare")


def test_buzz_sounds_the_buzzer(linked):
    tray, emulator, _ = linked
    tray.buzz("pick")
    eventually(lambda: emulator.firmware.buzzer.freq() == 1319)


def test_heartbeats_flow_both_ways(linked):
    tray, emulator, _ = linked
    first = eventually(lambda: tray.bridge.last_reply)
    eventually(lambda: tray.bridge.last_reply.token > first.token + 2)
    assert tray.bridge.last_reply.mode == wire.MODE_LINKED
    assert emulator.firmware.mode == wire.MODE_LINKED


def test_unplug_publishes_a_fault_and_replug_recovers_without_restart(linked):
    tray, emulator, events = linked
    tray.set_lights((0.0, 1.0, 0.0, 0.0))
    eventually(lambda: emulator.lights()[1] == 1.0)
    emulator.tap()
    events.wait_for(ButtonPressed)
    emulator.unplug()
    fault = events.wait_for(Fault)[0]  # later faults may follow (a rescan)
    assert fault.kind == "serial_lost"
    eventually(lambda: not tray.bridge.linked.is_set())
    tray.set_lights((0.0, 0.0, 1.0, 0.0))  # while unplugged: remembered, not lost
    emulator.start()  # a new pty, a freshly booted firmware with dark LEDs
    events.wait_for(TrayLinked, 2)
    eventually(lambda: emulator.lights() == (0.0, 0.0, 1.0, 0.0))  # state re-sent
    emulator.tap()  # the rebooted device numbers its events from 1 again: not a duplicate
    events.wait_for(ButtonPressed, 2)


def test_a_device_that_restarts_behind_an_open_port_is_relinked(linked):
    tray, emulator, events = linked
    tray.set_lights((0.0, 0.0, 0.0, 1.0))
    eventually(lambda: emulator.lights()[3] == 1.0)
    emulator.tap()
    events.wait_for(ButtonPressed)
    emulator.reboot()  # forgets the link and the lights; the host's next frame gets an error
    eventually(lambda: emulator.lights() == (0.0, 0.0, 0.0, 1.0))
    emulator.tap()
    events.wait_for(ButtonPressed, 2)


def test_standalone_picks_are_reported_when_the_host_returns(emulator):
    settings = dataclasses.replace(FAST, device_lost_s=0.2)
    first = SerialTray("x", settings=settings, resolve=lambda: emulator.path)
    first.open(Events())
    assert first.bridge.wait_linked(5)
    first.close()  # the host goes away; the device notices after device_lost_s
    eventually(lambda: emulator.firmware.mode == wire.MODE_STANDALONE)
    emulator.tap()  # a pick of its own
    eventually(lambda: sum(emulator.lights()) == 1.0)
    events = Events()
    again = SerialTray("x", settings=settings, resolve=lambda: emulator.path)
    try:
        again.open(events)
        fault = events.wait_for(Fault)[0]  # later faults may follow (a rescan)
        assert fault.kind == "serial_standalone" and "1 pick" in fault.message
    finally:
        again.close()


def test_silence_past_the_deadline_is_a_lost_link(linked):
    _tray, emulator, events = linked
    emulator.firmware.feed = lambda data: None  # the device hangs: still plugged, never answers
    fault = events.wait_for(Fault)[0]  # later faults may follow (a rescan)
    assert fault.kind == "serial_lost" and "no frame" in fault.message


def test_noise_neither_crashes_nor_presses(linked):
    tray, emulator, events = linked
    noise = random.Random(1).randbytes(1 << 20)
    for i in range(0, len(noise), 4096):
        emulator.inject(noise[i : i + 4096])
    eventually(lambda: tray.bridge.counters.dropped > 1000)
    emulator.tap()
    events.wait_for(ButtonPressed)
    assert len(events.of(ButtonPressed)) == 1 and not events.of(ButtonHeld)
    assert tray.bridge.linked.is_set()


def test_frames_split_across_reads_at_every_offset(linked):
    tray, emulator, events = linked
    # A BUTTON frame written to the pty in two parts, cut at each offset: one press each time.
    for cut in range(len(_tap_frame(1))):
        frame = _tap_frame(1000 + cut)
        emulator.inject(frame[:cut], frame[cut:], gap_s=0.002)
        events.wait_for(ButtonPressed, cut + 1)
    assert tray.bridge.counters.dropped == 0


def test_a_tap_whose_first_sending_was_lost_is_taken_when_its_resend_comes_after_a_newer_one(
    linked,
):
    """Tap 2000's first sending is lost on the line; tap 2001 arrives, then 2000's resend: both
    are taps, each once (later resends of either change nothing)."""
    _tray, emulator, events = linked
    emulator.inject(_tap_frame(2001))
    events.wait_for(ButtonPressed, 1)
    emulator.inject(_tap_frame(2000))
    events.wait_for(ButtonPressed, 2)
    for resend in (2000, 2001, 2000, 1999 - 64):  # resends, and one too far behind to be new
        emulator.inject(_tap_frame(resend))
    emulator.inject(_tap_frame(2002, wire.KIND_HOLD))  # read after them all: a marker
    events.wait_for(ButtonHeld)
    assert len(events.of(ButtonPressed)) == 2


def _tap_frame(event_no, kind=wire.KIND_UP):
    from firmware_bridge import protocol as p

    return p.encode(p.Button(event_no, kind, 5, 80 if kind == wire.KIND_UP else 1500), 0)


def test_a_newer_firmware_is_refused_naming_the_host_to_update():
    emulator = Emulator(major_range=(2, 2))
    emulator.start()
    events = Events()
    tray = SerialTray("x", settings=FAST, resolve=lambda: emulator.path)
    try:
        tray.open(events)
        fault = events.wait_for(Fault)[0]  # later faults may follow (a rescan)
        assert fault.kind == "serial_version"
        assert "update tinker-tray on the host" in fault.message
        assert not tray.bridge.linked.is_set()
        assert emulator.firmware.mode == wire.MODE_STANDALONE
    finally:
        tray.close()
        emulator.unplug()


def test_an_older_firmware_is_refused_naming_the_firmware_to_update(monkeypatch):
    monkeypatch.setattr("firmware_bridge.host.HOST_MAJORS", (2, 3))
    emulator = Emulator()
    emulator.start()
    events = Events()
    tray = SerialTray("x", settings=FAST, resolve=lambda: emulator.path)
    try:
        tray.open(events)
        fault = events.wait_for(Fault)[0]  # later faults may follow (a rescan)
        assert "update the firmware on the tray" in fault.message
    finally:
        tray.close()
        emulator.unplug()


def test_no_device_is_a_fault_and_it_keeps_looking():
    events = Events()
    emulator = Emulator()
    tray = SerialTray("x", settings=FAST, resolve=lambda: emulator.path)
    try:
        tray.open(events)
        fault = events.wait_for(Fault)[0]  # later faults may follow (a rescan)
        assert fault.kind == "serial_missing"
        emulator.start()
        events.wait_for(TrayLinked)
    finally:
        tray.close()
        emulator.unplug()


def test_a_silent_port_is_reported():
    import os

    master, slave = os.openpty()  # a tty with nothing behind it
    events = Events()
    tray = SerialTray(os.ttyname(slave), settings=FAST)
    try:
        tray.open(events)
        fault = events.wait_for(Fault)[0]
        assert fault.kind == "serial_silent" and "firmware" in fault.message
    finally:
        tray.close()
        os.close(master)
        os.close(slave)


def test_open_tray_emulate_runs_end_to_end_and_close_stops_the_emulator():
    tray = open_tray(emulate=True, settings=FAST)
    events = Events()
    tray.open(events)
    emulator = tray._emulator
    try:
        events.wait_for(TrayLinked)
        emulator.tap()
        events.wait_for(ButtonPressed)
    finally:
        tray.close()
        tray.close()  # twice is fine
    assert emulator.path is None


def test_the_emulated_tray_works_on_across_its_tick_counters_wrap():
    """The emulator's clock wraps at 2**30 as a Pico's does: started 300 ms before, the host
    links, heartbeats, a show and a tap all carry on across it."""
    emulator = Emulator(ticks_start=TICKS_PERIOD - 300)
    emulator.start()
    events = Events()
    tray = SerialTray("emulator", settings=FAST, resolve=lambda: emulator.path)
    try:
        tray.open(events)
        assert tray.bridge.wait_linked(5)
        fw = emulator.firmware
        eventually(lambda: ticks_diff(fw._ticks(), 0) > 100)  # past the wrap
        frames = [Frame((1.0, 0.0, 0.0, 0.0), 0.05), Frame((0.0, 0.0, 0.0, 1.0), 0.01)]
        tray.play(frames)
        eventually(lambda: emulator.lights() == (0.0, 0.0, 0.0, 1.0))
        emulator.tap()
        events.wait_for(ButtonPressed)
        assert tray.bridge.last_reply.mode == wire.MODE_LINKED
    finally:
        tray.close()
        emulator.unplug()
