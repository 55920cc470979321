"""A standalone display (no tray) offers the Tinker Bell button on its pages: each press is a
fair pick published on the bus, shown after the same light show; a double tap picks once."""

from __future__ import annotations

from starlette.testclient import TestClient

from cli.app import create_app
from cli.commands.display import VirtualButton
from scoreboard.session import TableSession
from tests.helpers.web import TOKEN
from tray import show
from tray.config import ShowSettings
from tray.events import Pick

from .test_reveal import T0, Clock

SHOW = ShowSettings(steps=4, first_step_s=0.05, last_step_s=0.1, blinks=1, blink_s=0.1, lit_s=1.0)


def test_a_press_picks_once_until_the_lights_settle_and_the_numbers_carry_on(
    journal, bus, recorder
):
    clock = Clock(T0)
    session = TableSession(journal, bus, show=SHOW, clock=clock)
    bus.publish(Pick(seq=41, colour="red", t=T0))  # a pick kept from before
    clock.now += 60
    button = VirtualButton(bus, SHOW, clock)
    button.session = session
    button()
    picks = recorder.of(Pick)
    assert [p.seq for p in picks] == [41, 42] and picks[-1].source == "virtual"
    assert session.hidden_pick() == 42  # stamped with its show: named when the lights land
    button()  # a double tap while the lights spin
    assert len(recorder.of(Pick)) == 2
    clock.now += show.spin_seconds(SHOW, picks[-1].colour, picks[-1].lead) + 0.01
    button()
    assert [p.seq for p in recorder.of(Pick)] == [41, 42, 43]
    session.close()


def test_the_pages_offer_the_button_to_the_host(journal, bus, recorder):
    button = VirtualButton(bus, SHOW)
    with TestClient(create_app(journal, bus, TOKEN, press=button)) as client:
        button.session = client.app.state.session
        assert client.get("/api/whoami").json()["press"] is True
        assert client.post("/api/press", json={}).status_code == 403  # a reader may not
        assert (
            client.post("/api/press", json={}, headers={"X-Table-Token": TOKEN}).status_code == 200
        )
    assert [p.source for p in recorder.of(Pick)] == ["virtual"]
