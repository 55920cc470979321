import pytest
from bridge_helpers import FAST, Events
from firmware_device import CPython, Device, MicroPython, need_micropython

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


@pytest.fixture(scope="session")
def micropython_process():
    """One node process running MicroPython's WebAssembly port for the whole session (each
    test boots a fresh firmware in it); skipped where it cannot run, failed under CI=true."""
    need_micropython()
    mp = MicroPython()
    yield mp
    mp.close()


@pytest.fixture(params=["cpython", "micropython"])
def make_device(request):
    """Boots a firmware: under CPython, or under MicroPython in lockstep with CPython (every
    reply compared byte for byte)."""
    backends = [CPython()]
    if request.param == "micropython":
        backends.append(request.getfixturevalue("micropython_process"))
    return lambda **boot: Device(list(backends), **boot)


@pytest.fixture
def dev(make_device):
    return make_device()
