"""The emulator redraws when what it shows changes, and only then (issue 52, point 9): left open
all evening it drew 20 frames a second of an unchanged view. Counted on a stand-in for rich's
`Live` (our seam: `TerminalEmulator.redraw_if_changed`), with the real service on mock pins;
nothing here is timed."""

from __future__ import annotations

import io
import threading

import pytest
from rich.console import Console

from tray.events import Pick, PickSettled
from tray.gpio_tray import GpioTray
from tray.pick import Picker
from tray.service import TrayService
from tray.terminal_emulator import TerminalEmulator


class CountingLive:
    """What the emulator asks of rich's `Live`: each drawing, kept to count and to read."""

    def __init__(self) -> None:
        self.drawings: list[object] = []

    def update(self, renderable: object, refresh: bool = False) -> None:
        assert refresh, "with auto_refresh off, an update not refreshed is never drawn"
        self.drawings.append(renderable)


def text_of(renderable: object) -> str:
    console = Console(file=io.StringIO(), width=120, color_system=None)
    console.print(renderable)
    out = console.file
    assert isinstance(out, io.StringIO)
    return out.getvalue()


@pytest.fixture
def service(mock_factory, quick_config, bus):
    service = TrayService(GpioTray(quick_config), bus, Picker(seed=5), quick_config)
    service.start()
    yield service
    service.stop()


@pytest.fixture
def emulator(service, bus):
    return TerminalEmulator(service, bus, service.tray, service.press, service.hold)


def settle(service, recorder, picks: int = 1) -> None:
    """Until the show has landed (the service's own event, not a guessed sleep)."""
    recorder.wait_for(PickSettled, picks)
    while service.spinning:
        threading.Event().wait(0.01)


def test_the_emulator_draws_without_rich_refreshing_by_itself(emulator):
    assert emulator.live().auto_refresh is False


def test_nothing_changed_nothing_redrawn(emulator):
    live = CountingLive()
    assert emulator.redraw_if_changed(live)  # the first drawing
    for _ in range(200):  # ten seconds of the loop's polls
        assert not emulator.redraw_if_changed(live)
    assert len(live.drawings) == 1


def test_a_press_redraws_at_once_and_the_pick_redraws_when_it_lands(emulator, service, recorder):
    live = CountingLive()
    emulator.redraw_if_changed(live)
    emulator._key(" ")  # the key: drawn at once, before the tray has done anything
    assert emulator.redraw_if_changed(live)
    [pick] = recorder.wait_for(Pick)
    emulator.redraw_if_changed(live)  # the pick in the history (as "?": no spoilers), drawn now
    assert emulator.drawn()[1:3] == emulator._last[1:3]  # or already, on a busy machine
    assert emulator._last[1] == 1
    settle(service, recorder)
    assert emulator.redraw_if_changed(live)  # the lights landed, the colour named
    assert pick.colour in text_of(live.drawings[-1]) and "ready" in text_of(live.drawings[-1])
    drawn = len(live.drawings)
    for _ in range(50):
        emulator.redraw_if_changed(live)
    assert len(live.drawings) == drawn, "once the show has landed the view stands still"


def test_a_pick_from_elsewhere_redraws(emulator, service, recorder):
    """A pick the emulator's keys did not make (the virtual button on a phone) is drawn too."""
    live = CountingLive()
    emulator.redraw_if_changed(live)
    service.press()
    recorder.wait_for(Pick)
    assert emulator.redraw_if_changed(live)
    settle(service, recorder)
    emulator.redraw_if_changed(live)
    assert not emulator.redraw_if_changed(live)
