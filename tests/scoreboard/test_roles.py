"""Roles: the host (the table's token), a seat (its key), a reader (anybody). The token travels
in a header or a same-site cookie, never in an API URL; a write from another site's page is
refused even with the cookie."""

from __future__ import annotations

from tests.helpers.web import TOKEN

GAME = {"players": ["Ann", "Bea", "Cy"]}


def test_a_reader_reads_scores_and_nothing_else(client):
    assert client.get("/api/view").status_code == 200
    assert client.get("/api/games").status_code == 200
    assert client.get("/api/whoami").json() == {
        "host": False,
        "seats": [],
        "press": True,
        "tray": False,
        "replaced": False,
    }
    for path in ("/api/qr.svg", "/api/games/1.csv", "/api/games/1.json", "/api/digital/links"):
        res = client.get(path)
        assert res.status_code == 403 and "token" in res.json()["error"], path


def test_the_token_in_an_api_url_is_not_a_credential(client):
    for path, body in [
        ("/api/entry", {"kind": "undo"}),
        ("/api/new-game", GAME),
        ("/api/press", {}),
    ]:
        assert client.post(f"{path}?token={TOKEN}", json=body).status_code == 403, path
    assert client.get(f"/api/qr.svg?token={TOKEN}").status_code == 403


def test_a_page_opened_with_the_token_sets_a_same_site_cookie_once(client):
    page = client.get(f"/enter?token={TOKEN}")
    cookie = page.headers["set-cookie"].lower()
    assert "tinker-token=" in cookie and "samesite=strict" in cookie and "httponly" in cookie
    assert client.get("/api/whoami").json()["host"] is True
    assert client.post("/api/new-game", json=GAME).status_code == 200  # the cookie alone
    assert "set-cookie" not in client.get("/enter?token=wrong").headers


def test_a_typed_token_becomes_the_cookie(client):
    assert client.post("/api/session", json={"token": "nope"}).status_code == 403
    assert client.post("/api/session", json={"token": TOKEN}).status_code == 200
    assert client.get("/api/whoami").json()["host"] is True


def test_a_write_from_another_site_is_refused_even_with_the_cookie(client):
    client.get(f"/?token={TOKEN}")
    foreign = {"Origin": "https://evil.example", "Content-Type": "text/plain"}
    res = client.post("/api/new-game", content=b'{"players": ["X", "Y"]}', headers=foreign)
    assert res.status_code == 403 and "another site" in res.json()["error"]
    res = client.post("/api/entry", json={"kind": "undo"}, headers={"Sec-Fetch-Site": "cross-site"})
    assert res.status_code == 403
    assert client.post("/api/new-game", json=GAME, headers={"Origin": "null"}).status_code == 403
    same = {"Origin": "http://testserver"}  # the page's own origin
    assert client.post("/api/new-game", json=GAME, headers=same).status_code == 200
    assert client.get("/api/view", headers=foreign).status_code == 200  # reading is open


def test_the_seat_links_and_their_qr_codes_are_the_hosts(writer):
    res = writer.post(
        "/api/digital/new", json={"players": ["Ann", "Bo", "Cy"], "humans": [0, 1], "pace": 0}
    )
    keys = res.json()["keys"]
    links = writer.get("/api/digital/links").json()["links"]
    assert links == {s: f"/play?key={k}" for s, k in keys.items()}
    qr = writer.get("/api/digital/qr/1.svg")
    assert qr.status_code == 200 and qr.text.startswith("<svg")
    assert writer.get("/api/digital/qr/2.svg").status_code == 404  # a bot's seat
    del writer.headers["X-Table-Token"]
    writer.headers["X-Seat-Key"] = keys["0"]
    assert writer.get("/api/digital/links").status_code == 403
    assert writer.get("/api/digital/qr/1.svg").status_code == 403
    mine = writer.get("/api/digital/view").json()
    assert mine["seat"] == 0
    assert writer.get("/api/digital/view?seat=1").status_code == 403  # another person's seat
