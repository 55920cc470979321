"""The command line: `emulate --mqtt` publishes what the issue asks, without --mqtt nothing of
MQTT is even imported, and a bad address is one line at start-up."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.helpers.config import MOCK_PINS, QUICK_PIN_MAP

pytestmark = pytest.mark.broker

ROOT = Path(__file__).resolve().parents[2]
QUICK = MOCK_PINS + QUICK_PIN_MAP


@pytest.fixture
def quick(tmp_path) -> Path:
    path = tmp_path / "pins.toml"
    path.write_text(QUICK)
    return path


def tinker(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *args],
        cwd=ROOT,
        text=True,
        capture_output=True,
        timeout=timeout,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def test_emulate_publishes_discovery_and_the_settled_pick(broker, listen, quick, tmp_path):
    listener = listen(broker.port, "#")
    done = tinker(
        "emulate",
        "--config",
        str(quick),
        "--mqtt",
        broker.url,
        "--table",
        "kitchen",
        "--presses",
        "1",
        "--port",
        "0",
        "--journal",
        str(tmp_path / "j.sqlite3"),
    )
    assert done.returncode == 0, done.stderr
    listener.wait_for(lambda ls: ls.on("tinker-tray/kitchen/pick"), what="the pick")
    pick = json.loads(listener.on("tinker-tray/kitchen/pick")[0].payload)
    assert pick["seq"] == 1 and pick["colour"] in ("red", "blue", "green", "yellow")
    assert f"pick #1: {pick['colour']}" in done.stdout
    configs = [
        m
        for m in listener.messages
        if m.topic.startswith("homeassistant/") and "tinker_tray_kitchen" in m.topic
    ]
    assert {m.topic.split("/")[1] for m in configs} == {"event", "sensor"}  # no press allowed
    fresh = listen(broker.port, "homeassistant/+/tinker_tray_kitchen/+/config")
    fresh.wait_for(lambda ls: len(ls.messages) >= 3, what="the retained configs")
    assert all(m.retain for m in fresh.messages)
    assert listener.on("tinker-tray/kitchen/availability")[-1].payload == b"offline"


PROBE = textwrap.dedent("""\
    import sys, time, resource
    from cli.main import main
    start = time.perf_counter()
    main(sys.argv[1:])
    print("paho" if "paho.mqtt.client" in sys.modules else "no paho",
          "club" if "club" in sys.modules else "no club")
    """)


def test_without_mqtt_no_mqtt_library_is_imported(quick, tmp_path, broker):
    common = ["emulate", "--config", str(quick), "--presses", "1", "--no-web"]
    without = subprocess.run(
        [sys.executable, "-c", PROBE, *common], cwd=ROOT, text=True, capture_output=True, timeout=60
    )
    assert without.returncode == 0, without.stderr
    assert without.stdout.strip().endswith("no paho no club")
    with_mqtt = subprocess.run(
        [
            sys.executable,
            "-c",
            PROBE,
            *common,
            "--mqtt",
            broker.url,
            "--table",
            "probe",
            "--journal",
            str(tmp_path / "j.sqlite3"),
        ],
        cwd=ROOT,
        text=True,
        capture_output=True,
        timeout=60,
    )
    assert with_mqtt.returncode == 0, with_mqtt.stderr
    assert with_mqtt.stdout.strip().endswith("paho club")


@pytest.mark.parametrize(
    "command", [["emulate", "--presses", "1", "--no-web"], ["display"], ["club"]]
)
def test_a_bad_broker_address_is_one_line(command, quick, tmp_path):
    extra = ["--config", str(quick)] if command[0] == "emulate" else []
    journal = ["--journal", str(tmp_path / "j.sqlite3")]
    done = tinker(*command, *extra, *journal, "--mqtt", "mqtt://no-such-broker.invalid:1883")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "cannot find the MQTT broker mqtt://no-such-broker.invalid:1883" in lines[0]


def test_a_malformed_address_is_one_line(quick):
    done = tinker(
        "emulate", "--config", str(quick), "--presses", "1", "--no-web", "--mqtt", "localhost:1883"
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "tinker-tray: --mqtt must look like mqtt://host:1883 or mqtts://host:8883, "
        "not 'localhost:1883'"
    ]


def _started(args: list[str], until: str) -> tuple[subprocess.Popen, str]:
    """A long-running command, read up to the stdout line containing `until`."""
    process = subprocess.Popen(
        [sys.executable, "-m", "cli.main", *args],
        cwd=ROOT,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None
    for _ in range(50):  # bounded: the lines it prints at start
        line = process.stdout.readline()
        if until in line or not line:
            return process, line
    return process, ""


def _stop(process: subprocess.Popen) -> int:
    process.send_signal(signal.SIGINT)
    try:
        return process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)
        raise


def test_display_publishes_its_table(broker, listen, tmp_path):
    listener = listen(broker.port, "tinker-tray/lounge/#")
    process, line = _started(
        [
            "display",
            "--mqtt",
            broker.url,
            "--table",
            "lounge",
            "--port",
            "0",
            "--journal",
            str(tmp_path / "j.sqlite3"),
        ],
        "token:",
    )
    try:
        assert "token:" in line, process.stderr.read() if process.poll() is not None else line
        listener.wait_for(
            lambda ls: any(
                m.payload == b"online" for m in ls.on("tinker-tray/lounge/availability")
            ),
            what="the display's table online",
        )
    finally:
        assert _stop(process) == 0
    listener.wait_for(
        lambda ls: ls.on("tinker-tray/lounge/availability")[-1].payload == b"offline",
        what="offline after the display stopped",
    )


def test_the_club_command_serves_its_page(broker, tmp_path):
    import httpx

    process, line = _started(
        ["club", "--mqtt", broker.url, "--port", "0", "--journal", str(tmp_path / "club.sqlite3")],
        "club:",
    )
    try:
        assert line.startswith("club:"), line
        url = line.split()[1]
        res = httpx.get(url + "api/club", timeout=10)
        assert res.status_code == 200 and "tables" in res.json()
        assert "The club tonight" in httpx.get(url, timeout=10).text
    finally:
        assert _stop(process) == 0
    assert (tmp_path / "club.sqlite3").exists()


def press_once(pins: Path, journal: Path, password: str, *more: str):
    """`emulate` pressing once, headless, with the broker's password in the environment."""
    command = ["emulate", "--config", str(pins), "--presses", "1", "--no-web"]
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *command, "--journal", str(journal), *more],
        cwd=ROOT,
        text=True,
        capture_output=True,
        timeout=60,
        env={**os.environ, "TEST_TRAY_MQTT_PASSWORD": password},
    )


def test_the_settings_file_with_credentials_and_the_password_never_logged(tmp_path, listen):
    from tests.helpers.broker import Mosquitto, require_mosquitto

    require_mosquitto()
    secret = "s3cret-Pixie-Dust"
    guarded = Mosquitto(tmp_path / "guarded", users={"tray": secret, "watch": "w"}).start()
    try:
        pins = tmp_path / "pins.toml"
        pins.write_text(
            QUICK
            + textwrap.dedent(f"""\
            [mqtt]
            url = "{guarded.url}"
            table = "attic"
            username = "tray"
            password_env = "TEST_TRAY_MQTT_PASSWORD"
            """)
        )
        listener = listen(guarded.port, "tinker-tray/attic/pick", username="watch", password="w")
        done = press_once(pins, tmp_path / "j.sqlite3", secret, "--verbose")
        assert done.returncode == 0, done.stderr
        listener.wait_for(lambda ls: ls.messages, what="the pick through the guarded broker")
        assert secret not in done.stdout + done.stderr
        assert "DEBUG" in done.stderr  # it did log, verbosely
        wrong = press_once(pins, tmp_path / "j.sqlite3", "wrong")
        assert wrong.returncode == 2
        assert (
            wrong.stderr.strip()
            .splitlines()[-1]
            .startswith(f"tinker-tray: the MQTT broker {guarded.url} refused us: Not authorized")
        )
        assert "wrong" not in wrong.stderr.replace("refused us", "")
    finally:
        guarded.stop()


def test_the_first_pick_after_a_restart_is_published(broker, listen, quick, tmp_path):
    """Pick numbers continue from the journal: a restarted tray's first pick is a new number,
    so the publisher (which skips the pick the journal already holds) sends it."""
    journal = tmp_path / "j.sqlite3"
    listener = listen(broker.port, "tinker-tray/den/pick")  # a table no other test publishes
    common = ["--config", str(quick), "--mqtt", broker.url, "--table", "den"]
    for _run in range(2):
        done = tinker(
            "emulate", *common, "--presses", "1", "--port", "0", "--journal", str(journal)
        )
        assert done.returncode == 0, done.stderr
    listener.wait_for(lambda ls: len(ls.messages) >= 2, what="the pick after the restart")
    assert [json.loads(m.payload)["seq"] for m in listener.messages] == [1, 2]
    assert "pick #2:" in done.stdout


def test_the_first_pick_after_a_restart_is_published_without_the_web_display(
    broker, listen, quick, tmp_path
):
    journal = tmp_path / "j.sqlite3"
    listener = listen(broker.port, "tinker-tray/porch/pick")
    common = ["--config", str(quick), "--mqtt", broker.url, "--table", "porch", "--no-web"]
    for _run in range(2):
        done = tinker("emulate", *common, "--presses", "1", "--journal", str(journal))
        assert done.returncode == 0, done.stderr
    listener.wait_for(lambda ls: len(ls.messages) >= 2, what="the pick after the restart")
    assert [json.loads(m.payload)["seq"] for m in listener.messages] == [1, 2]
