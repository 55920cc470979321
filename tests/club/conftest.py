"""Fixtures for the club tests: a real mosquitto per session (and fresh ones where a test kills
its broker), listeners, and a table (journal, bus, scoreboard session) to publish."""

from __future__ import annotations

import dataclasses

import pytest

from scoreboard.journal import Journal
from scoreboard.session import TableSession
from tests.helpers.broker import Listener, Mosquitto, require_mosquitto
from tray.bus import Bus
from tray.config import ShowSettings

QUICK_SHOW = ShowSettings(
    steps=4, first_step_s=0.01, last_step_s=0.02, blinks=1, blink_s=0.02, lit_s=0.05
)


@pytest.fixture(scope="session")
def broker(tmp_path_factory):
    require_mosquitto()
    b = Mosquitto(tmp_path_factory.mktemp("mosquitto")).start()
    yield b
    b.stop()


@pytest.fixture
def own_broker(tmp_path):
    """A broker for this test alone (it may be killed and restarted)."""
    require_mosquitto()
    b = Mosquitto(tmp_path / "mosquitto").start()
    yield b
    b.stop()


@pytest.fixture
def listen():
    made: list[Listener] = []

    def make(port: int, pattern: str = "#", **kw) -> Listener:
        listener = Listener(port, pattern, **kw)
        made.append(listener)
        return listener

    yield make
    for listener in made:
        listener.close()


@dataclasses.dataclass
class Table:
    bus: Bus
    journal: Journal
    session: TableSession


@pytest.fixture
def make_table(tmp_path):
    made: list[Table] = []

    def make(name: str = "kitchen", show: ShowSettings | None = QUICK_SHOW) -> Table:
        bus = Bus()
        journal = Journal(tmp_path / f"{name}.sqlite3")
        table = Table(bus, journal, TableSession(journal, bus, show=show))
        made.append(table)
        return table

    yield make
    for table in made:
        table.session.close()
        table.journal.close()
