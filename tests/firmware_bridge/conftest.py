import pytest
from bridge_helpers import FAST, Events

from firmware_bridge.emulator import Emulator
from firmware_bridge.tray import SerialTray


@pytest.fixture
def emulator():
    emu = Emulator()
    emu.start()
    yield emu
    emu.unplug()


@pytest.fixture
def linked(emulator):
    """A SerialTray linked to an emulated tray over a real pty, and its event log."""
    events = Events()
    tray = SerialTray("emulator", settings=FAST, resolve=lambda: emulator.path)
    tray.open(events)
    assert tray.bridge.wait_linked(5)
    yield tray, emulator, events
    tray.close()
