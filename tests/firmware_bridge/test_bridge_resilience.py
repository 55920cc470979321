"""What a linked host does with frames it did not ask for or has seen before, over a real pty:
an unsolicited HELLO_REPLY does not drop the device, a resend is recognised by its event
number however many other events came between, and a flood of ERROR frames is logged at a
bounded rate."""

import logging

from firmware_bridge import protocol as p
from firmware_bridge.events import TrayLinked
from firmware_bridge.firmware import wire
from tests.helpers.bridge import eventually
from tray.events import ButtonPressed, Fault


def _frame(msg: p.Message) -> bytes:
    return p.encode(msg, 0)


def _tap(event_no: int, t_ms: int = 5) -> bytes:
    return _frame(p.Button(event_no, wire.KIND_UP, t_ms, 80))


def test_an_unsolicited_hello_reply_mid_session_keeps_the_link(linked):
    tray, emulator, events = linked
    device = tray.bridge.device
    stray = p.HelloReply(1, 1, 0, 4, 1, 128, 0, 0, "6.6.6", "stray")
    emulator.inject(_frame(stray))
    refused = p.HelloReply(1, 1, 0, 4, 1, 60000, 0, 0, "6.6.6", "stray")  # refused on its own
    emulator.inject(_frame(refused))
    emulator.tap()
    events.wait_for(ButtonPressed)
    assert tray.bridge.linked.is_set() and tray.bridge.device == device
    assert len(events.of(TrayLinked)) == 1
    assert not [f for f in events.of(Fault) if f.kind != "serial_standalone"]
    assert tray.bridge.unsolicited >= 2


def test_a_resend_after_many_other_events_is_not_a_new_press(linked):
    tray, emulator, events = linked
    eventually(lambda: tray.bridge.last_reply)  # device times now map onto the host's clock
    for event_no in range(1000, 1100):
        emulator.inject(_tap(event_no))
    events.wait_for(ButtonPressed, 100)
    emulator.inject(_tap(1000))  # the first one again: its ACK was lost, 99 events ago
    emulator.inject(_tap(1100, t_ms=3_600_000))  # then a new one, an hour into the device's day
    presses = events.wait_for(ButtonPressed, 101)
    assert presses[100].t - presses[0].t > 3000  # the 101st press is the new one, not the resend


def test_event_numbers_wrap_without_losing_presses(linked):
    tray, emulator, events = linked
    eventually(lambda: tray.bridge.last_reply)  # device times now map onto the host's clock
    for event_no in (65534, 65535, 0, 1, 65535, 2):  # 65535 again: a resend across the wrap
        emulator.inject(_tap(event_no))
    emulator.inject(_tap(3, t_ms=3_600_000))
    presses = events.wait_for(ButtonPressed, 6)
    assert presses[5].t - presses[0].t > 3000  # the sixth press is event 3: nothing lost


def test_a_flood_of_error_frames_is_logged_at_a_bounded_rate(linked, caplog):
    tray, emulator, _events = linked
    caplog.set_level(logging.WARNING, logger="firmware_bridge.host")
    flood = b"".join(
        _frame(p.Error(wire.ERR_BAD_PAYLOAD, i & 0xFF, "wrong length")) for i in range(2000)
    )
    emulator.inject(flood)
    eventually(lambda: tray.bridge.errors and tray.bridge.errors[-1].ref_seq == 1999 & 0xFF)
    emulator.inject(_tap(4000))
    eventually(lambda: tray.bridge.counters.frames >= 2000)
    lines = [r for r in caplog.records if "error" in r.getMessage()]
    assert 1 <= len(lines) <= 10, [r.getMessage() for r in lines]
    assert tray.bridge.linked.is_set()


def _tap_and_wait(emulator, events, count: int) -> None:
    emulator.tap()
    events.wait_for(ButtonPressed, count)


def test_one_frame_numbered_far_ahead_does_not_block_the_taps_after_it(linked):
    """Noise with a good CRC, or a forged frame, 20,000 events ahead: ignored (not delivered,
    not acknowledged), and the real taps after it are each taken."""
    tray, emulator, events = linked
    eventually(lambda: tray.bridge.last_reply)
    _tap_and_wait(emulator, events, 1)
    forged = (emulator.firmware.event_no + 20_000) & 0xFFFF
    emulator.inject(_tap(forged, t_ms=3_600_000))
    eventually(lambda: tray.bridge.strays == 1)
    for taken in range(2, 7):
        _tap_and_wait(emulator, events, taken)
    presses = events.of(ButtonPressed)
    assert len(presses) == 6  # the first tap and 5 of 5 after the forged frame
    assert max(p.t for p in presses) - min(p.t for p in presses) < 3000  # never the forged one


def test_a_device_that_really_jumped_ahead_is_followed_after_its_resend(linked):
    """The device's numbers moved on by 20,000 (events it could not keep were dropped): its
    first far-ahead tap is taken once the device resends it, and the taps after it too."""
    tray, emulator, events = linked
    _tap_and_wait(emulator, events, 1)
    emulator.firmware.event_no = (emulator.firmware.event_no + 20_000) & 0xFFFF
    _tap_and_wait(emulator, events, 2)
    _tap_and_wait(emulator, events, 3)
    assert tray.bridge.strays >= 1  # the first sending was held back until its resend
    eventually(lambda: not emulator.firmware.pending)  # every tap acknowledged in the end
    assert len(events.of(ButtonPressed)) == 3
