"""What the command line calls to put one table on MQTT: the link, then the publisher."""

from __future__ import annotations

import dataclasses
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

from club import topics
from club.link import Broker, Link
from club.publisher import TablePublisher
from tray.bus import Bus
from tray.config import MqttSettings


def open_link(settings: MqttSettings, *, backoff: tuple[float, float] = (1, 30)) -> Link:
    """The table's connection, started (LinkError: one line to print at start-up)."""
    broker = Broker.from_url(
        settings.url,
        username=settings.username,
        password_file=settings.password_file,
        password_env=settings.password_env,
        ca_file=settings.ca_file,
    )
    availability = topics.topic(settings.table, topics.AVAILABILITY)
    link = Link(
        broker,
        f"tinker-tray-{settings.table}-{socket.gethostname()}"[:64],
        will=(availability, topics.OFFLINE),
        backoff=backoff,
    )
    return link.start()


@dataclasses.dataclass
class TableLink:
    link: Link
    publisher: TablePublisher

    def close(self) -> None:
        self.publisher.close()
        stop_link(self.publisher.table, self.link)


def stop_link(table: str, link: Link) -> None:
    """Disconnect, saying the table is offline first (a clean disconnect fires no will)."""
    link.stop((topics.topic(table, topics.AVAILABILITY), topics.OFFLINE))


def start_table(
    settings: MqttSettings,
    link: Link,
    session: Any,
    bus: Bus,
    *,
    press: Callable[[], None] | None = None,
    state_dir: Path | None = None,
    url: str | None = None,
) -> TableLink:
    """Publish the table whose scoreboard is `session` (see `TablePublisher`). `state_dir`
    keeps the list of announced discovery configs (to clear stale ones after a rename); `url` is
    the scoreboard's address, Home Assistant's link from the device page."""
    publisher = TablePublisher(
        link,
        settings.table,
        session,
        bus,
        press=press,
        allow_press=settings.allow_press,
        discovery_prefix=settings.discovery_prefix,
        announced=None if state_dir is None else state_dir / "mqtt-discovery.json",
        url=url,
    ).start()
    return TableLink(link, publisher)
