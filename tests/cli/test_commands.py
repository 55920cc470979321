"""The commands as a person (or CI) runs them: subprocesses, signals, exit codes."""

from __future__ import annotations

import argparse
import io
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from cli import main as cli
from cli.commands import bench
from tests.helpers.config import QUICK_PIN_MAP
from tests.helpers.service import spawn
from tray.backend import COLOURS
from tray.config import load

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def quick_file(tmp_path) -> Path:
    path = tmp_path / "pins.toml"
    path.write_text(QUICK_PIN_MAP)
    return path


_started: list[subprocess.Popen] = []


@pytest.fixture(autouse=True)
def _no_process_left_behind():
    """A test that fails half-way must not leave its service running (holding a port, a CPU)."""
    yield
    while _started:
        proc = _started.pop()
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def tinker(*args: str, **kw) -> subprocess.Popen:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("GPIOZERO_PIN_FACTORY", None)
    proc = spawn(*args, env=env, **kw)
    _started.append(proc)
    return proc


@pytest.mark.slow  # a subprocess
def test_emulate_scripted_presses(quick_file):
    proc = tinker("emulate", "--config", str(quick_file), "--presses", "3", "--no-web")
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    lines = [line for line in out.splitlines() if line.startswith("pick #")]
    assert [line.split(":")[0] for line in lines] == ["pick #1", "pick #2", "pick #3"]


@pytest.mark.slow  # a subprocess
def test_the_emulator_calls_itself_the_emulator_not_gpio(quick_file, tmp_path):
    proc = tinker(
        "emulate",
        "--config",
        str(quick_file),
        "--presses",
        "1",
        "--port",
        "0",
        "--journal",
        str(tmp_path / "j.sqlite3"),
        "--verbose",
    )
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "emulator ready;" in out and "tray service started on emulator" in err
    assert "gpio" not in (out + err).lower().replace("gpiozero", "")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.slow  # a subprocess
def test_emulate_without_a_tty_stops_cleanly_on_a_signal(quick_file, sig):
    proc = tinker("emulate", "--config", str(quick_file), "--no-web")
    assert "emulator ready" in proc.stdout.readline()
    proc.send_signal(sig)
    _out, err = proc.communicate(timeout=15)
    assert proc.returncode == 0, err
    assert "tray service stopped" in err and "Traceback" not in err


@pytest.mark.slow  # a subprocess
def test_run_off_a_pi_says_so_and_falls_back_to_the_emulator(quick_file):
    proc = tinker(
        "run", "--config", str(quick_file), "--presses", "1", "--no-web", "--port", "9999"
    )
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "not a Raspberry Pi (no GPIO pins): running the emulator instead" in err
    assert "ModuleNotFoundError" not in err and "No module named" not in err  # a laptop's news
    assert "pick #1" in out


def test_run_refuses_a_bad_pin_map_before_touching_a_pin(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(QUICK_PIN_MAP.replace("pin = 19", "pin = 5"))
    proc = tinker("run", "--config", str(bad))
    _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert f"{bad}, line 5: leds.yellow.pin: GPIO5 is already used by leds.red.pin" in err
    assert "no pin was touched" in err


def test_serial_without_firmware_bridge_is_a_clear_error(quick_file, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "firmware_bridge", None)  # as if it were not installed
    assert cli.main(["run", "--config", str(quick_file), "--serial"]) == 2
    assert "--serial needs the firmware_bridge package" in capsys.readouterr().err


def test_display_options_are_accepted_and_stored():
    from cli.commands import emulate, run

    for module in (run, emulate):
        parser = argparse.ArgumentParser()
        module.add_arguments(parser)
        args = parser.parse_args(["--no-web", "--host", "127.0.0.1", "--port", "8123"])
        assert (args.web, args.host, args.port) == (False, "127.0.0.1", 8123)
    assert callable(run.attach_display)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.slow  # a subprocess
def test_emulate_serves_the_display_and_journals_every_pick(quick_file, tmp_path):
    """The service and the display share one bus: picks made on the mock button reach the
    display's journal (and so every open page), and the virtual button is served."""
    from scoreboard.journal import Journal

    journal = tmp_path / "journal.sqlite3"
    port = free_port()
    proc = tinker(
        "emulate",
        "--config",
        str(quick_file),
        "--journal",
        str(journal),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
    )
    assert "emulator ready" in proc.stdout.readline()
    token = None
    deadline = time.monotonic() + 10
    while token is None and time.monotonic() < deadline:
        try:
            token = Journal(journal).token()
        except Exception:
            time.sleep(0.1)
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/tray", timeout=5) as page:
        assert page.status == 200
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/press", method="POST", headers={"x-table-token": token}
    )
    with urllib.request.urlopen(request, timeout=5) as reply:
        assert reply.status in (200, 202, 204)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and "pick #1" not in (out := proc.stdout.readline()):
        pass
    assert "pick #1" in out
    proc.send_signal(signal.SIGTERM)
    _out, err = proc.communicate(timeout=15)
    assert proc.returncode == 0, err
    assert f"http://127.0.0.1:{port}/?token=" in err
    assert f"http://127.0.0.1:{port}/tray?token=" in err
    assert f"play:       http://127.0.0.1:{port}/play?new=1&token=" in err  # issue 32
    assert "WARNING tinker-tray: serving on 127.0.0.1, this machine only" in err
    assert "host link:  press l in the emulator (its button held 3 s)" in err
    reopened = Journal(journal)
    picks = [
        e.entry for e in reopened.entries(reopened.latest_game()) if e.entry.get("kind") == "pick"
    ]
    assert picks and picks[0]["seq"] == 1 and picks[0]["colour"] in COLOURS


def bench_args(answers: str, **kw) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    bench.add_arguments(parser)
    args = parser.parse_args(
        ["--mock", "--answers", answers, "--seconds", "1.2", "--fade-seconds", "0.02"]
    )
    return argparse.Namespace(**{**vars(args), **kw})


def test_bench_on_mock_pins_passes_and_recommends_a_debounce(mock_factory):
    out = io.StringIO()
    assert bench.bench(load(), mock_factory, bench_args("y" * 8, mock_presses=3), out) == 0
    report = out.getvalue()
    assert "PASS  button: presses" in report and "3 presses counted" in report
    assert "recommended debounce_s = " in report and "All parts pass." in report


def test_bench_fails_on_a_no_and_says_what_to_check(mock_factory):
    out = io.StringIO()
    assert bench.bench(load(), mock_factory, bench_args("yyny" + "y" * 4), out) == 1
    assert "FAIL  light: blue" in out.getvalue() and "did not light" in out.getvalue()


def test_bench_catches_bounce_longer_than_the_debounce(mock_factory):
    out = io.StringIO()
    args = bench_args("y" * 8, mock_bounce=15, mock_bounce_ms=30)  # 30 ms against 20 ms
    assert bench.bench(load(), mock_factory, args, out) == 1
    assert "FAIL  button: debounce" in out.getvalue()


def test_bench_idle_checks_catch_a_shorted_and_a_floating_input(mock_factory):
    from tray.devices import TrayDevices

    config = load()
    devices = TrayDevices(config, pin_factory=mock_factory)
    try:
        assert all(c.ok for c in bench.check_idle_input(devices, config, seconds=0.02))
        pin = devices.button.pin
        pin.drive_low()
        [level, steady] = bench.check_idle_input(devices, config, seconds=0.02)
        assert not level.ok and "reads PRESSED" in level.detail and steady.ok
        stop = threading.Event()

        def noise():
            while not stop.is_set():
                pin.drive_high()
                stop.wait(0.002)
                pin.drive_low()
                stop.wait(0.002)

        thread = threading.Thread(target=noise)
        thread.start()
        try:
            [_, steady] = bench.check_idle_input(devices, config, seconds=0.2)
        finally:
            stop.set()
            thread.join()
        assert not steady.ok and "floats" in steady.detail
    finally:
        devices.close()


def test_bench_fails_when_no_press_comes(mock_factory):
    out = io.StringIO()
    assert bench.bench(load(), mock_factory, bench_args("y" * 8, mock_presses=0), out) == 1
    assert "FAIL  button: presses" in out.getvalue() and "no press seen" in out.getvalue()


def test_bench_without_gpio_points_at_mock(capsys, monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    assert cli.main(["bench"]) == 2
    assert "bench --mock" in capsys.readouterr().err


@pytest.mark.slow  # a subprocess
def test_emulate_serial_drives_the_usb_firmware_emulator_end_to_end(quick_file):
    """`tinker-tray emulate --serial`: the service on the USB bridge, the reference firmware's
    logic on a pseudo-terminal, presses and shows crossing the real serial protocol."""
    proc = tinker("emulate", "--config", str(quick_file), "--serial", "--presses", "2", "--no-web")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert [line.split(":")[0] for line in out.splitlines() if line.startswith("pick #")] == [
        "pick #1",
        "pick #2",
    ]
    assert "Traceback" not in err


def test_the_start_up_lines_say_how_a_tray_button_pairs_a_phone():
    from types import SimpleNamespace

    from cli.commands.display import Display
    from cli.commands.run import link_hint
    from tray import config as tray_config

    settings = tray_config.load()
    from tray.backend import Capabilities

    gpio = SimpleNamespace(tray=SimpleNamespace(capabilities=Capabilities(link_hold=True)))
    gpio.settings = settings
    usb = SimpleNamespace(tray=SimpleNamespace(capabilities=Capabilities()), settings=settings)
    hint = link_hint(gpio, emulated=False)
    assert hint == "hold the Tinker Bell button on the tray for 3 s"
    assert link_hint(usb, emulated=False) is None  # its firmware reports only its own hold
    url = "http://192.168.1.20:8080"
    lines = Display(None, None, None, url, "tok", link=hint).lines(Path("j.sqlite3"))
    [line] = [text for text in lines if text.startswith("host link:")]
    assert hint in line and f"{url}/pair" in line and "tok" not in line
    bare = Display(None, None, None, url, "tok").lines(Path("j.sqlite3"))
    assert not any(text.startswith("host link:") for text in bare)
