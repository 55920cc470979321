"""No endpoint names a pick before its lights settle: a guest (and the host, and a seat) polls
every read endpoint of a live server while a slow show spins, at a table game and in digital
play. A response may name the pick only if it left the server after the settle time."""

from __future__ import annotations

import json
import time

import httpx
import pytest

from tests.helpers.picks import ShowingTray
from tests.helpers.web import TOKEN
from tests.scoreboard.test_browser import Served
from tray import show as light_show
from tray.config import ShowSettings
from tray.events import Pick

SLOW = ShowSettings(steps=10, first_step_s=0.05, last_step_s=0.25, blinks=2, blink_s=0.1, lit_s=1.0)
SPIN = light_show.spin_seconds(SLOW)  # about 1.5 s: dozens of polls of every endpoint
HOST = {"X-Table-Token": TOKEN}


@pytest.fixture
def served(tmp_path):
    s = Served(tmp_path / "journal.sqlite3", show=SLOW, press=lambda: None).start()
    yield s
    s.stop()


def poll_until_settled(served, reads, pick, names_it):
    """GET each of `reads` (path, headers) over and over until the lights have settled; each
    answer that names the pick must have come back after the settle time."""
    settle = pick.settles_at  # monotonic, as the tray stamps it
    polls = 0
    with httpx.Client(base_url=served.url, timeout=10) as http:
        while time.monotonic() < settle + 0.2:
            for path, headers in reads:
                res = http.get(path, headers=headers)
                back = time.monotonic()
                assert res.status_code < 500, (path, res.text)
                if res.status_code == 200 and names_it(path, res):
                    assert back >= settle, f"{path} named pick {pick.seq} before its lights settled"
                polls += 1
    return polls


def first_event(served, path, headers=None):
    with httpx.stream("GET", served.url + path, headers=headers, timeout=10) as res:
        for line in res.iter_lines():
            if line.startswith("data:"):
                return line[5:].strip()
    return ""


@pytest.mark.slow
def test_a_table_pick_is_named_nowhere_before_its_lights_settle(served):
    served.post("/api/new-game", {"players": ["Ann", "Bea", "Cy"]})
    served.post("/api/entry", {"kind": "declare", "card": "RD2", "seat": 0})
    tray = ShowingTray(served.bus, SLOW)
    pick = tray.publish(Pick(seq=5, colour="green", t=time.time(), lead="red"))
    assert json.loads(first_event(served, "/api/events"))["pick"]["colour"] is None

    def names_it(path, res):
        if path.endswith(".csv") or path.startswith("/api/show"):
            return False  # no pick in a score sheet; the show gives only frames reached
        text = res.text
        if path.startswith("/api/games/1.json"):
            return any(e.get("kind") == "pick" for e in res.json()["entries"])
        return '"colour":"green"' in text.replace(" ", "") or "chose green" in text

    reads = [
        (p, h)
        for p in (
            "/api/view",
            "/api/view?hands=all",
            "/api/show",
            "/api/games",
            "/api/games/1.json",
            "/api/games/1.csv",
            "/api/whoami",
        )
        for h in (None, HOST)
    ]
    assert poll_until_settled(served, reads, pick, names_it) > 20
    assert json.loads(first_event(served, "/api/events"))["pick"]["colour"] == "green"
    assert any(
        e.get("kind") == "pick"
        for e in httpx.get(served.url + "/api/games/1.json", headers=HOST).json()["entries"]
    )


@pytest.mark.slow
def test_a_digital_pick_is_named_nowhere_before_its_lights_settle(served):
    """Seed 17 deals Ann Wild Discard All for her first move: she plays it, the tray picks."""
    res = served.post(
        "/api/digital/new",
        {"players": ["Ann", "Bo", "Cy"], "humans": [0], "seed": 17, "pace": 0, "confirm": True},
    )
    seat = {"X-Seat-Key": res["keys"]["0"]}
    act = httpx.post(
        served.url + "/api/digital/act",
        headers=seat,
        json={"event": {"act": "play", "card": "WDA"}},
    )
    assert act.status_code == 200, act.text
    before = httpx.get(served.url + "/api/digital/view", headers=seat).json()
    assert before["awaiting"]["kind"] == "tinker_bell" and before["colour"] is None
    tray = ShowingTray(served.bus, SLOW)
    pick = tray.publish(Pick(seq=1, colour="yellow", t=time.time(), lead="blue"))
    choosing = httpx.get(served.url + "/api/digital/view", headers=seat).json()
    assert choosing["choosing"] is True and "choosing" in choosing["prompt"]
    assert "Tinker Bell chose" not in " ".join(choosing["log"])
    assert json.loads(first_event(served, "/api/digital/events", seat))["choosing"] is True

    def names_it(path, res):
        if path.startswith("/api/show") or path.endswith(".csv"):
            return False
        text = res.text
        if "record" in path or path.endswith(".jsonl?reveal=yes"):
            return '"tinker_bell"' in text
        if path.startswith("/api/digital/view"):
            view = res.json()
            return (
                any("Tinker Bell chose" in line for line in view["log"])
                or view["colour"] is not None
                or not view["choosing"]
            )
        if path.startswith("/api/games/"):
            return any(e.get("kind") == "pick" for e in res.json()["entries"])
        return '"colour":"yellow"' in text.replace(" ", "") or "chose yellow" in text

    reads = [
        ("/api/digital/view", None),
        ("/api/digital/view", seat),
        ("/api/digital/view", HOST),
        ("/api/digital/record?reveal=yes", HOST),
        ("/api/view", None),
        ("/api/games/1.json", HOST),
        ("/api/games/1.jsonl?reveal=yes", HOST),
        ("/api/show", None),
    ]
    assert poll_until_settled(served, reads, pick, names_it) > 20
    after = httpx.get(served.url + "/api/digital/view", headers=seat).json()
    assert "Tinker Bell chose yellow." in after["log"] and after["choosing"] is False


def test_the_console_logs_a_pick_once_its_lights_settle(caplog):
    """`tinker-tray run` logged `pick #6: red` at the press, while the lights spun."""
    import logging

    from cli.commands.run import log_picks_when_settled
    from tray.bus import Bus
    from tray.events import PickSettled

    bus = Bus()
    log_picks_when_settled(bus)
    with caplog.at_level(logging.INFO, logger="tinker-tray"):
        bus.publish(
            Pick(seq=6, colour="red", t=time.time(), lead="blue", shown_at=1.0, settles_at=5.0)
        )
        at_press = caplog.text
        bus.publish(PickSettled(6))
    assert "pick #6" in at_press and "red" not in at_press
    assert "pick #6: red" in caplog.text
