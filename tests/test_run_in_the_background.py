"""The suite run in the background (issue 41, item 12): started as `nohup ./tinker test &` from a
script, SIGINT is ignored and stays ignored in every process it starts; the display services the
tests stop with SIGINT never stopped, 13 tests timed out and 12 services kept running. Here a
pytest of its own runs with SIGINT (and SIGHUP) ignored: its display-service test passes in time,
and no service it started is left, neither one stopped as the test says nor one a failing test
never stopped (tests.helpers.children)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
A_SERVICE_TEST = (
    "tests/cli/test_one_service_per_journal.py"
    "::test_a_second_service_on_the_journal_is_refused_naming_the_first"
)
pytestmark = pytest.mark.slow  # real processes, and pytests of their own

LEFT_RUNNING = """
import os
from pathlib import Path

from tests.helpers.service import Service, until

PID = Path(os.environ["PID_FILE"])


def test_a_test_that_fails_with_its_service_running(tmp_path):
    service = Service.ready(tmp_path / "journal.sqlite3")
    PID.write_text(str(service.proc.pid))
    raise AssertionError("failed half-way, the service not stopped")


def test_the_service_is_gone_when_the_next_test_starts():
    pid = int(PID.read_text())
    assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text()
"""


def in_the_background() -> None:
    """As `nohup CMD &` in a script starts CMD: SIGINT and SIGHUP ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


def pytest_in_the_background(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=in_the_background,
    )


def running_with(text: str) -> list[str]:
    """The command lines of the processes running now that name `text`."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            command = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:  # (gone meanwhile, or not a process)
            continue
        if text in command and state != "Z":
            found.append(command)
    return found


def test_a_display_service_test_passes_in_time_with_sigint_ignored(tmp_path):
    base = tmp_path / "run"
    done = pytest_in_the_background(f"--basetemp={base}", A_SERVICE_TEST, env=dict(os.environ))
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-3000:]
    assert "Timeout" not in done.stdout
    assert running_with(str(base)) == []


def test_a_service_a_failing_test_left_running_is_ended_after_it(tmp_path):
    (tmp_path / "test_left.py").write_text(LEFT_RUNNING)
    base, pid = tmp_path / "run", tmp_path / "pid"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PID_FILE": str(pid)}
    done = pytest_in_the_background(
        f"--basetemp={base}", "-p", "tests.conftest", str(tmp_path / "test_left.py"), env=env
    )
    assert "1 failed, 1 passed" in done.stdout, done.stdout[-3000:]
    assert "failed half-way" in done.stdout and pid.read_text().isdigit()
    assert running_with(str(base)) == []
