"""No spoilers, one show: the displays hold a pick back until the lights settle (the moment the
pick carries), and the virtual tray gets the very frames the LEDs play. Every clock here is
injected: nothing sleeps."""

from __future__ import annotations

import argparse
import json
import re
import threading

import pytest
from starlette.testclient import TestClient

from cli.app import create_app
from scoreboard import reveal
from scoreboard.session import PickRevealed, TableSession
from tests.helpers.picks import shown
from tests.helpers.web import TOKEN
from tray import show
from tray.backend import COLOURS
from tray.bus import Bus
from tray.config import ShowSettings
from tray.events import Pick

from .test_terminal import text

QUICK = ShowSettings(steps=6, first_step_s=0.05, last_step_s=0.2, blinks=2, blink_s=0.1, lit_s=1.0)
SPIN = show.spin_seconds(QUICK)
T0 = 1_000_000.0  # when the pick's show started, on the injected (monotonic) clock


def stamped(seq, colour, t=T0, lead=None, settings=QUICK):
    """A pick as the tray service posts it: its show started at `t` on the session's clock."""
    return shown(Pick(seq=seq, colour=colour, t=1.7e9, lead=lead), settings, t)


class Clock:
    def __init__(self, now: float = T0):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def quick_app(journal, bus, clock):
    app = create_app(journal, bus, TOKEN, press=lambda: None, show=QUICK, clock=clock)
    with TestClient(app) as c:
        yield c


def frames_json(colour, settings, lead=None):
    return [
        {"levels": list(f.levels), "seconds": f.seconds}
        for f in show.frames(colour, settings, lead)
    ]


@pytest.mark.parametrize("colour", COLOURS)
def test_the_virtual_tray_gets_exactly_the_frames_the_leds_play(quick_app, bus, clock, colour):
    bus.publish(stamped(3, colour, T0, lead="green"))
    clock.now = T0 + 60  # long after: the whole show
    served = quick_app.get("/api/show").json()
    assert served["seq"] == 3 and served["more"] is False
    assert served["frames"] == frames_json(colour, QUICK, "green")
    assert served["elapsed"] == pytest.approx(60)


@pytest.mark.parametrize("colour", COLOURS)
def test_the_page_gets_each_frame_only_as_the_leds_reach_it(quick_app, bus, clock, colour):
    """No frame to come, and not the show's length: either would name the pick early to anyone
    reading the page's traffic (the first frames are the same whatever the pick)."""
    full = frames_json(colour, QUICK, "red")
    bus.publish(stamped(1, colour, T0, lead="red"))
    begins = 0.0
    for n, frame in enumerate(full, start=1):
        for now in (T0 + begins + 1e-6, T0 + begins + frame["seconds"] / 2 + 1e-6):
            clock.now = now
            served = quick_app.get("/api/show").json()
            assert served["frames"] == full[:n]
            assert served["more"] == (n < len(full))
            assert served["elapsed"] == pytest.approx(now - T0)
            assert set(served) == {"seq", "frames", "more", "elapsed"}
        begins += frame["seconds"]


def test_the_show_starts_on_the_picks_lead_and_hides_it_until_that_show_lands(
    quick_app, bus, clock
):
    for lead in COLOURS:  # one lead needs extra steps to reach blue, and the reveal waits
        bus.publish(stamped(COLOURS.index(lead) + 1, "blue", clock.now, lead=lead))
        served = quick_app.get("/api/show").json()
        assert served["frames"] == frames_json("blue", QUICK, lead)[:1]
        assert served["frames"][0]["levels"] == [1.0 if c == lead else 0.0 for c in COLOURS]
        spin = show.spin_seconds(QUICK, "blue", lead)
        assert spin >= SPIN
        clock.now += spin - 1e-6
        assert quick_app.get("/api/view").json()["pick"]["pending"] is True
        clock.now += 1e-6
        assert quick_app.get("/api/view").json()["pick"]["colour"] == "blue"


def test_the_frames_follow_the_services_settings_not_the_defaults(journal, bus, clock):
    slow = ShowSettings(steps=30, blinks=4, lit_s=0.0, brightness=0.5)
    with TestClient(create_app(journal, bus, TOKEN, show=slow, clock=clock)) as c:
        bus.publish(stamped(1, "green", T0, settings=slow))
        clock.now = T0 + 60
        assert c.get("/api/show").json()["frames"] == frames_json("green", slow)
        assert frames_json("green", slow) != frames_json("green", ShowSettings())


@pytest.mark.parametrize("colour", COLOURS)
def test_the_view_names_the_pick_only_once_the_lights_settle(
    quick_app, bus, clock, journal, colour
):
    quick_app.headers["X-Table-Token"] = TOKEN
    quick_app.post("/api/new-game", json={"players": ["Ann", "Bea"]})
    bus.publish(stamped(1, colour, T0))
    assert journal.entries(1)[-1].entry["colour"] == colour  # journaled at once
    for now in (T0, T0 + SPIN / 2, T0 + SPIN - 1e-6):
        clock.now = now
        raw = quick_app.get("/api/view").text
        assert not re.search(rf"\b{colour}\b", raw, re.I)  # no swatch, sentence or meaning
        pick = json.loads(raw)["pick"]
        assert pick == {
            "seq": 1,
            "pending": True,
            "colour": None,
            "declared": None,
            "says": "Tinker Bell is choosing…",
            "meanings": [],
        }
    clock.now = T0 + SPIN
    pick = quick_app.get("/api/view").json()["pick"]
    assert pick["colour"] == colour and not pick["pending"]
    assert pick["says"].startswith(f"Tinker Bell chose {colour}")


def test_a_declared_card_stays_named_while_its_pick_is_hidden(quick_app, bus, clock):
    quick_app.headers["X-Table-Token"] = TOKEN
    quick_app.post("/api/new-game", json={"players": ["Ann", "Bea"]})
    quick_app.post("/api/entry", json={"kind": "declare", "card": "GD2", "seat": 1})
    bus.publish(stamped(2, "red", T0))
    pick = quick_app.get("/api/view").json()["pick"]
    assert pick["pending"] and pick["declared"] == "Green Draw 2" and pick["colour"] is None
    clock.now = T0 + SPIN
    assert quick_app.get("/api/view").json()["pick"]["says"].startswith("Tinker Bell chose red")


def test_a_page_opened_after_the_settle_time_sees_the_pick_at_once(quick_app, bus, clock):
    bus.publish(stamped(1, "blue", T0))
    clock.now = T0 + SPIN + 60  # nobody was watching when it settled
    assert quick_app.get("/api/view").json()["pick"]["colour"] == "blue"
    served = quick_app.get("/api/show").json()
    assert served["elapsed"] == pytest.approx(SPIN + 60)  # the page jumps to the last frame


def test_a_pick_stamped_in_the_future_waits_one_spin_from_its_arrival(quick_app, bus, clock):
    bus.publish(stamped(1, "blue", T0 + 3600))  # the tray's clock stepped back
    clock.now = T0 + SPIN - 1e-6
    assert quick_app.get("/api/view").json()["pick"]["pending"]
    clock.now = T0 + SPIN
    assert quick_app.get("/api/view").json()["pick"]["colour"] == "blue"


def test_without_a_tray_or_after_a_restart_a_pick_shows_at_once_and_no_show_is_served(
    tmp_path, clock
):
    from scoreboard.journal import Journal

    path = tmp_path / "j.sqlite3"
    journal, bus = Journal(path), Bus()
    with TestClient(create_app(journal, bus, TOKEN, clock=clock)) as c:  # no show settings
        assert c.get("/api/show").json() == reveal.no_show(None)
        bus.publish(Pick(seq=1, colour="yellow", t=T0))  # no tray: no show, nothing to wait for
        assert c.get("/api/view").json()["pick"]["colour"] == "yellow"
        assert c.get("/api/show").json() == reveal.no_show(1)
    journal.close()
    journal = Journal(path)
    with TestClient(create_app(journal, Bus(), TOKEN, show=QUICK, clock=clock)) as c:
        assert c.get("/api/view").json()["pick"]["colour"] == "yellow"  # the restart took time
        assert c.get("/api/show").json() == reveal.no_show(1)  # the LEDs are dark after a restart
    journal.close()


def test_the_pick_says_when_it_may_be_named_and_the_session_starts_no_thread(journal, clock):
    """No timer per pick: the session only compares its clock with the pick's own stamp, and
    the one announcement of the landing is the tray's PickSettled (alias PickRevealed)."""
    bus, seen = Bus(), []
    bus.subscribe(seen.append, PickRevealed)
    s = TableSession(journal, bus, show=QUICK, clock=clock)
    threads = threading.active_count()
    bus.publish(stamped(1, "red", T0))
    assert threading.active_count() == threads
    assert s.hidden_pick() == 1 and not s.settled(1)
    clock.now = T0 + SPIN - 1e-6
    assert s.hidden_pick() == 1
    clock.now = T0 + SPIN
    assert s.hidden_pick() is None and s.settled(1)
    assert seen == []  # the session never announces: the tray does, once
    s.close()


def test_a_newer_pick_is_the_one_held_back(journal, clock):
    s = TableSession(journal, Bus(), show=QUICK, clock=clock)
    bus = s.bus
    bus.publish(stamped(1, "red", T0))
    clock.now = T0 + SPIN
    bus.publish(stamped(2, "blue", clock.now))
    assert s.hidden_pick() == 2 and s.settled(1) and not s.settled(2)
    s.close()
    bus.publish(stamped(3, "green", clock.now + SPIN))  # closed: no longer listening
    assert s.table.last_pick.seq == 2


def test_the_terminal_shows_a_pending_pick_without_its_colour(journal, bus, clock):
    s = TableSession(journal, bus, show=QUICK, clock=clock)
    bus.publish(stamped(9, "green", T0))
    out = text(s.view())
    assert "Tinker Bell is choosing" in out and "pick #9" in out and "GREEN" not in out
    clock.now = T0 + SPIN
    assert "● GREEN" in text(s.view())


def test_the_service_hands_its_show_settings_to_the_display(mocker, tmp_path):
    from cli.commands import display
    from cli.commands.run import attach_display

    start = mocker.patch.object(display, "start_display")
    start.return_value.lines.return_value = []
    service = mocker.Mock()
    service.settings.show = QUICK
    args = argparse.Namespace(web=True, journal=tmp_path / "j.sqlite3", host="127.0.0.1", port=0)
    attach_display(service, Bus(), args, virtual_button=True)
    assert start.call_args.kwargs["show"] is QUICK
    assert start.call_args.kwargs["press"] is service.press
