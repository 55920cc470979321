"""`tinker-tray bridge deploy`: which files it copies and how it calls mpremote, without a Pico
(pyserial's real ListPortInfo for the ports, a stand-in mpremote script for the tool)."""

import stat
import sys
from pathlib import Path

import pytest
from serial.tools.list_ports_common import ListPortInfo

import firmware_bridge
from cli.commands import bridge as bridge_cli
from cli.main import main
from firmware_bridge import ports


def port(device, vid=None, pid=None, serial_number=None):
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid, info.serial_number, info.description = vid, pid, serial_number, "n/a"
    return info


PICO = port("/dev/ttyACM1", 0x2E8A, 0x0005, "E6614C311B7A2B2C")
OTHER = port("/dev/ttyUSB0", 0x0403, 0x6001, "A50285BI")
FIRMWARE = Path(firmware_bridge.__file__).with_name("firmware")


@pytest.fixture
def fake_mpremote(tmp_path, monkeypatch):
    """An executable standing in for mpremote: records its arguments, exits with $FAKE_EXIT."""
    log = tmp_path / "args"
    script = tmp_path / "mpremote"
    script.write_text(
        f"#!{sys.executable}\nimport os, sys\n"
        f"open({str(log)!r}, 'w').write('\\n'.join(sys.argv[1:]))\n"
        "sys.exit(int(os.environ.get('FAKE_EXIT', '0')))\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setattr(bridge_cli, "mpremote", lambda: [str(script)])
    return log


def test_the_files_deployed_are_every_module_the_pico_runs():
    files = bridge_cli.firmware_files()
    assert [f.name for f in files] == ["wire.py", "tinkerfw.py", "main.py"]
    assert all(f.is_file() for f in files)
    shipped = {p.name for p in FIRMWARE.glob("*.py") if not p.name.startswith("__")}
    assert shipped == {f.name for f in files}


def test_dry_run_prints_each_copy_and_the_command(monkeypatch, capsys, fake_mpremote):
    monkeypatch.setattr(ports.list_ports, "comports", lambda: [OTHER, PICO])
    monkeypatch.setattr(ports, "by_id_links", lambda: {})
    assert main(["bridge", "deploy", "--dry-run"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == [
        f"copy {FIRMWARE / n} -> /dev/ttyACM1:/{n}" for n in ("wire.py", "tinkerfw.py", "main.py")
    ]
    assert out[3].endswith(
        f"connect /dev/ttyACM1 cp {FIRMWARE / 'wire.py'} "
        f"{FIRMWARE / 'tinkerfw.py'} {FIRMWARE / 'main.py'} : + reset"
    )
    assert not fake_mpremote.exists()  # nothing ran


def test_deploy_runs_mpremote_on_the_port_given(tmp_path, capsys, fake_mpremote):
    device = tmp_path / "ttyACM7"
    device.touch()
    assert main(["bridge", "deploy", "--port", str(device)]) == 0
    args = fake_mpremote.read_text().splitlines()
    assert args == [
        "connect",
        str(device),
        "cp",
        *(str(f) for f in bridge_cli.firmware_files()),
        ":",
        "+",
        "reset",
    ]
    assert "firmware deployed" in capsys.readouterr().out


def test_a_failing_mpremote_is_one_line_and_a_nonzero_exit(
    tmp_path, capsys, fake_mpremote, monkeypatch
):
    monkeypatch.setenv("FAKE_EXIT", "3")
    device = tmp_path / "ttyACM7"
    device.touch()
    assert main(["bridge", "deploy", "--port", str(device)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "tinker-tray: mpremote failed (exit 3); the tray may hold part of the old "
        "firmware: run the command again"
    ]


def test_without_mpremote_it_says_how_to_get_it(monkeypatch, capsys):
    monkeypatch.setattr(bridge_cli, "mpremote", lambda: None)
    assert main(["bridge", "deploy"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "tinker-tray: deploying needs mpremote: pip install 'tinker-tray[firmware]' "
        "(or pipx install mpremote)"
    ]


def test_without_a_pico_it_says_so_in_one_line(monkeypatch, capsys, fake_mpremote):
    monkeypatch.setattr(ports.list_ports, "comports", lambda: [OTHER])
    assert main(["bridge", "deploy"]) == 1
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("tinker-tray: no Pico running MicroPython (USB 2E8A:0005) is plugged")


def test_a_port_that_does_not_exist_is_named(tmp_path, capsys, fake_mpremote):
    missing = tmp_path / "ttyNOPE"
    assert main(["bridge", "deploy", "--port", str(missing)]) == 1
    assert capsys.readouterr().err.strip() == f"tinker-tray: no such port: {missing}"


def test_two_picos_without_a_serial_number_ask_for_one(monkeypatch, capsys, fake_mpremote):
    other_pico = port("/dev/ttyACM2", 0x2E8A, 0x0005, "FFFF")
    monkeypatch.setattr(ports.list_ports, "comports", lambda: [PICO, other_pico])
    assert main(["bridge", "deploy"]) == 1
    assert "2 trays plugged in" in capsys.readouterr().err
    assert main(["bridge", "deploy", "--port", "auto:FFFF", "--dry-run"]) == 0
    assert "connect /dev/ttyACM2 cp" in capsys.readouterr().out


def test_unknown_options_are_refused(capsys):
    with pytest.raises(SystemExit):
        main(["bridge", "deploy", "--force"])
