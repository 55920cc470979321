"""A new table key (issue 41, item 7): the host replaces the table's token from the entry
page; every phone that held the old one is a reader again and is told so (401), the phone that
asked keeps its place with the new one, and the games and the seats' links are kept."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from scoreboard.auth import TOKEN_COOKIE
from scoreboard.journal import Journal
from tests.helpers.web import TOKEN

GAME = {"players": ["Ann", "Bea", "Cy"], "confirm": True}
HAND = {"kind": "hand", "winner": 0, "held": [None, ["R7", "W"], 10]}


class Phone:
    """A phone paired as host: the token in its cookie, as a QR code's first visit leaves it
    (one app, one lifespan: each phone's cookie is put in before each of its requests)."""

    def __init__(self, client: TestClient, token: str = TOKEN):
        self.client, self.token = client, token

    def __call__(self, method: str, path: str, **kw):
        self.client.cookies.clear()
        self.client.cookies.set(TOKEN_COOKIE, self.token)
        return self.client.request(method, path, **kw)


def test_a_new_key_unpairs_every_other_phone_and_keeps_the_games(client, journal):
    asking, other = Phone(client), Phone(client)
    assert asking("POST", "/api/new-game", json=GAME).status_code == 200
    assert other("POST", "/api/entry", json=HAND).status_code == 200

    res = asking("POST", "/api/new-key", json={})
    assert res.status_code == 200
    new = res.json()["token"]
    assert new != TOKEN and res.cookies[TOKEN_COOKIE] == new
    asking.token = new  # what the browser keeps from the answer
    assert journal.token() == new  # kept: a restart serves the new key

    assert asking("POST", "/api/entry", json={"kind": "undo"}).status_code == 200
    assert asking("GET", "/api/whoami").json()["host"] is True
    refused = other("POST", "/api/entry", json=HAND)
    assert refused.status_code == 401
    assert "not the table's (the host made a new one" in refused.json()["error"]
    assert other("GET", "/api/whoami").json() | {"press": None, "tray": None} == {
        "host": False,
        "seats": [],
        "press": None,
        "tray": None,
        "replaced": True,  # the entry page says so, and how to pair again
    }
    assert other("GET", "/api/view").status_code == 200  # still a reader
    old_header = {"X-Table-Token": TOKEN}
    assert other("POST", "/api/entry", json=HAND, headers=old_header).status_code == 401
    assert other("POST", "/api/session", json={"token": TOKEN}).status_code == 403
    assert other("POST", "/api/session", json={"token": new}).status_code == 200
    other.token = new
    assert other("POST", "/api/entry", json=HAND).status_code == 200  # paired again

    games = asking("GET", "/api/games").json()["games"]
    assert [g["entries"] for g in games] == [4]  # start, hand, undo, hand: all kept


def test_only_the_host_makes_a_new_key(client, journal):
    before = journal.token()
    res = client.post("/api/new-key", json={})
    assert res.status_code == 403 and "table's token" in res.json()["error"]
    assert journal.token() == before


def test_a_new_key_that_cannot_be_kept_is_refused_and_the_old_one_stays(client, journal):
    """While nothing can be saved the key is not replaced: a restart would bring the leaked one
    back while the pages said it was gone."""
    host = Phone(client)
    journal._db.execute("PRAGMA query_only=1")  # the card turned read-only
    res = host("POST", "/api/new-key", json={})
    assert res.status_code == 503 and "read-only" in res.json()["error"]
    assert host("GET", "/api/whoami").json()["host"] is True


def test_the_journal_keeps_a_new_token_across_opening_again(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    first = journal.token()
    new = journal.new_token()
    journal.close()
    again = Journal(path)
    try:
        assert again.token() == new != first
    finally:
        again.close()


@pytest.mark.browser
def test_the_host_makes_a_new_key_on_the_entry_page_and_the_other_phone_is_unpaired(tmp_path):
    from tests.helpers.browser import WAIT, chromium
    from tests.scoreboard.test_browser import Served

    served = Served(tmp_path / "journal.sqlite3").start()
    try:
        served.post("/api/new-game", GAME)
        with chromium() as browser:
            mine, theirs = browser.new_context(), browser.new_context()
            page, other = mine.new_page(), theirs.new_page()
            for each in (page, other):
                each.goto(f"{served.url}/enter?token={TOKEN}")
                each.locator("#newkey").wait_for(state="visible", timeout=WAIT)
            page.once("dialog", lambda dialog: dialog.accept())
            page.click("#newkey")
            said = page.locator("#newkeysaid")
            said.wait_for(state="visible", timeout=WAIT)
            page.wait_for_function(
                "document.getElementById('newkeysaid').textContent.includes('New table key')",
                timeout=WAIT,
            )
            new = said.inner_text().split("New table key: ")[1].split(".")[0]
            assert new and new != TOKEN
            entry = "fetch('/api/entry', {method: 'POST', headers: {'Content-Type': "
            entry += (
                "'application/json'}, body: JSON.stringify({kind: 'undo'})}).then(r => r.status)"
            )
            assert other.evaluate(entry) == 401
            other.reload()
            other.locator("#replaced").wait_for(state="visible", timeout=WAIT)
            assert "table key is not this tray's" in other.locator("#notoken").inner_text()
            assert page.evaluate(entry) in (200, 409, 422)  # still the host's: not refused
            games = page.evaluate("fetch('/api/games').then(r => r.json())")["games"]
            assert len(games) == 1
    finally:
        served.stop()
