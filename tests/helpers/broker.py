"""A real Debian mosquitto for the tests: a generated config, a free loopback port, persistence
in a temporary folder, and a way to kill it and start it again on the same port."""

from __future__ import annotations

import os
import pwd
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

MOSQUITTO = Path("/usr/sbin/mosquitto")
WAIT = 10.0  # seconds: generous for a loaded machine; every wait ends as soon as it can


def require_mosquitto() -> None:
    if not MOSQUITTO.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but /usr/sbin/mosquitto is missing: .ci/run installs it")
        pytest.skip("no /usr/sbin/mosquitto here (apt-get install mosquitto): broker tests skipped")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Mosquitto:
    """mosquitto on 127.0.0.1:`port`; `users` = {name: password} turns anonymous access off."""

    def __init__(self, folder: Path, *, users: dict[str, str] | None = None, tls: bool = False):
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        lines = [
            f"listener {self.port} 127.0.0.1",
            # Started as root (a CI container), mosquitto would switch to the user "mosquitto",
            # who cannot open this test's folder: stay whoever runs the tests.
            f"user {pwd.getpwuid(os.geteuid()).pw_name}",
            "persistence true",
            f"persistence_location {folder}/",
            "autosave_interval 1",
            "autosave_on_changes true",
            f"log_dest file {folder}/mosquitto.log",
            "log_type error",
            "log_type warning",
        ]
        if users:
            pwfile = folder / "passwords"
            pwfile.write_text("".join(f"{u}:{p}\n" for u, p in users.items()))
            subprocess.run(["mosquitto_passwd", "-U", str(pwfile)], check=True, capture_output=True)
            lines += ["allow_anonymous false", f"password_file {pwfile}"]
        else:
            lines.append("allow_anonymous true")
        self.tls = tls
        if tls:  # a CA of our own and a certificate for 127.0.0.1 signed by it
            self.ca_file = make_certificates(folder)
            lines += [
                f"cafile {self.ca_file}",
                f"certfile {folder}/server.pem",
                f"keyfile {folder}/server.key",
            ]
        self.config = folder / "mosquitto.conf"
        self.config.write_text("\n".join(lines) + "\n")

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://127.0.0.1:{self.port}"

    def start(self) -> Mosquitto:
        self.process = subprocess.Popen(
            [str(MOSQUITTO), "-c", str(self.config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto exited: {self.process.stderr.read().decode()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("mosquitto did not start listening")

    def kill(self) -> None:
        """SIGKILL: no goodbye, nothing saved beyond what autosave already wrote."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(WAIT)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(WAIT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(WAIT)
        self.process = None


def make_certificates(folder: Path) -> Path:
    """A throwaway CA and a server certificate for 127.0.0.1 (openssl); returns the CA file."""

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    openssl(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "2",
        "-subj",
        "/CN=tinker test CA",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
    )
    openssl(
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-subj",
        "/CN=127.0.0.1",
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
    )
    (folder / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    openssl(
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-days",
        "2",
        "-extfile",
        "san.ext",
        "-out",
        "server.pem",
    )
    return folder / "ca.pem"


class Listener:
    """A plain paho client recording every message on `pattern`; tests wait on it."""

    def __init__(self, port: int, pattern: str = "#", *, username=None, password=None):
        self.messages: list[mqtt.MQTTMessage] = []
        self._cond = threading.Condition()
        self._subscribed = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        if username:
            self.client.username_pw_set(username, password)
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe(pattern, qos=1)
        self.client.on_subscribe = lambda *a: self._subscribed.set()
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert self._subscribed.wait(WAIT), "the listener did not subscribe"

    def _on_message(self, client, userdata, message) -> None:
        with self._cond:
            self.messages.append(message)
            self._cond.notify_all()

    def on(self, topic: str) -> list[mqtt.MQTTMessage]:
        with self._cond:
            return [m for m in self.messages if m.topic == topic]

    def wait_for(self, predicate, timeout: float = WAIT, what: str = "messages"):
        with self._cond:
            ok = self._cond.wait_for(lambda: predicate(self), timeout)
        assert ok, f"timed out waiting for {what}; got {[m.topic for m in self.messages]}"

    def publish(self, topic: str, payload: str, *, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(WAIT)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def wait_until(condition, timeout: float = WAIT, what: str = "a condition") -> None:
    """Poll `condition` (for states no callback announces), bounded in time."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)
