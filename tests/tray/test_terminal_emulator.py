"""The emulator's keys, without a terminal: each starts its finger on a thread of its own."""

from __future__ import annotations

import threading

from tray.bus import Bus
from tray.events import LinkHeld
from tray.terminal_emulator import TerminalEmulator


def _emulator(link):
    fingers = {name: threading.Event() for name in ("tap", "hold")}
    emulator = TerminalEmulator(None, Bus(), None, fingers["tap"].set, fingers["hold"].set, link)
    return emulator, fingers


def test_l_is_the_link_hold_and_says_so_when_the_window_opens():
    linked = threading.Event()
    bus = Bus()
    emulator = TerminalEmulator(None, bus, None, lambda: None, lambda: None, linked.set)
    emulator._key("l")
    assert linked.wait(5)
    bus.publish(LinkHeld(t=0.0, seconds=3.0))
    assert "pairing a phone" in emulator.log[-1]


def test_without_a_link_hold_l_does_nothing():
    emulator, fingers = _emulator(None)
    emulator._key("l")
    emulator._key(" ")
    assert fingers["tap"].wait(5) and not fingers["hold"].is_set()
