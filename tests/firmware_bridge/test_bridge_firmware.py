"""The reference firmware's logic with a stub `machine` and a hand-cranked clock, no serial port:
under CPython, and under real MicroPython (the WebAssembly port) in lockstep with CPython, every
reply compared byte for byte (tests/helpers/firmware_device.py)."""

import pytest

from firmware_bridge import protocol as p
from firmware_bridge.firmware import tinkerfw, wire


def test_hello_reply_describes_the_device(dev):
    dev.link()
    (reply,) = dev.said(p.HelloReply)
    assert (reply.major_min, reply.major_max, reply.leds, reply.max_show) == (1, 1, 4, 128)
    assert reply.pwm and reply.buzzer
    assert reply.firmware == tinkerfw.FIRMWARE_VERSION
    assert reply.previous_mode == wire.MODE_STANDALONE  # it boots stand-alone


def test_without_a_buzzer_the_feature_is_not_announced(make_device):
    dev = make_device(buzzer=False)
    dev.link()
    assert not dev.said(p.HelloReply)[0].buzzer


def test_commands_before_hello_are_refused_with_an_error(dev):
    dev.host(p.SetLights(1, (255, 255, 255, 255)))
    assert dev.lights() == (0, 0, 0, 0)
    assert dev.said(p.Error)[0].code == wire.ERR_NOT_LINKED


def test_set_lights_sets_pwm_duty_and_is_reported_in_heartbeats(dev):
    dev.link()
    dev.host(p.SetLights(7, (255, 0, 128, 1)), p.Heartbeat(42))
    assert dev.lights() == (65535, 0, 128 * 257, 257)
    (beat,) = dev.said(p.HeartbeatReply)
    assert (beat.token, beat.state_id, beat.mode) == (42, 7, wire.MODE_LINKED)


def test_a_show_in_two_parts_plays_and_keeps_its_last_frame(dev):
    dev.link()
    dev.host(
        p.ShowData(5, 1, ((0, 0, 0, 255, 50),)),
        p.ShowData(5, 0, ((255, 0, 0, 0, 50),)),
        p.ShowPlay(5, 2),
    )
    assert dev.lights() == (65535, 0, 0, 0)
    dev.advance(60)
    assert dev.lights() == (0, 0, 0, 65535)
    dev.advance(200)
    assert dev.lights() == (0, 0, 0, 65535)


def test_an_incomplete_show_is_reported_not_played(dev):
    dev.link()
    dev.host(p.ShowData(5, 1, ((0, 0, 0, 255, 50),)), p.ShowPlay(5, 2))
    assert dev.lights() == (0, 0, 0, 0)
    assert dev.said(p.Error)[0].code == wire.ERR_SHOW_INCOMPLETE


def test_bad_payload_and_unknown_type_get_error_reports(dev):
    dev.link()
    dev.feed(wire.encode_frame(9, wire.SET_LIGHTS, b"\x01\x02"))
    dev.feed(wire.encode_frame(10, 0x66, b""))
    codes = [(e.code, e.ref_seq) for e in dev.said(p.Error)]
    assert codes == [(wire.ERR_BAD_PAYLOAD, 9), (wire.ERR_UNKNOWN_TYPE, 10)]


def test_frames_of_another_major_are_refused(dev):
    dev.link()
    dev.feed(wire.encode_frame(9, wire.SET_LIGHTS, bytes(6), major=2))
    assert dev.lights() == (0, 0, 0, 0)
    assert dev.said(p.Error)[0].code == wire.ERR_VERSION


def test_a_bouncing_tap_is_one_debounced_press(dev):
    dev.link()
    for level in (0, 1, 0, 1, 0):  # contact bounce within a few ms
        dev.drive(level)
        dev.tick(1)
    dev.advance(150)
    for level in (1, 0, 1):
        dev.drive(level)
        dev.tick(1)
    dev.advance(40)
    kinds = [b.kind for b in dev.said(p.Button)]
    assert kinds == [wire.KIND_DOWN, wire.KIND_UP]
    up = dev.said(p.Button)[1]
    assert 140 <= up.duration_ms <= 160


def test_a_hold_is_reported_at_the_hold_time_and_is_not_a_tap(dev):
    dev.link(hold_ms=500)
    dev.drive(0)
    dev.advance(600)
    hold = [b for b in dev.said(p.Button) if b.kind == wire.KIND_HOLD]
    assert len(hold) == 1 and hold[0].duration_ms >= 500
    dev.drive(1)
    dev.advance(40)
    kinds = [b.kind for b in dev.said(p.Button)]
    assert wire.KIND_UP not in kinds and kinds[-1] == wire.KIND_RELEASE


def test_taps_are_resent_until_acknowledged(dev):
    dev.link()
    dev.tap()
    dev.advance(600)  # no ACK: resent every RETRY_MS
    ups = [b for b in dev.said(p.Button) if b.kind == wire.KIND_UP]
    assert len(ups) >= 2 and len({b.event_no for b in ups}) == 1
    dev.host(p.Ack(ups[0].event_no))
    before = len(dev.said(p.Button))
    dev.host(p.Heartbeat(1))  # keep the link alive
    dev.advance(600, step=50)
    assert len(dev.said(p.Button)) == before


def test_host_lost_means_standalone_picks_reported_on_return(dev):
    dev.link(lost_ms=300)
    dev.advance(400)  # nothing from the host
    assert dev.mode == wire.MODE_STANDALONE
    sent = len(dev.out)
    dev.tap()
    assert len(dev.out) == sent  # nothing reported while alone...
    dev.advance(3000)
    assert sum(dev.lights()) == 65535  # ...but it picked, and one colour stays lit
    dev.link()
    reply = dev.said(p.HelloReply)[-1]
    assert (reply.previous_mode, reply.standalone_picks) == (wire.MODE_STANDALONE, 1)
    dev.link()
    assert dev.said(p.HelloReply)[-1].standalone_picks == 0


def test_incompatible_host_leaves_the_device_standalone(make_device):
    dev = make_device(major_range=(2, 2))
    dev.link()
    assert dev.said(p.HelloReply)[0].major_min == 2
    assert dev.mode == wire.MODE_STANDALONE


def test_buzz_plays_notes_then_falls_silent(dev):
    dev.link()
    dev.host(p.Buzz(((880, 50), (0, 20), (440, 50))))
    assert dev.buzzer() == (880, 32768)
    dev.advance(55)
    assert dev.buzzer()[1] == 0
    dev.advance(20)
    assert dev.buzzer() == (440, 32768)
    dev.advance(60)
    assert dev.buzzer()[1] == 0


@pytest.mark.parametrize("colour", range(4))
def test_standalone_show_lands_on_the_pick(colour):
    frames = tinkerfw.standalone_show(colour)
    assert frames[-1][0] == [255 if c == colour else 0 for c in range(4)]
    assert frames[-2][0] == frames[-1][0]  # the spin ends on the colour, no jump


def test_rand_below_is_in_range():
    assert {tinkerfw.rand_below(4) for _ in range(400)} == {0, 1, 2, 3}


def test_a_truncated_hello_gets_an_error_and_no_link(dev):
    dev.feed(wire.encode_frame(3, wire.HELLO, b"\x01"))
    assert dev.said(p.Error)[0].code == wire.ERR_BAD_PAYLOAD
    assert dev.mode == wire.MODE_STANDALONE


def test_a_show_past_the_device_limit_is_refused(dev):
    dev.link()
    dev.host(p.ShowData(1, tinkerfw.MAX_SHOW, ((1, 2, 3, 4, 5),)))
    assert dev.said(p.Error)[0].code == wire.ERR_BAD_PAYLOAD
