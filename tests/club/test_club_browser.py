"""`tinker-tray club` in a real browser with two tables running live on a real mosquitto.

Each table is what `run`/`emulate` wire: a scoreboard session on its own journal and bus, put
on MQTT by `club.table`; the club is `ClubService` (what `tinker-tray club` starts). Chromium is
Debian's, as in tests/scoreboard/test_browser.py (skipped where missing, unless CI=true)."""

from __future__ import annotations

import pytest

from club.link import Broker
from club.service import ClubService
from tests.browser_audit.axe import serious_violations
from tests.club.test_broker_down import hand, settled_pick
from tests.club.test_publisher import publish_table
from tests.helpers.browser import WAIT
from tests.helpers.browser import chromium as launched

pytestmark = [pytest.mark.browser, pytest.mark.broker]


@pytest.fixture(scope="module")
def chromium():
    with launched() as b:
        yield b


def test_the_club_page_shows_two_tables_live(own_broker, make_table, chromium, tmp_path):
    broker = own_broker  # its own: no table of another test retained on it
    kitchen, garden = make_table("kitchen"), make_table("garden")
    links = [publish_table(broker, kitchen, "kitchen"), publish_table(broker, garden, "garden")]
    club = ClubService(
        Broker.from_url(broker.url), tmp_path / "club.sqlite3", backoff=(0.05, 0.2)
    ).start(port=0)
    context = chromium.new_context()
    try:
        kitchen.session.new_game(["Ann", "Bo"])
        garden.session.new_game(["Cy", "Di", "Ed"], options={"target": 30})
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{club.port}/")
        page.wait_for_selector(".status:text('live')", timeout=WAIT)
        page.wait_for_selector("[data-table='kitchen'] [data-player='Bo']", timeout=WAIT)
        page.wait_for_selector("[data-table='garden'] [data-player='Ed']", timeout=WAIT)

        # Live: a hand at one table, a pick at the other, with the page open.
        hand(kitchen, 1, [["R7", "W"], None])
        page.wait_for_selector("[data-table='kitchen'] [data-player='Bo'].leads", timeout=WAIT)
        assert page.inner_text("[data-table='kitchen'] [data-player='Bo'] .total") == "57"
        assert page.inner_text("[data-table='kitchen'] .leader b") == "Bo"
        settled_pick(garden, 1, "green")
        page.wait_for_selector("[data-table='garden'] .swatch[data-colour='green']", timeout=WAIT)
        assert page.inner_text("[data-table='garden'] .swatch").strip().lower().endswith("green")

        # A finished game at the garden table joins the list.
        hand(garden, 2, [5, ["R7"], None])
        hand(garden, 2, [["B9", "G9"], 0, None])
        page.wait_for_selector("#finished li:has-text('Ed wins')", timeout=WAIT)
        assert "garden" in page.inner_text("#finished")

        # The spectator view of one table: scores and picks, read-only.
        spectator = context.new_page()
        spectator.goto(f"http://127.0.0.1:{club.port}/table/garden")
        spectator.wait_for_selector("#swatch[data-colour='green']", timeout=WAIT)
        assert spectator.inner_text("[data-player='Ed'] .total") == "30"
        assert spectator.locator("input, button, form").count() == 0
        settled_pick(garden, 2, "red")
        spectator.wait_for_selector("#swatch[data-colour='red']", timeout=WAIT)
        spectator.wait_for_selector("#picks li[data-seq='1']", timeout=WAIT)
        assert page.locator("[data-table]").count() == 2
    finally:
        context.close()
        for link in links:
            link.close()
        club.close()


def test_the_club_pages_fit_a_phone_and_pass_the_audit(own_broker, make_table, chromium, tmp_path):
    """At 360×740: neither the club page nor a table's page scrolls sideways, nothing they
    load is missing (the favicon is the scoreboard's), YELLOW fits its swatch, and axe-core
    finds no serious or critical accessibility violation."""
    kitchen = make_table("kitchen")
    link = publish_table(own_broker, kitchen, "kitchen")
    club = ClubService(
        Broker.from_url(own_broker.url), tmp_path / "club.sqlite3", backoff=(0.05, 0.2)
    ).start(port=0)
    context = chromium.new_context(
        viewport={"width": 360, "height": 740}, device_scale_factor=2, is_mobile=True
    )
    try:
        kitchen.session.new_game(["Annabelle-Marie", "Bartholomew"])
        settled_pick(kitchen, 1, "yellow")
        for path in ("/", "/table/kitchen"):
            page = context.new_page()
            problems: list[str] = []
            page.on("pageerror", lambda exc, p=problems: p.append(str(exc)))
            page.on(
                "response",
                lambda r, p=problems: p.append(f"{r.status} {r.url}") if r.status >= 400 else None,
            )
            page.goto(f"http://127.0.0.1:{club.port}{path}")
            page.wait_for_selector(".swatch[data-colour='yellow']", timeout=WAIT)
            page.wait_for_timeout(300)
            assert page.evaluate("document.documentElement.scrollWidth") <= 360, path
            inner, label = page.evaluate(
                """() => { const sw = document.querySelector(".swatch[data-colour='yellow']");
                  const r = document.createRange(); r.selectNodeContents(sw.lastChild);
                  return [sw.clientWidth, r.getBoundingClientRect().width]; }"""
            )
            assert label <= inner, f"{path}: YELLOW is {label} px in a {inner} px swatch"
            icons = page.eval_on_selector_all("link[rel~='icon']", "ls => ls.map((l) => l.href)")
            assert icons, f"{path} names no icon (the browser asks for /favicon.ico: a 404)"
            assert all(page.request.get(icon).status == 200 for icon in icons), icons
            assert problems == [], path
            assert serious_violations(page) == [], path  # axe-core's audit
    finally:
        context.close()
        link.close()
        club.close()
