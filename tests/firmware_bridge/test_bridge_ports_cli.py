"""Port discovery (with pyserial's real ListPortInfo objects) and the `bridge` subcommand."""

import pytest
from serial.tools.list_ports_common import ListPortInfo

from cli.main import main
from firmware_bridge import ports


def port(device, vid=None, pid=None, serial_number=None, description="n/a"):
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid, info.serial_number, info.description = vid, pid, serial_number, description
    return info


PICO = port("/dev/ttyACM1", 0x2E8A, 0x0005, "E6614C311B7A2B2C", "Board in FS mode")
OTHER = port("/dev/ttyUSB0", 0x0403, 0x6001, "A50285BI", "FT232R")
LINKS = {"/dev/ttyACM1": "/dev/serial/by-id/usb-MicroPython_Board_E6614C311B7A2B2C-if00"}


def test_trays_come_first_with_their_by_id_path():
    found = ports.candidates(lambda: [OTHER, PICO], links=LINKS)
    assert [c.device for c in found] == ["/dev/ttyACM1", "/dev/ttyUSB0"]
    assert found[0].is_tray and found[0].path == LINKS["/dev/ttyACM1"]
    assert found[1].path == "/dev/ttyUSB0" and found[1].usb_id == "0403:6001"


def test_find_port_by_id_and_serial_number():
    assert ports.find_port(comports=lambda: [OTHER, PICO], links=LINKS) == LINKS["/dev/ttyACM1"]
    assert ports.find_port("E6614C311B7A2B2C", lambda: [PICO], links={}) == "/dev/ttyACM1"
    assert ports.find_port("nope", lambda: [PICO], links={}) is None
    assert ports.find_port(comports=lambda: [OTHER], links={}) is None


def test_two_trays_without_a_serial_number_is_a_clear_error():
    twin = port("/dev/ttyACM2", 0x2E8A, 0x0005, "FFFF")
    with pytest.raises(ports.AmbiguousPort, match="auto:SERIALNUMBER"):
        ports.find_port(comports=lambda: [PICO, twin], links={})


def test_resolver_kinds(tmp_path):
    missing = tmp_path / "ttyACM9"
    assert ports.resolver(str(missing))() is None
    missing.touch()
    assert ports.resolver(str(missing))() == str(missing)
    assert ports.resolver("socket://127.0.0.1:7777")() == "socket://127.0.0.1:7777"


def test_by_id_links_of_a_missing_directory_is_empty(tmp_path):
    assert ports.by_id_links(str(tmp_path / "absent")) == {}


def test_bridge_ports_lists_devices(monkeypatch, capsys):
    monkeypatch.setattr(ports.list_ports, "comports", lambda: [OTHER, PICO])
    assert main(["bridge", "ports"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("tray  2E8A:0005") and "E6614C311B7A2B2C" in out[0]


def test_bridge_ports_without_a_tray_says_so(monkeypatch, capsys):
    monkeypatch.setattr(ports.list_ports, "comports", lambda: [OTHER])
    assert main(["bridge", "ports"]) == 1
    assert "none of these is a MicroPython Pico" in capsys.readouterr().out


def test_bridge_monitor_against_the_emulator_shows_the_handshake(capsys):
    assert main(["bridge", "monitor", "--emulate", "--seconds", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "host → tray  Hello" in out and "tray → host  HelloReply" in out
    assert '"type":"tray_linked"' in out and "counters" in out


def test_bridge_emulate_prints_the_pty_path(capsys):
    assert main(["bridge", "emulate", "--seconds", "0"]) == 0
    assert "emulated tray on /dev/pts/" in capsys.readouterr().out


def test_bridge_needs_an_action(capsys):
    with pytest.raises(SystemExit):
        main(["bridge"])


def test_the_udev_rules_are_named_for_what_they_do_and_say_each_fact_once():
    """Installed side by side in /etc/udev/rules.d, two files of one name would overwrite each
    other: the GPIO rule and the USB tray's rule have names of their own, and the Pico's tty
    rule lives in the USB one only."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    rules = sorted(p for p in root.glob("*/*.rules"))
    names = [p.name for p in rules]
    assert sorted(names) == ["99-tinker-tray-gpio.rules", "99-tinker-tray-usb.rules"]
    pico = [p.name for p in rules if 'ATTRS{idVendor}=="2e8a"' in p.read_text()]
    gpio = [p.name for p in rules if 'SUBSYSTEM=="gpio"' in p.read_text()]
    assert pico == ["99-tinker-tray-usb.rules"] and gpio == ["99-tinker-tray-gpio.rules"]
