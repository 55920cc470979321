"""Shared fixtures: a fresh gpiozero MockFactory per test, quick settings, event recording, and
the table's web app on a fresh journal."""

from __future__ import annotations

import dataclasses
import os
import threading

import pytest
from hypothesis import settings
from starlette.testclient import TestClient

from cli.app import create_app
from scoreboard.journal import Journal
from tests.helpers import children
from tests.helpers.gpio import installed_factory
from tests.helpers.web import TOKEN
from tray import config as tray_config
from tray.bus import Bus
from tray.events import Event

# Tests send nothing beyond this machine: no display they start (in-process or as a subprocess,
# which inherits this) announces itself on the LAN's mDNS.
os.environ["TINKER_TRAY_MDNS"] = "0"

# Hypothesis: a quick profile by default, a thorough one in CI (CI=true, as .ci/run sets) or on
# request (HYPOTHESIS_PROFILE=thorough). Tests that set their own max_examples scale it with
# `tests.helpers.examples`.
settings.register_profile("quick", deadline=None)
settings.register_profile("thorough", deadline=None, max_examples=400)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("thorough" if os.environ.get("CI") else "quick")
)


@pytest.fixture(autouse=True)
def _no_child_left_running():
    """A service a test started and did not stop (it failed half-way, or its stop was ignored)
    is ended when the test ends: SIGTERM to its process group, then SIGKILL."""
    yield
    children.reap()


@pytest.fixture
def mock_factory():
    """A fresh MockFactory with PWM-capable pins, installed as the default."""
    with installed_factory() as factory:
        yield factory


@pytest.fixture
def quick_config():
    """The default pin map with a show a few tens of milliseconds long and short button times."""
    base = tray_config.load()
    return dataclasses.replace(
        base,
        button=dataclasses.replace(base.button, debounce_s=0.02, hold_s=0.3, stuck_s=0.6),
        show=dataclasses.replace(
            base.show,
            steps=4,
            first_step_s=0.01,
            last_step_s=0.02,
            blinks=1,
            blink_s=0.02,
            lit_s=0.05,
        ),
    )


class Recorder:
    """A bus subscriber (or a tray's deliver) that lets a test wait for events, not sleep."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self._cond = threading.Condition()

    def __call__(self, event: Event) -> None:
        with self._cond:
            self.events.append(event)
            self._cond.notify_all()

    def of(self, kind: type[Event]) -> list[Event]:
        with self._cond:
            return [e for e in self.events if isinstance(e, kind)]

    def wait_for(self, kind: type[Event], count: int = 1, timeout: float = 5.0) -> list[Event]:
        with self._cond:
            ok = self._cond.wait_for(lambda: len(self.of(kind)) >= count, timeout)
        assert ok, f"expected {count} {kind.__name__}, got {self.events}"
        return self.of(kind)


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def bus(recorder) -> Bus:
    bus = Bus()
    bus.subscribe(recorder)
    return bus


@pytest.fixture
def journal(tmp_path):
    j = Journal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


@pytest.fixture
def presses():
    return []


@pytest.fixture
def app(journal, bus, presses):
    return create_app(
        journal, bus, TOKEN, press=lambda: presses.append(1), public_url="http://table.local:8000"
    )


@pytest.fixture
def client(app):
    with TestClient(app) as c:
        yield c


@pytest.fixture
def writer(client):
    client.headers["X-Table-Token"] = TOKEN
    return client


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """`slow` is honoured without marking each test by hand: property tests (hypothesis), tests
    in a real browser and tests against a real broker are slow by nature (`-m "not slow"` gives a
    quick run; CI runs everything)."""
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        if (
            item.get_closest_marker("browser")
            or getattr(getattr(item, "obj", None), "is_hypothesis_test", False)
            or "broker" in fixtures
        ):
            item.add_marker(pytest.mark.slow)
