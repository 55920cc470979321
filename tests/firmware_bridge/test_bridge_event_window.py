"""The host's window of event numbers against forged frames (issue 48, item 5: a far-ahead number
sent twice used to make every real tap after it look like an old resend).

The device here is the reference firmware itself on a hand-cranked clock, so its numbering, its
resends every 250 ms and its queue of 8 are the real ones; the line between it and the host loses
and delays its frames, and loses the host's ACKs, as hypothesis says. "Forged" means a BUTTON frame
the device did not send whose number is not one the device sends in the test: a forger who sends
the device's own coming numbers first consumes those events, and event_window.py says so. Every
test runs at most 8 taps, so the device never pushes an unacknowledged event out of its queue.
"""

from __future__ import annotations

import collections

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import fakemachine
from firmware_bridge import protocol as p
from firmware_bridge.event_window import EventWindow, Seen
from firmware_bridge.firmware import tinkerfw, wire
from firmware_bridge.ticks import HandClock
from tests.helpers import examples
from tests.helpers.bridge import eventually
from tray.events import ButtonPressed

FINAL_TAPS = 5
FATES = ("arrives", "lost", "late")


class Tray:
    """The reference firmware, linked, with a clock that moves only in `run`."""

    def __init__(self, first_event_no: int) -> None:
        self.clock = HandClock(1000)
        self._out = bytearray()
        self.fw = tinkerfw.Firmware(fakemachine, self._out.extend, self.clock)
        self._decoder = p.Decoder()
        self.hear(p.Hello(1, 1, p.PROTOCOL_MINOR, 0, 0))
        self.fw.event_no = (first_event_no - 1) & 0xFFFF
        self._token = 0

    def hear(self, msg: p.Message) -> None:
        self.fw.feed(p.encode(msg, 1))

    def run(self, ms: int) -> list[p.Button]:
        """Let `ms` pass (the host's heartbeat every 250 ms keeps it linked); what it sent."""
        for tick in range(5, ms + 5, 5):
            self.clock.advance(5)
            if tick % 250 == 0:
                self._token += 1
                self.hear(p.Heartbeat(self._token))
            self.fw.poll()
        sent = [r.msg for r in self._decoder.feed(bytes(self._out))]
        self._out.clear()
        return [m for m in sent if isinstance(m, p.Button)]

    def tap(self) -> tuple[int, list[p.Button]]:
        """A tap: the number of its UP, and what the device sent meanwhile."""
        self.fw.button.drive(0)
        sent = self.run(40)
        self.fw.button.drive(1)
        sent += self.run(40)
        return self.fw.event_no, sent


class Host:
    """What host.py's `_button` does with a frame: acknowledge it unless it is a stray or a
    DOWN, and deliver it if it is new."""

    def __init__(self, tray: Tray) -> None:
        self.tray = tray
        self.window = EventWindow()
        self.presses: collections.Counter[int] = collections.Counter()

    def receive(self, msg: p.Button, *, ack_lost: bool = False) -> None:
        seen = self.window.take(msg.event_no)
        if seen is Seen.STRAY:
            return
        if msg.kind != wire.KIND_DOWN and not ack_lost:
            self.tray.hear(p.Ack(msg.event_no))
        if seen is Seen.NEW and msg.kind == wire.KIND_UP:
            self.presses[msg.event_no] += 1


class Line:
    """Carries the device's frames to the host: each sending arrives, is lost, or arrives later
    than frames sent after it; ACKs may be lost; forged frames may be slipped in between."""

    def __init__(self, data: st.DataObject, host: Host, forged: list[int] | None = None) -> None:
        self._data = data
        self._host = host
        self._late: list[p.Button] = []
        self.forged = forged if forged is not None else []

    def carry(self, sendings: list[p.Button], *, lossy: bool = True, forging: bool = False):
        draw = self._data.draw
        for msg in sendings:
            while forging and self.forged and draw(st.booleans()):
                self.forge()
            fate = draw(st.sampled_from(FATES)) if lossy else "arrives"
            if fate == "late":
                self._late.append(msg)
            elif fate == "arrives":
                self._host.receive(msg, ack_lost=lossy and draw(st.booleans()))
                if self._late and draw(st.booleans()):
                    self._host.receive(self._late.pop(0))

    def forge(self) -> None:
        self._host.receive(p.Button(self.forged.pop(0), wire.KIND_UP, 3_600_000, 80))

    def flush(self) -> None:
        """The frames still on their way arrive, and the forger sends what it had left."""
        while self._late:
            self._host.receive(self._late.pop(0))
        while self.forged:
            self.forge()

    def settle(self, tray: Tray) -> None:
        """A clean line until the device has nothing left to resend (every event acknowledged)."""
        self.flush()
        for _ in range(40):
            if not tray.fw.pending:
                return
            self.carry(tray.run(250), lossy=False)
        raise AssertionError(f"still unacknowledged: {[e[0] for e in tray.fw.pending]}")


def _ahead(n: int, of: int) -> int:
    return (n - of) & 0xFFFF


def forged_numbers(first: int, used: int) -> st.SearchStrategy[list[int]]:
    """Numbers anywhere, near the device's, and far ahead of them, each sent 1 to 4 times in a
    row; never one of the `used` numbers from `first` that the device will send."""
    number = st.one_of(
        st.integers(0, 0xFFFF),
        st.integers(-200, 200).map(lambda d: (first + d) & 0xFFFF),
        st.integers(65, 32767).map(lambda d: (first + d) & 0xFFFF),
        st.integers(65, 32767).map(lambda d: (first + used + d) & 0xFFFF),
    ).filter(lambda n: _ahead(n, first) >= used)
    sent = st.tuples(number, st.integers(1, 4)).map(lambda pair: [pair[0]] * pair[1])
    return st.lists(sent, max_size=12).map(lambda runs: [n for run in runs for n in run])


@settings(max_examples=examples(150))
@given(data=st.data(), first=st.integers(0, 0xFFFF), taps_before=st.integers(0, 3))
def test_after_any_forged_frames_each_real_tap_is_delivered_exactly_once(data, first, taps_before):
    """Forged frames before the device's taps and between its sendings (far ahead and sent twice
    or more, near its numbers, anything), then 5 taps: each tap is delivered once, and so is every
    tap the device made while the forging went on."""
    tray = Tray(first)
    host = Host(tray)
    forged = data.draw(forged_numbers(first, 2 * (taps_before + FINAL_TAPS)), label="forged")
    line = Line(data, host, list(forged))
    for _ in range(data.draw(st.integers(0, len(forged)), label="forged before any tap")):
        line.forge()
    ups = []
    for _ in range(taps_before):
        up, sent = tray.tap()
        ups.append(up)
        line.carry(sent + tray.run(data.draw(st.integers(0, 300))), forging=True)
    line.flush()  # the forger is done
    final = []
    for _ in range(FINAL_TAPS):
        up, sent = tray.tap()
        final.append(up)
        line.carry(sent + tray.run(data.draw(st.integers(0, 300))))
    line.settle(tray)
    assert [host.presses[up] for up in final] == [1] * FINAL_TAPS
    assert [host.presses[up] for up in ups] == [1] * taps_before


@settings(max_examples=examples(150))
@given(data=st.data(), first=st.integers(0, 0xFFFF), taps=st.integers(1, 8))
def test_every_real_tap_is_delivered_exactly_once_whatever_order_its_sendings_arrive_in(
    data, first, taps
):
    """No forger: sendings lost, late, after newer events, ACKs lost (so resends of events
    already taken), numbers wrapping past 65535."""
    tray = Tray(first)
    host = Host(tray)
    line = Line(data, host)
    ups = []
    for _ in range(taps):
        up, sent = tray.tap()
        ups.append(up)
        line.carry(sent + tray.run(data.draw(st.integers(0, 600))))
    line.settle(tray)
    assert [host.presses[up] for up in ups] == [1] * taps
    assert sum(host.presses.values()) == taps


@settings(max_examples=examples(150))
@given(
    data=st.data(),
    first=st.integers(0, 0xFFFF),
    jumps=st.lists(st.one_of(st.just(0), st.integers(65, 40000)), min_size=2, max_size=8),
)
def test_a_device_that_really_jumped_ahead_is_followed(data, first, jumps):
    """The device's numbers move on by more than the window before some taps (it lost events it
    could not keep): every tap is still delivered exactly once."""
    tray = Tray(first)
    host = Host(tray)
    line = Line(data, host)
    ups = []
    for jump in jumps:
        tray.fw.event_no = (tray.fw.event_no + jump) & 0xFFFF
        up, sent = tray.tap()
        ups.append(up)
        line.carry(sent + tray.run(data.draw(st.integers(0, 600))))
    line.settle(tray)
    assert [host.presses[up] for up in ups] == [1] * len(jumps)


def test_a_far_ahead_number_sent_twice_does_not_block_the_taps_after_it():
    """The issue, on the window alone: the forged pair is taken (it could be a device that jumped)
    but the device's own next events continue the run they came from."""
    window = EventWindow()
    assert [window.take(n) for n in (1, 2)] == [Seen.NEW, Seen.NEW]
    assert [window.take(20_002), window.take(20_002)] == [Seen.STRAY, Seen.NEW]
    assert [window.take(n) for n in range(3, 13)] == [Seen.NEW] * 10
    assert [window.take(n) for n in (2, 12, 20_002)] == [Seen.RESEND] * 3


def test_a_far_number_is_not_taken_when_the_device_was_heard_between_its_two_sendings():
    """Twice in a row means with no event taken elsewhere in between: the device that sent that
    event is not at the far number."""
    window = EventWindow()
    assert window.take(1) is Seen.NEW
    assert window.take(30_000) is Seen.STRAY
    assert window.take(2) is Seen.NEW
    assert window.take(30_000) is Seen.STRAY
    assert window.take(3) is Seen.NEW


def _tap(event_no: int, t_ms: int) -> bytes:
    return p.encode(p.Button(event_no, wire.KIND_UP, t_ms, 80), 0)


def test_after_a_far_ahead_number_sent_twice_the_next_5_taps_give_5_presses(linked):
    """The issue end to end, over a real pty: after a forged frame numbered 20,000 ahead is
    sent twice (taken: it could be a device that jumped), 5 real taps give 5 presses."""
    tray, emulator, events = linked
    eventually(lambda: tray.bridge.last_reply)  # device times now map onto the host's clock
    emulator.tap()
    events.wait_for(ButtonPressed, 1)
    forged = (emulator.firmware.event_no + 20_000) & 0xFFFF
    emulator.inject(_tap(forged, 3_600_000), _tap(forged, 3_600_000))
    events.wait_for(ButtonPressed, 2)  # the pair: one press, as from a device that jumped
    for taken in range(3, 3 + FINAL_TAPS):
        emulator.tap()
        events.wait_for(ButtonPressed, taken)
    eventually(lambda: not emulator.firmware.pending)  # every real tap acknowledged
    presses = events.of(ButtonPressed)
    real = [e for e in presses if abs(e.t - presses[0].t) < 3000]
    assert len(presses) == 2 + FINAL_TAPS and len(real) == 1 + FINAL_TAPS
