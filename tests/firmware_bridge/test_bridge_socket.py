"""What users open, opened: a `socket://` URL links end to end (the emulated firmware served on
a local TCP port), and a device announcing values the protocol refuses is refused with a
message, retried, and works once it answers sanely."""

import pytest

from firmware_bridge.emulator import Emulator
from firmware_bridge.events import TrayLinked
from firmware_bridge.host import show_frames
from firmware_bridge.tray import SerialTray
from tests.helpers.bridge import FAST, Events, eventually
from tray.backend import Frame
from tray.events import ButtonPressed, Fault


@pytest.fixture
def tcp_emulator():
    emu = Emulator()
    emu.start_tcp()
    yield emu
    emu.unplug()


def test_a_socket_url_links_end_to_end(tcp_emulator):
    url = tcp_emulator.path
    assert url.startswith("socket://127.0.0.1:")
    events = Events()
    tray = SerialTray(url, settings=FAST)  # resolved as given: a pyserial URL
    tray.open(events)
    try:
        assert tray.bridge.wait_linked(5)
        [linked] = events.wait_for(TrayLinked)
        assert linked.port == url and linked.board == "emulator"
        tcp_emulator.tap()
        [press] = events.wait_for(ButtonPressed)
        assert press.source == "serial"
        tray.set_lights((0.0, 1.0, 0.0, 0.0))
        eventually(lambda: tcp_emulator.lights() == (0.0, 1.0, 0.0, 0.0))
        tray.play([Frame((1.0, 0.0, 0.0, 0.0), 0.01), Frame((0.0, 0.0, 0.0, 1.0), 0.0)])
        eventually(lambda: tcp_emulator.lights() == (0.0, 0.0, 0.0, 1.0))
    finally:
        tray.close()


def test_a_socket_url_with_nobody_listening_is_a_fault_not_a_crash():
    import socket

    with socket.create_server(("127.0.0.1", 0)) as s:
        port = s.getsockname()[1]
    events = Events()
    tray = SerialTray(f"socket://127.0.0.1:{port}", settings=FAST)
    tray.open(events)
    try:
        [fault] = events.wait_for(Fault)
        assert fault.kind == "serial_missing" and f"127.0.0.1:{port}" in fault.message
        assert tray.healthy()  # still looking: no reason for the watchdog to restart anything
    finally:
        tray.close()


@pytest.mark.parametrize("max_show", [0, 1, 60000])
def test_a_device_announcing_an_absurd_max_show_is_refused_then_taps_work_on_a_good_link(
    emulator, max_show
):
    emulator.firmware.max_show = max_show
    events = Events()
    tray = SerialTray("emulator", settings=FAST, resolve=lambda: emulator.path)
    tray.open(events)
    try:
        refused = eventually(lambda: [f for f in events.of(Fault) if f.kind == "serial_refused"])
        assert f"max_show = {max_show} is not allowed (max_show is 2 to 4096)" in refused[0].message
        assert tray.bridge.device is None and not tray.bridge.linked.is_set()
        tray.play([Frame((1.0, 0.0, 0.0, 0.0), 0.0)])  # no device yet: kept, returns at once
        emulator.firmware.max_show = 128  # the firmware is fixed (or the right one flashed)
        assert tray.bridge.wait_linked(5)
        emulator.tap()
        events.wait_for(ButtonPressed)
        tray.play([Frame((0.0, 0.0, 1.0, 0.0), 0.0)])
        eventually(lambda: emulator.lights() == (0.0, 0.0, 1.0, 0.0))
    finally:
        tray.close()


@pytest.mark.parametrize("max_frames", [0, 1, -5])
def test_a_show_for_a_device_with_no_room_is_refused_not_looped_on(max_frames):
    with pytest.raises(ValueError, match="at least 2 frames"):
        show_frames([Frame((1.0, 0.0, 0.0, 0.0), 0.1)] * 3, max_frames)


def test_bridge_emulate_serves_a_socket_url(capsys):
    from cli.main import main

    assert main(["bridge", "emulate", "--tcp", "0", "--seconds", "0"]) == 0
    out = capsys.readouterr().out
    assert "emulated tray on socket://127.0.0.1:" in out and "run --serial socket://" in out


def test_bridge_emulate_on_a_port_in_use_says_so_in_one_line(capsys):
    import socket

    from cli.main import main

    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        assert main(["bridge", "emulate", "--tcp", str(port), "--seconds", "0"]) == 1
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"tinker-tray: cannot serve the emulated tray on port {port}: ")
    assert main(["bridge", "emulate", "--tcp", "70000"]) == 2
