"""Every tray honours the `Tray` protocol the same way: the GPIO tray (MockFactory pins, which is
also the emulator) and the USB tray (the reference firmware on a pty)."""

from __future__ import annotations

import time

import pytest

from firmware_bridge.emulator import Emulator
from firmware_bridge.host import BridgeSettings
from firmware_bridge.tray import SerialTray
from tray.backend import Tray, UnknownTune
from tray.bus import Bus
from tray.events import PickSettled
from tray.gpio_tray import GpioTray
from tray.pick import Picker
from tray.service import TrayService

FAST = BridgeSettings(
    heartbeat_s=0.05,
    deadline_s=0.4,
    handshake_first_s=0.05,
    handshake_max_s=0.2,
    rescan_s=0.02,
    refused_retry_s=0.2,
)


@pytest.fixture(params=["gpio", "usb"])
def backend(request, mock_factory, quick_config):
    """(a function making a new, unopened tray; whether that tray lends its loop)."""
    made: list[Tray] = []
    emulators: list[Emulator] = []

    def new_tray() -> Tray:
        if request.param == "gpio":
            tray: Tray = GpioTray(quick_config)
        else:
            emulator = Emulator()
            emulator.start()
            emulators.append(emulator)
            tray = SerialTray("emulator", settings=FAST, resolve=lambda: emulator.path)
        made.append(tray)
        return tray

    yield new_tray, request.param == "gpio"
    for tray in made:
        tray.close()
    for emulator in emulators:
        emulator.unplug()


@pytest.fixture
def opened(backend):
    new_tray, lends = backend
    tray = new_tray()
    tray.open(lambda event: None)
    if isinstance(tray, SerialTray):
        assert tray.bridge is not None and tray.bridge.wait_linked(5)
    return tray, lends


def test_each_tray_is_a_tray(opened):
    tray, _ = opened
    assert isinstance(tray, Tray)
    assert tray.capabilities.leds == 4


def test_each_tray_lends_its_loop_or_says_it_has_none(opened):
    tray, lends = opened
    if lends:
        assert tray.scheduler is not None and tray.scheduler.alive()
    else:
        assert tray.scheduler is None


def test_each_tray_is_healthy_while_open_and_not_once_closed(opened):
    tray, _ = opened
    assert tray.healthy()
    tray.close()
    assert not tray.healthy()
    tray.close()  # twice is fine


@pytest.mark.parametrize("name", ["fanfare", "", "PICK"])
def test_each_tray_refuses_an_unknown_tune_the_same_way(opened, name):
    tray, _ = opened
    with pytest.raises(UnknownTune, match=f"unknown tune {name!r}; known: press, pick"):
        tray.buzz(name)
    tray.buzz("pick")  # a known one plays (or, without a buzzer, does nothing)


def test_the_service_runs_on_each_tray_the_same_way(backend, quick_config, recorder):
    new_tray, lends = backend
    tray = new_tray()
    bus = Bus()
    bus.subscribe(recorder)
    service = TrayService(tray, bus, Picker(seed=2), quick_config)
    service.start()
    try:
        assert service.healthy()
        assert (service._loop is tray.scheduler) == lends
        service.press()
        [settled] = recorder.wait_for(PickSettled)
        assert settled.seq == 1
    finally:
        service.stop()
    deadline = time.monotonic() + 5
    while tray.healthy() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not tray.healthy()
