from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from tray.bus import Bus
from tray.display.web import create_app
from tray.journal import Journal

TOKEN = "s3cret-token"


@pytest.fixture
def journal(tmp_path):
    j = Journal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


@pytest.fixture
def bus():
    return Bus()


@pytest.fixture
def presses():
    return []


@pytest.fixture
def app(journal, bus, presses):
    return create_app(journal, bus, TOKEN, press=lambda: presses.append(1),
                      public_url="http://table.local:8000")


@pytest.fixture
def client(app):
    with TestClient(app) as c:
        yield c


@pytest.fixture
def writer(client):
    client.headers["X-Table-Token"] = TOKEN
    return client
