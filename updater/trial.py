"""A release's trial start: does it say READY=1 and answer its page, before anything is switched?

The new slot's service is started beside the running one, as systemd would start it (its own
NOTIFY_SOCKET, a loopback port of its own, a journal of its own in a temporary folder, mock pins:
the real ones belong to the tray that is running), and must be ready and serving within a bound.
The running tray is never stopped for it, so a release that cannot serve is found out while the
family's table goes on.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from updater.slots import page_answers

TRIAL_SECONDS = 300.0
"""How long a release may take to say READY=1 and answer its page: a Pi Zero 2 W starts the
service in about 10 s, a busy one (the first imports of a new slot) in a few times that, an
emulated one in minutes; a release slower than this is not one a family could use."""


class TrialError(Exception):
    """Why the release did not pass its trial start, in one sentence."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _die_with_parent() -> None:
    """The trial service ends if the update is killed (a kill -9 leaves no stray server)."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    os.setsid()


def trial_start(
    slot: Path, *, as_owner: list[str] | None = None, within: float = TRIAL_SECONDS
) -> float:
    """Start the slot's service and stop it again; returns the seconds to READY=1 and the page.
    Raises TrialError with the service's last words when it fails."""
    command = [str(slot / ".venv" / "bin" / "tinker-tray"), "run", "--host", "127.0.0.1"]
    port = _free_port()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="tinker-trial-") as folder:
        Path(folder).chmod(0o755)
        address = f"{folder}/notify"
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
            notify.bind(address)
            os.chmod(address, 0o777)  # the owner's service writes to root's socket
            log = open(Path(folder) / "log", "w+b")  # noqa: SIM115 (read after the process)
            env = {
                **os.environ,
                "NOTIFY_SOCKET": address,
                "GPIOZERO_PIN_FACTORY": "mock",
                "PYTHONUNBUFFERED": "1",
            }
            env.pop("WATCHDOG_USEC", None)
            service = subprocess.Popen(
                [*(as_owner or []), *command, "--port", str(port),
                 "--journal", f"{folder}/journal.sqlite3"],
                cwd=folder, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                preexec_fn=_die_with_parent,
            )  # fmt: skip
            try:
                _wait_ready(notify, service, within)
                left = max(1.0, within - (time.monotonic() - started))
                if not page_answers(port, within=left):
                    raise TrialError(
                        f"it said READY=1 but its page did not answer in {within:.0f} s"
                    )
                return time.monotonic() - started
            except TrialError as exc:
                raise TrialError(f"{exc}{_last_words(log)}") from None
            finally:
                _stop(service)
                log.close()


def _wait_ready(notify: socket.socket, service: subprocess.Popen, within: float) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if service.poll() is not None:
            raise TrialError(f"it stopped at its start (status {service.returncode})")
        notify.settimeout(0.5)
        try:
            message = notify.recv(4096).decode(errors="replace")
        except TimeoutError:
            continue
        if "READY=1" in message.splitlines():
            return
    raise TrialError(f"it did not say READY=1 within {within:.0f} s")


def _stop(service: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(service.pid, signal.SIGTERM)
    try:
        service.wait(15)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(service.pid, signal.SIGKILL)
        service.wait()


def _last_words(log: object) -> str:
    """The service's last line of output, bounded, for the sentence."""
    try:
        log.seek(0)  # type: ignore[attr-defined]
        lines = log.read()[-4000:].decode(errors="replace").strip().splitlines()  # type: ignore[attr-defined]
    except (OSError, ValueError):
        return ""
    last = next((line for line in reversed(lines) if line.strip()), "")
    return f"; it said: {last.strip()[:300]}" if last else ""
