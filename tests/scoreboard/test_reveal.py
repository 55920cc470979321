"""No spoilers, one show: the displays hold a pick back until the lights settle, and the virtual
tray gets the very frames the LEDs play. Every clock here is injected: nothing sleeps."""

from __future__ import annotations

import argparse
import json
import re

import pytest
from starlette.testclient import TestClient

from cli.app import create_app
from scoreboard import reveal
from scoreboard.session import PickRevealed, TableSession
from tests.helpers.web import TOKEN
from tray import show
from tray.backend import COLOURS
from tray.bus import Bus
from tray.config import ShowSettings
from tray.events import Pick

from .test_terminal import text

QUICK = ShowSettings(steps=6, first_step_s=0.05, last_step_s=0.2, blinks=2, blink_s=0.1, lit_s=1.0)
SPIN = show.spin_seconds(QUICK)
T0 = 1_000_000.0  # when the pick was made, on the injected clock


class Clock:
    def __init__(self, now: float = T0):
        self.now = now

    def __call__(self) -> float:
        return self.now


class Timers:
    """An injected Schedule: records (delay, fn) instead of starting threads."""

    def __init__(self):
        self.pending: list[tuple[float, object]] = []
        self.cancelled = 0

    def __call__(self, delay, fn):
        entry = (delay, fn)
        self.pending.append(entry)

        def cancel():
            if entry in self.pending:
                self.pending.remove(entry)
                self.cancelled += 1
        return cancel

    def fire(self):
        delay, fn = self.pending.pop(0)
        fn()
        return delay


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def quick_app(journal, bus, clock):
    app = create_app(journal, bus, TOKEN, press=lambda: None, show=QUICK, clock=clock)
    with TestClient(app) as c:
        yield c


def frames_json(colour, settings, lead=None):
    return [{"levels": list(f.levels), "seconds": f.seconds}
            for f in show.frames(colour, settings, lead)]


@pytest.mark.parametrize("colour", COLOURS)
def test_the_virtual_tray_gets_exactly_the_frames_the_leds_play(quick_app, bus, clock, colour):
    bus.publish(Pick(seq=3, colour=colour, t=T0, lead="green"))
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
    bus.publish(Pick(seq=1, colour=colour, t=T0, lead="red"))
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
        quick_app, bus, clock):
    for lead in COLOURS:  # one lead needs extra steps to reach blue, and the reveal waits
        bus.publish(Pick(seq=COLOURS.index(lead) + 1, colour="blue", t=clock.now, lead=lead))
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
        bus.publish(Pick(seq=1, colour="green", t=T0))
        clock.now = T0 + 60
        assert c.get("/api/show").json()["frames"] == frames_json("green", slow)
        assert frames_json("green", slow) != frames_json("green", ShowSettings())


@pytest.mark.parametrize("colour", COLOURS)
def test_the_view_names_the_pick_only_once_the_lights_settle(quick_app, bus, clock, journal,
                                                              colour):
    quick_app.headers["X-Table-Token"] = TOKEN
    quick_app.post("/api/new-game", json={"players": ["Ann", "Bea"]})
    bus.publish(Pick(seq=1, colour=colour, t=T0))
    assert journal.entries(1)[-1].entry["colour"] == colour  # journaled at once
    for now in (T0, T0 + SPIN / 2, T0 + SPIN - 1e-6):
        clock.now = now
        raw = quick_app.get("/api/view").text
        assert not re.search(rf"\b{colour}\b", raw, re.I)  # no swatch, sentence or meaning
        pick = json.loads(raw)["pick"]
        assert pick == {"seq": 1, "pending": True, "colour": None, "declared": None,
                        "says": "Tinker Bell is choosing…", "meanings": []}
    clock.now = T0 + SPIN
    pick = quick_app.get("/api/view").json()["pick"]
    assert pick["colour"] == colour and not pick["pending"]
    assert pick["says"].startswith(f"Tinker Bell chose {colour}")


def test_a_declared_card_stays_named_while_its_pick_is_hidden(quick_app, bus, clock):
    quick_app.headers["X-Table-Token"] = TOKEN
    quick_app.post("/api/new-game", json={"players": ["Ann", "Bea"]})
    quick_app.post("/api/entry", json={"kind": "declare", "card": "GD2", "seat": 1})
    bus.publish(Pick(seq=2, colour="red", t=T0))
    pick = quick_app.get("/api/view").json()["pick"]
    assert pick["pending"] and pick["declared"] == "Green Draw 2" and pick["colour"] is None
    clock.now = T0 + SPIN
    assert quick_app.get("/api/view").json()["pick"]["says"].startswith("Tinker Bell chose red")


def test_a_page_opened_after_the_settle_time_sees_the_pick_at_once(quick_app, bus, clock):
    bus.publish(Pick(seq=1, colour="blue", t=T0))
    clock.now = T0 + SPIN + 60  # nobody was watching when it settled
    assert quick_app.get("/api/view").json()["pick"]["colour"] == "blue"
    served = quick_app.get("/api/show").json()
    assert served["elapsed"] == pytest.approx(SPIN + 60)  # the page jumps to the last frame


def test_a_pick_stamped_in_the_future_waits_one_spin_from_its_arrival(quick_app, bus, clock):
    bus.publish(Pick(seq=1, colour="blue", t=T0 + 3600))  # the tray's clock stepped back
    clock.now = T0 + SPIN - 1e-6
    assert quick_app.get("/api/view").json()["pick"]["pending"]
    clock.now = T0 + SPIN
    assert quick_app.get("/api/view").json()["pick"]["colour"] == "blue"


def test_without_a_tray_or_after_a_restart_a_pick_shows_at_once_and_no_show_is_served(
        tmp_path, clock):
    from scoreboard.journal import Journal

    path = tmp_path / "j.sqlite3"
    journal, bus = Journal(path), Bus()
    with TestClient(create_app(journal, bus, TOKEN, clock=clock)) as c:  # no show settings
        assert c.get("/api/show").json() == reveal.no_show(None)
        bus.publish(Pick(seq=1, colour="yellow", t=T0))
        assert c.get("/api/view").json()["pick"]["colour"] == "yellow"
        assert c.get("/api/show").json() == reveal.no_show(1)
    journal.close()
    journal = Journal(path)
    with TestClient(create_app(journal, Bus(), TOKEN, show=QUICK, clock=clock)) as c:
        assert c.get("/api/view").json()["pick"]["colour"] == "yellow"  # the restart took time
        assert c.get("/api/show").json() == reveal.no_show(1)  # the LEDs are dark after a restart
    journal.close()


def test_the_session_announces_the_reveal_when_its_clock_gets_there(journal, clock):
    bus, timers, seen = Bus(), Timers(), []
    bus.subscribe(seen.append, PickRevealed)
    s = TableSession(journal, bus, show=QUICK, clock=clock, schedule=timers)
    bus.publish(Pick(seq=1, colour="red", t=T0))
    assert [d for d, _ in timers.pending] == [pytest.approx(SPIN)] and seen == []
    clock.now = T0 + SPIN - 0.01  # the timer fired early (another clock): it waits again
    timers.fire()
    assert seen == [] and [d for d, _ in timers.pending] == [pytest.approx(0.01)]
    clock.now = T0 + SPIN
    timers.fire()
    assert seen == [PickRevealed(1)] and timers.pending == []
    s.close()


def test_a_newer_pick_takes_over_the_reveal_and_close_cancels_it(journal, clock):
    bus, timers, seen = Bus(), Timers(), []
    bus.subscribe(seen.append, PickRevealed)
    s = TableSession(journal, bus, show=QUICK, clock=clock, schedule=timers)
    bus.publish(Pick(seq=1, colour="red", t=T0))
    first = timers.pending[0]
    clock.now = T0 + 1
    bus.publish(Pick(seq=2, colour="blue", t=T0 + 1))
    clock.now = T0 + 1 + SPIN
    first[1]()  # the stale timer of pick 1 announces nothing
    assert seen == []
    timers.fire()
    assert seen == [PickRevealed(2)]
    bus.publish(Pick(seq=3, colour="green", t=clock.now))
    s.close()
    assert timers.pending == [] and timers.cancelled >= 1


def test_the_terminal_shows_a_pending_pick_without_its_colour(journal, bus, clock):
    s = TableSession(journal, bus, show=QUICK, clock=clock, schedule=Timers())
    bus.publish(Pick(seq=9, colour="green", t=T0))
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
    args = argparse.Namespace(web=True, journal=tmp_path / "j.sqlite3", host="127.0.0.1",
                              port=0)
    attach_display(service, Bus(), args, virtual_button=True)
    assert start.call_args.kwargs["show"] is QUICK
    assert start.call_args.kwargs["press"] is service.press
