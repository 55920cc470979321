"""The slot logic the service's unit runs around every start (as root, the checkout's own code,
with the system's python3): a switch not yet confirmed is tried once, then undone."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from updater.slots import HOME_SLOT, READY, Slots

SCRIPT = Path(__file__).resolve().parents[2] / "updater" / "slots.py"


def unit_step(*args: str) -> subprocess.CompletedProcess[str]:
    """As the unit runs it: a script, no venv, no package on the path."""
    return subprocess.run(
        [sys.executable, "-I", str(SCRIPT), *args], capture_output=True, text=True, timeout=60
    )


def a_slot(slots: Slots, name: str, *, complete: bool = True) -> None:
    folder = slots.path(name)
    folder.mkdir(parents=True)
    if complete:
        (folder / READY).write_text("done\n")


@pytest.fixture
def slots(tmp_path) -> Slots:
    return Slots(tmp_path / "home")


def test_a_switch_is_tried_at_one_start_and_undone_at_the_next(slots):
    a_slot(slots, "v1")
    slots.switch("v1", confirmed=True)
    a_slot(slots, "v2")
    slots.switch("v2", confirmed=False)
    assert slots.current() == "v2" and slots.previous() == "v1"
    first = unit_step("recover", str(slots.home))
    assert "trying the release v2" in first.stderr
    assert slots.current() == "v2" and slots.unconfirmed() == {"slot": "v2", "starts": 1}
    second = unit_step("recover", str(slots.home))  # the first start did not confirm it
    assert "did not confirm it could serve: back" in second.stderr
    assert slots.current() == "v1" and slots.unconfirmed() is None


def test_a_switch_that_never_happened_is_forgotten(slots):
    """Killed between marking the switch and making it: the old slot is current, and stays."""
    a_slot(slots, "v1")
    slots.switch("v1", confirmed=True)
    slots.root.joinpath("unconfirmed").write_text(json.dumps({"slot": "v2", "starts": 0}))
    assert unit_step("recover", str(slots.home)).returncode == 0
    assert slots.current() == "v1" and slots.unconfirmed() is None


def test_an_incomplete_slot_is_never_run(slots):
    a_slot(slots, "v2", complete=False)
    slots.root.mkdir(exist_ok=True)
    (slots.root / "current").symlink_to("slots/v2")
    done = unit_step("recover", str(slots.home))
    assert "the release v2 is incomplete" in done.stderr
    assert slots.current() == HOME_SLOT


def test_a_switch_to_an_unfinished_set_up_is_refused(slots):
    a_slot(slots, "v2", complete=False)
    with pytest.raises(Exception, match="did not finish its set-up"):
        slots.switch("v2", confirmed=True)
    assert slots.current() == HOME_SLOT


def test_the_first_start_makes_the_current_link(slots):
    slots.home.mkdir()
    slots.root.mkdir()
    assert unit_step("recover", str(slots.home)).returncode == 0
    assert (slots.root / "current").resolve() == slots.home.resolve()


class Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"the tray")

    def log_message(self, *args: object) -> None:
        return


def test_a_start_whose_page_answers_is_confirmed(slots):
    a_slot(slots, "v2")
    slots.switch("v2", confirmed=False)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        port = str(server.server_address[1])
        done = unit_step("confirm", str(slots.home), "--port", port)
    finally:
        server.shutdown()
    assert done.returncode == 0 and "serves: kept" in done.stderr
    assert slots.unconfirmed() is None and slots.current() == "v2"


def test_a_start_whose_page_does_not_answer_fails_and_the_next_goes_back(slots):
    a_slot(slots, "v2")
    slots.switch("v2", confirmed=False)
    unit_step("recover", str(slots.home))
    with socket_closed() as port:
        done = unit_step("confirm", str(slots.home), "--port", port, "--within", "1")
    assert done.returncode == 1 and "did not answer its page" in done.stderr
    unit_step("recover", str(slots.home))  # systemd's restart after the failed start
    assert slots.current() == HOME_SLOT


class socket_closed:
    """A loopback port nothing listens on."""

    def __enter__(self) -> str:
        import socket

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            return str(probe.getsockname()[1])

    def __exit__(self, *exc: object) -> None:
        return None


START = SCRIPT.with_name("start.sh")


def test_the_usual_start_runs_no_python(slots, tmp_path):
    """The unit's ExecStartPre: with nothing to finish or undo, a shell test alone (a Python
    start is 4.5 s of an emulated Zero 2 W's boot); the python it would run is a trap here."""
    a_slot(slots, "v1")
    slots.switch("v1", confirmed=True)
    trap = tmp_path / "python"
    trap.write_text("#!/bin/sh\necho ran >&2\nexit 9\n")
    trap.chmod(0o755)
    done = subprocess.run([str(START), str(slots.home)], capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "PYTHON": str(trap)})  # fmt: skip
    assert done.returncode == 0 and done.stderr == ""
    slots.root.joinpath("current").unlink()
    slots.root.joinpath("current").symlink_to("..")
    done = subprocess.run([str(START), str(slots.home)], capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "PYTHON": str(trap)})  # fmt: skip
    assert done.returncode == 0 and done.stderr == ""


@pytest.mark.parametrize("state", ["unconfirmed", "no current link", "incomplete slot"])
def test_a_start_with_something_to_finish_runs_the_slot_logic(slots, state):
    a_slot(slots, "v1")
    slots.switch("v1", confirmed=True)
    if state == "unconfirmed":
        a_slot(slots, "v2")
        slots.switch("v2", confirmed=False)
    elif state == "no current link":
        slots.root.joinpath("current").unlink()
    else:
        (slots.path("v1") / READY).unlink()
    done = subprocess.run([str(START), str(slots.home)], capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "PYTHON": sys.executable})  # fmt: skip
    assert done.returncode == 0
    if state == "unconfirmed":
        assert slots.unconfirmed() == {"slot": "v2", "starts": 1}
    elif state == "no current link":
        assert (slots.root / "current").resolve() == slots.home.resolve()
    else:
        assert slots.current() == HOME_SLOT and "incomplete" in done.stderr
