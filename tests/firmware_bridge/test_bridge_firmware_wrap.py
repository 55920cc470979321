"""The tick counter's wrap, on both interpreters: `ticks_ms()` wraps at 2**30 on a Pico (every
12.4 days), so a tray left plugged in meets it; and the uptime it reports must not jump when
`ticks_diff` from the boot tick would overflow (6.2 days). Each test starts the clock just
before the wrap, as a long-running tray would meet it."""

import pytest

from firmware_bridge import protocol as p
from firmware_bridge.firmware import wire
from firmware_bridge.ticks import TICKS_PERIOD

BEFORE_WRAP = TICKS_PERIOD - 300  # 300 ms before the counter wraps to 0
DAY_MS = 24 * 3600 * 1000


@pytest.fixture
def dev(make_device):
    dev = make_device(start=BEFORE_WRAP)
    dev.link()
    return dev


def test_a_full_show_plays_across_the_wrap(dev):
    colours = [(255, 0, 0, 0), (0, 255, 0, 0), (0, 0, 255, 0), (0, 0, 0, 255)]
    frames = (*((*colours[i % 4], 100) for i in range(7)), (9, 9, 9, 9, 1))
    dev.host(p.ShowData(3, 0, frames), p.ShowPlay(3, len(frames)))
    seen = []
    for _ in range(80):  # 800 ms, the wrap 300 ms in
        seen.append(dev.lights())
        dev.advance(10)
    assert dev.ticks < BEFORE_WRAP  # the counter did wrap
    expected = [tuple(v * 257 for v in frames[min(t // 10, 7)][:4]) for t in range(80)]
    assert seen == expected  # each frame for its 100 ms, none frozen, none skipped
    dev.advance(500)
    assert dev.lights() == (9 * 257,) * 4  # the last frame stays lit


def test_a_tune_plays_and_ends_across_the_wrap(dev):
    dev.host(p.Buzz(((880, 250), (0, 100), (440, 200))))
    heard = []
    for _ in range(70):
        freq, duty = dev.buzzer()
        heard.append(freq if duty else 0)
        dev.advance(10)
    assert heard == [880] * 25 + [0] * 10 + [440] * 20 + [0] * 15
    dev.advance(2000)
    assert dev.buzzer()[1] == 0  # silent two seconds after its end, not still sounding


def test_a_tap_is_resent_across_the_wrap_until_acknowledged(dev):
    dev.advance(100)
    dev.tap(down_ms=100)  # released 60 ms before the wrap, resent after it
    dev.advance(1000)
    ups = [b for b in dev.said(p.Button) if b.kind == wire.KIND_UP]
    assert len(ups) == 5 and len({b.event_no for b in ups}) == 1  # sent, then every 250 ms
    assert 100 <= ups[0].duration_ms <= 120
    dev.host(p.Ack(ups[0].event_no), p.Heartbeat(1))
    dev.advance(1000, step=50)
    assert len([b for b in dev.said(p.Button) if b.kind == wire.KIND_UP]) == 5


def test_the_heartbeat_uptime_counts_on_across_the_wrap(dev):
    uptimes = []
    for token in range(8):
        dev.host(p.Heartbeat(token))
        uptimes.append(dev.said(p.HeartbeatReply)[-1].uptime_ms)
        dev.advance(100)
    assert uptimes == [100 * i for i in range(8)]
    assert dev.mode == wire.MODE_LINKED  # the host deadline did not fire at the wrap


@pytest.mark.parametrize("days", [7, 13, 50])
def test_uptime_does_not_jump_after_days(make_device, days):
    """Past 6.2 days ticks_diff from the boot tick turns negative; past 12.4 the counter has
    wrapped twice; past 49.7 days the protocol's u32 wraps (PROTOCOL.md: uptime wraps)."""
    dev = make_device(start=BEFORE_WRAP)
    hour = 3600 * 1000
    for _ in range(days * 24):
        dev.advance(hour, step=hour)  # a poll an hour: the firmware must cope with sparse ones
    dev.link()
    dev.host(p.Heartbeat(1))
    assert dev.said(p.HeartbeatReply)[-1].uptime_ms == (days * DAY_MS) & 0xFFFFFFFF
    dev.drive(0)
    dev.advance(30)
    (down,) = dev.said(p.Button)
    assert down.t_ms == (days * DAY_MS) & 0xFFFFFFFF  # the time of the first edge
