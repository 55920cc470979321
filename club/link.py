"""One connection to an MQTT broker that loses nothing while the broker is away.

paho-mqtt (2.x) does the protocol, and reconnects in its own thread with exponential backoff
(`reconnect_delay_set`). What it does not do is what a table needs when the broker is down for a
while: it refuses *new* messages when its queue is full, and a table would rather lose its
oldest news. So while disconnected, messages wait here in a bounded queue (oldest dropped first,
and counted); once connected they go to paho in order, at QoS 1, and paho re-sends whatever was
in flight when a connection broke.

The start is strict where a person can fix something (an unknown host, refused credentials, a
missing password file: one line, at once) and patient where time fixes it (a broker that is down:
the link starts anyway, queues, and keeps trying).
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import logging
import os
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt

from tray.config import mqtt_url_problem

log = logging.getLogger(__name__)

QUEUE_SIZE = 1000
"""Messages kept while the broker is away: a few hours of a busy table (a pick and a score or
two a minute, a few retained states), a few hundred KiB at most."""


def _not_paho_noise(record: logging.LogRecord) -> bool:
    """paho logs an ERROR when its loop meets the socket a clean disconnect just closed (and
    while reconnecting); our own lines already say when the connection is lost."""
    return not str(record.msg).startswith("Client is not connected")


PAHO_LOG = logging.getLogger("club.paho")
PAHO_LOG.addFilter(_not_paho_noise)


class LinkError(Exception):
    """The link cannot start: str() is one line a person can act on."""


@dataclasses.dataclass(frozen=True)
class Broker:
    """Where to connect and as whom. `password` is never logged nor shown in repr."""

    host: str
    port: int
    tls: bool = False
    ca_file: str | None = None
    username: str | None = None
    password: str | None = dataclasses.field(default=None, repr=False)

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        username: str | None = None,
        password_file: str | None = None,
        password_env: str | None = None,
        ca_file: str | None = None,
    ) -> Broker:
        if (problem := mqtt_url_problem(url)) is not None:
            raise LinkError(f"the MQTT address {problem}")
        parts = urlsplit(url)
        tls = parts.scheme == "mqtts"
        return cls(
            host=parts.hostname or "",
            port=parts.port or (8883 if tls else 1883),
            tls=tls,
            ca_file=ca_file,
            username=username,
            password=read_password(password_file, password_env),
        )

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


def read_password(file: str | None, env: str | None) -> str | None:
    """The broker password from a file (its first line) or an environment variable."""
    if file is not None:
        try:
            text = Path(file).read_text(encoding="utf-8")
        except OSError as exc:
            raise LinkError(f"cannot read the MQTT password file {file}: {exc.strerror}") from None
        return text.splitlines()[0] if text else ""
    if env is not None:
        if env not in os.environ:
            raise LinkError(f"the MQTT password's environment variable {env} is not set")
        return os.environ[env]
    return None


@dataclasses.dataclass(frozen=True)
class Message:
    topic: str
    payload: bytes
    retain: bool = False


Handler = Callable[[str, bytes, bool], None]
"""handler(topic, payload, retained) for a subscription, called in paho's thread."""


class Link:
    """A client connection: `publish` never blocks nor fails for want of a broker.

    `will` is (topic, payload) the broker publishes retained if this client vanishes;
    `on_connect` callbacks run (in paho's thread) after every (re)connection, once the queue
    has been handed over: the place to re-announce and re-subscribe.
    """

    def __init__(
        self,
        broker: Broker,
        client_id: str,
        *,
        will: tuple[str, str] | None = None,
        queue_size: int = QUEUE_SIZE,
        backoff: tuple[float, float] = (1, 30),
        persistent_session: bool = False,
    ):
        self.broker = broker
        self._lock = threading.RLock()
        self._pending: collections.deque[Message] = collections.deque()
        self.queue_size = queue_size
        self.dropped = 0
        self.connected = False
        self._handlers: list[tuple[str, Handler]] = []
        self._on_connect: list[Callable[[], None]] = []
        self._first = threading.Event()
        self._stopping = False
        self._refused: str | None = None
        client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2,
            client_id=client_id,
            clean_session=not persistent_session,
            protocol=mqtt.MQTTv311,
        )
        if broker.username is not None:
            client.username_pw_set(broker.username, broker.password)
        if broker.tls:
            try:
                client.tls_set(ca_certs=broker.ca_file)
            except (OSError, ValueError) as exc:
                raise LinkError(f"cannot use the MQTT CA file {broker.ca_file}: {exc}") from None
        if will is not None:
            client.will_set(will[0], will[1], qos=1, retain=True)
        # paho types these as int but waits any number of seconds (tests use fractions)
        client.reconnect_delay_set(min_delay=backoff[0], max_delay=backoff[1])  # type: ignore[arg-type]
        client.enable_logger(PAHO_LOG)  # packets at DEBUG (-v); it never logs a password
        client.on_connect = self._connected
        client.on_disconnect = self._disconnected
        client.on_message = self._message
        self.client = client

    # --- starting and stopping ---

    def start(self, wait: float = 5.0) -> Link:
        """Connect in the background; raise LinkError at once for an unknown host or, if the
        broker answers within `wait` seconds, refused credentials. A broker that does not
        answer is not an error: the link keeps trying and queues meanwhile."""
        try:
            socket.getaddrinfo(self.broker.host, self.broker.port, type=socket.SOCK_STREAM)
        except OSError as exc:
            raise LinkError(f"cannot find the MQTT broker {self.broker.url}: {exc}") from None
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=30)
        self.client.loop_start()
        if self._first.wait(wait) and self._refused is not None:
            self.stop()
            raise LinkError(f"the MQTT broker {self.broker.url} refused us: {self._refused}")
        if not self.connected:
            log.warning(
                "MQTT broker %s not reachable yet: queueing, and retrying with backoff",
                self.broker.url,
            )
        return self

    def stop(self, will_topic_payload: tuple[str, str] | None = None) -> None:
        """Disconnect cleanly (first publishing `will_topic_payload` if connected, since a clean
        disconnect does not fire the will)."""
        with self._lock:
            self._stopping = True
            if will_topic_payload is not None and self.connected:
                info = self.client.publish(*will_topic_payload, qos=1, retain=True)
                with contextlib.suppress(RuntimeError, ValueError):  # not sent: the will says it
                    info.wait_for_publish(2)
        self.client.disconnect()
        self.client.loop_stop()

    # --- publishing ---

    def publish(self, topic: str, payload: str | bytes, *, retain: bool = False) -> None:
        data = payload.encode() if isinstance(payload, str) else payload
        message = Message(topic, data, retain)
        with self._lock:
            if self.connected and not self._pending:
                self._send(message)
            else:
                self._queue(message)

    def _send(self, message: Message) -> None:
        info = self.client.publish(message.topic, message.payload, qos=1, retain=message.retain)
        # MQTT_ERR_NO_CONN: the connection broke just now; paho keeps a QoS 1 message and sends
        # it on reconnection, so it is not lost.
        if info.rc not in (mqtt.MQTT_ERR_SUCCESS, mqtt.MQTT_ERR_NO_CONN):
            self._queue(message)

    def _queue(self, message: Message) -> None:
        if len(self._pending) >= self.queue_size:
            self._pending.popleft()
            self.dropped += 1
            if self.dropped == 1 or self.dropped % 100 == 0:
                log.warning(
                    "MQTT queue full (%d): %d oldest messages dropped so far",
                    self.queue_size,
                    self.dropped,
                )
        self._pending.append(message)

    @property
    def queued(self) -> int:
        with self._lock:
            return len(self._pending)

    # --- subscribing ---

    def subscribe(self, pattern: str, handler: Handler) -> None:
        """Call `handler` for every message on `pattern` (also after reconnections)."""
        with self._lock:
            self._handlers.append((pattern, handler))
            if self.connected:
                self.client.subscribe(pattern, qos=1)

    def on_connect(self, callback: Callable[[], None]) -> None:
        with self._lock:
            self._on_connect.append(callback)

    # --- paho's callbacks (its network thread) ---

    def _connected(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            self._refused = str(reason_code)
            log.warning("MQTT broker %s refused the connection: %s", self.broker.url, reason_code)
            self._first.set()
            return
        with self._lock:
            self.connected = True
            self._refused = None
            for pattern, _ in self._handlers:
                client.subscribe(pattern, qos=1)
            while self._pending:
                self._send(self._pending.popleft())
            callbacks = list(self._on_connect)
        log.info("MQTT connected to %s", self.broker.url)
        self._first.set()
        for callback in callbacks:
            try:
                callback()
            except Exception:
                log.exception("MQTT on-connect callback failed")

    def _disconnected(self, client, userdata, flags, reason_code, properties) -> None:
        with self._lock:
            was, self.connected = self.connected, False
        if was and not self._stopping:
            log.warning(
                "MQTT connection to %s lost (%s): queueing, reconnecting",
                self.broker.url,
                reason_code,
            )

    def _message(self, client, userdata, message) -> None:
        for pattern, handler in list(self._handlers):
            if mqtt.topic_matches_sub(pattern, message.topic):
                try:
                    handler(message.topic, message.payload, bool(message.retain))
                except Exception:
                    log.exception("MQTT handler for %s failed on %s", pattern, message.topic)
