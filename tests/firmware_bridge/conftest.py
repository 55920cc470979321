import pytest

from firmware_bridge.emulator import Emulator
from firmware_bridge.tray import SerialTray
from tests.helpers.bridge import FAST, Events
from tests.helpers.firmware_device import (
    CPython,
    Device,
    MicroPython,
    compile_for_pico,
    firmware_files,
    need_micropython,
)


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
def pico_build(tmp_path_factory):
    """The firmware compiled by mpy-cross for the Pico's armv6m, as .mpy files."""
    need_micropython()
    out = tmp_path_factory.mktemp("pico")
    compile_for_pico(out)
    return out


@pytest.fixture(scope="session")
def micropython_process():
    """One node process running MicroPython's WebAssembly port on the firmware's sources, for
    the whole session (each test boots a fresh firmware in it); skipped where it cannot run,
    failed under CI=true."""
    need_micropython()
    mp = MicroPython(firmware_files(), name="MicroPython")
    yield mp
    mp.close()


@pytest.fixture(scope="session")
def micropython_mpy_process(pico_build):
    """The same, running the firmware as mpy-cross compiled it for the Pico (.mpy)."""
    mp = MicroPython(firmware_files(pico_build), name="MicroPython (.mpy for armv6m)")
    yield mp
    mp.close()


@pytest.fixture(params=["cpython", "micropython", "micropython-mpy"])
def make_device(request):
    """Boots a firmware: under CPython, or under MicroPython (from source, or compiled for the
    Pico) in lockstep with CPython, every reply compared byte for byte."""
    backends = [CPython()]
    if request.param == "micropython":
        backends.append(request.getfixturevalue("micropython_process"))
    elif request.param == "micropython-mpy":
        backends.append(request.getfixturevalue("micropython_mpy_process"))
    return lambda **boot: Device(list(backends), **boot)


@pytest.fixture
def dev(make_device):
    return make_device()
