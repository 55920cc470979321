"""The host link by holding the button: the pairing window, the web endpoints, and the whole way
from the tray's (mock) button pin to a phone that becomes host."""

from __future__ import annotations

import dataclasses
import io
import threading
import time

import pytest
import segno
from starlette.testclient import TestClient

from cli.app import create_app
from scoreboard import auth
from scoreboard.pairing import Pairing
from tests.helpers.web import TOKEN
from tray.bus import Bus
from tray.events import ButtonHeld, LinkHeld
from tray.gpio_tray import GpioTray
from tray.pick import Picker
from tray.service import TrayService

HELD = LinkHeld(t=0.0, seconds=3.0, source="gpio")
READS = ["/", "/pair", "/enter", "/api/view", "/api/pairing", "/api/whoami", "/api/games"]


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_window_gives_one_phone_then_closes():
    changes = []
    clock = Clock()
    pairing = Pairing(60, on_change=lambda: changes.append(1), clock=clock)
    assert not pairing.claim() and pairing.state() == {"open": False, "paired": False}
    pairing.held(HELD)
    assert pairing.is_open and pairing.state() == {"open": True, "paired": False}
    assert pairing.claim()
    assert not pairing.claim()  # one phone per hold
    assert pairing.state() == {"open": False, "paired": True}
    clock.now += 61
    assert pairing.state() == {"open": False, "paired": False}
    assert pairing.state_json() == '{"open":false,"paired":false}'
    assert len(changes) == 2  # opened, used (the lapse is a timer's)
    pairing.close()


def test_a_window_lapses_unused_and_a_new_hold_opens_another():
    clock = Clock()
    pairing = Pairing(60, clock=clock)
    pairing.held(HELD)
    clock.now += 60
    assert not pairing.claim()
    pairing.held(HELD)
    clock.now += 59
    assert pairing.claim()
    pairing.close()


def test_a_virtual_link_hold_opens_nothing():
    pairing = Pairing(60)
    pairing.held(dataclasses.replace(HELD, source="virtual"))
    assert not pairing.is_open and not pairing.claim()


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def table(journal, clock):
    bus = Bus()
    app = create_app(journal, bus, TOKEN, public_url="http://table.local:8080", clock=clock)
    with TestClient(app) as reader:
        yield bus, app, reader


HOST = {"X-Table-Token": TOKEN}


def test_outside_a_window_nobody_becomes_host(table):
    _bus, _app, reader = table
    res = reader.post("/api/pair", json={})
    assert res.status_code == 403 and "hold the Tinker Bell button" in res.json()["error"]
    assert auth.TOKEN_COOKIE not in res.cookies
    assert reader.get("/api/whoami").json()["host"] is False


def test_inside_a_window_the_phone_that_asks_becomes_host_and_only_it(table, clock):
    bus, _app, reader = table
    bus.publish(HELD)
    assert reader.get("/api/pairing").json() == {
        "open": True,
        "paired": False,
        "host": False,
        "link": "http://table.local:8080/pair",
    }
    phone = reader  # its cookie jar is the phone's
    res = phone.post("/api/pair", json={})
    assert res.status_code == 200 and res.json() == {"host": True}
    cookie = res.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and TOKEN not in res.text
    assert phone.get("/api/whoami").json()["host"] is True
    assert phone.post("/api/new-game", json={"players": ["Ann", "Bea"]}).status_code == 200
    phone.cookies.clear()  # another phone, a moment later
    refused = phone.post("/api/pair", json={})
    assert refused.status_code == 403 and "no pairing window is open" in refused.json()["error"]
    assert phone.get("/api/pairing").json()["paired"] is True


def test_a_window_that_lapses_refuses_the_phone(table, clock):
    bus, _app, reader = table
    bus.publish(HELD)
    clock.now += 61
    assert reader.post("/api/pair", json={}).status_code == 403


def test_reading_everything_while_the_window_is_open_never_gives_the_token(table):
    bus, _app, reader = table
    bus.publish(HELD)
    for path in READS:
        res = reader.get(path)
        assert res.status_code == 200, path
        assert TOKEN not in res.text and TOKEN not in str(res.headers), path
    svg = reader.get("/api/pair-qr.svg")
    expected = io.BytesIO()
    segno.make("http://table.local:8080/pair", error="m").save(
        expected,
        kind="svg",
        scale=1,
        dark="#000",
        light="#fff",
        border=2,
        omitsize=True,
        xmldecl=False,
    )
    assert svg.content == expected.getvalue()  # the QR code is the pairing page's, no token
    assert reader.get("/api/qr.svg").status_code == 403  # the token's QR code stays the host's
    assert reader.get("/api/pairing").json()["open"] is True  # reading used nothing up


def test_a_pairing_from_another_site_is_refused(table):
    bus, _app, reader = table
    bus.publish(HELD)
    res = reader.post("/api/pair", json={}, headers={"Origin": "http://evil.example"})
    assert res.status_code == 403 and "another site" in res.json()["error"]
    assert reader.get("/api/pairing").json()["open"] is True


def test_the_host_asking_again_leaves_the_window_to_another_phone(table):
    bus, _app, reader = table
    bus.publish(HELD)
    assert reader.post("/api/pair", json={}, headers=HOST).json() == {"host": True}
    assert reader.get("/api/pairing").json()["open"] is True


@pytest.mark.slow
def test_holding_the_tray_button_opens_the_window_and_the_virtual_button_does_not(
    mock_factory, quick_config, journal
):
    """The emulator's way: its keyboard's link hold (`finger`'s third: the mock button pin held
    for 3 s, so debounce, hold and link detection all run), through the service and the bus to
    the web app. The web page's virtual button (a tap) and the service's virtual hold open
    nothing."""
    from cli.commands.emulate import finger

    config = dataclasses.replace(
        quick_config, button=dataclasses.replace(quick_config.button, stuck_s=30.0)
    )
    bus = Bus()
    service = TrayService(GpioTray(config), bus, Picker(seed=1), config)
    service.start()
    app = create_app(journal, bus, TOKEN, press=service.press)
    try:
        with TestClient(app) as phone:
            for _ in range(3):
                assert phone.post("/api/press", json={}, headers=HOST).status_code == 200
            while service.spinning:  # a hold during a show is ignored
                time.sleep(0.02)
            held, holds = threading.Event(), []
            bus.subscribe(lambda e: (held.set(), holds.append(e)), ButtonHeld)
            service.hold()
            assert held.wait(10)  # the virtual hold went through the service's own path
            time.sleep(0.2)
            assert phone.post("/api/pair", json={}).status_code == 403
            _tap, _hold, link = finger(service.tray, service, config.button.hold_s)
            assert link is not None
            link()  # about 3 s
            deadline = time.monotonic() + 10
            while not app.state.pairing.is_open and time.monotonic() < deadline:
                time.sleep(0.05)
            assert app.state.pairing.is_open
            time.sleep(0.3)  # its release: a link hold is the link alone, never a hold first
            assert len(holds) == 1  # the virtual hold's, from before
            assert phone.post("/api/pair", json={}).status_code == 200
            assert phone.get("/api/whoami").json()["host"] is True
    finally:
        service.stop()


@pytest.mark.browser
def test_the_kiosk_shows_the_qr_code_while_pairing_and_a_phone_becomes_host(journal, tmp_path):
    from scoreboard.server import ServerThread, bind
    from tests.helpers.browser import WAIT, chromium

    bus = Bus()
    app = create_app(journal, bus, TOKEN)
    server = ServerThread(app, bind()).start()
    url = f"http://127.0.0.1:{server.port}"
    wide = "document.documentElement.scrollWidth <= window.innerWidth"
    try:
        with chromium() as browser:
            kiosk = browser.new_page(viewport={"width": 1920, "height": 1080})
            small = browser.new_page(viewport={"width": 360, "height": 740})
            for page in (kiosk, small):
                page.goto(url + "/")
                page.wait_for_selector(".status:text('live')", timeout=WAIT)
                assert page.is_hidden("#pairing")
            bus.publish(HELD)
            for page in (kiosk, small):
                page.wait_for_selector("#pairing", state="visible", timeout=WAIT)
                page.wait_for_selector(f"#pairurl:text('{url}/pair')", timeout=WAIT)
                page.wait_for_function(
                    "document.getElementById('pairqr').naturalWidth > 0", timeout=WAIT
                )
                assert page.evaluate(wide)
            kiosk.screenshot(path=str(tmp_path / "kiosk.png"))
            small.screenshot(path=str(tmp_path / "small.png"), full_page=True)
            phone = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
            phone.goto(url + "/pair")
            phone.wait_for_selector("#state:text('pairing now')", timeout=WAIT)
            assert phone.evaluate(wide)
            phone.click("#pair")
            phone.wait_for_selector(".ok:text('this phone is the host')", timeout=WAIT)
            kiosk.wait_for_selector("#paired", state="visible", timeout=WAIT)
            assert kiosk.is_hidden("#pairing")
            phone.wait_for_url(url + "/enter", timeout=WAIT)
            assert phone.evaluate("Tinker.whoami(true)")["host"] is True
            other = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
            other.goto(url + "/pair")
            other.click("#pair")
            other.wait_for_selector(".error:text('no pairing window is open')", timeout=WAIT)
    finally:
        server.stop()


@pytest.mark.browser
def test_the_kiosk_hides_the_qr_code_when_the_window_lapses(journal):
    from scoreboard.server import ServerThread, bind
    from tests.helpers.browser import WAIT, chromium

    bus = Bus()
    server = ServerThread(create_app(journal, bus, TOKEN, pairing_s=1.0), bind()).start()
    try:
        with chromium() as browser:
            kiosk = browser.new_page(viewport={"width": 1280, "height": 720})
            kiosk.goto(f"http://127.0.0.1:{server.port}/")
            kiosk.wait_for_selector(".status:text('live')", timeout=WAIT)
            bus.publish(HELD)
            kiosk.wait_for_selector("#pairing", state="visible", timeout=WAIT)
            kiosk.wait_for_selector("#pairing", state="hidden", timeout=WAIT)
            assert kiosk.is_hidden("#paired")
    finally:
        server.stop()


@pytest.mark.browser
@pytest.mark.parametrize("size", [(360, 740), (1280, 800), (1920, 1080)], ids=str)
def test_a_table_with_no_tv_pairs_the_phone_showing_the_scoreboard(journal, size):
    """Issue 32: with no TV the QR code is on the phone that should scan it. That phone taps
    instead: the pairing page's address is a link, and the scoreboard's own button makes it
    host (on a phone's screen, that button is on the first screen, above the QR code)."""
    from scoreboard.server import ServerThread, bind
    from tests.helpers.browser import WAIT, chromium

    bus = Bus()
    server = ServerThread(create_app(journal, bus, TOKEN), bind()).start()
    url = f"http://127.0.0.1:{server.port}"
    width, height = size
    try:
        with chromium() as browser:
            page = browser.new_context(viewport={"width": width, "height": height}).new_page()
            page.goto(url + "/")
            page.wait_for_selector(".status:text('live')", timeout=WAIT)
            bus.publish(HELD)
            page.wait_for_selector(f"a#pairurl[href='{url}/pair']:text('{url}/pair')", timeout=WAIT)
            button = page.locator("#pairhere")
            box = button.bounding_box()
            assert box is not None and box["y"] + box["height"] <= height  # no scrolling to it
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            button.click()
            page.wait_for_selector("#pairsays .ok:text('this phone is the host')", timeout=WAIT)
            page.wait_for_url(url + "/enter", timeout=WAIT)
            assert page.evaluate("Tinker.whoami(true)")["host"] is True
            other = browser.new_context(viewport={"width": width, "height": height}).new_page()
            other.goto(url + "/")  # the window went to that phone: a second one is told so
            bus.publish(HELD)
            other.wait_for_selector("#pairhere", state="visible", timeout=WAIT)
            other.click("#pairurl")  # the link leads to the pairing page
            other.wait_for_url(url + "/pair", timeout=WAIT)
            other.wait_for_selector("#state:text('pairing now')", timeout=WAIT)
    finally:
        server.stop()
