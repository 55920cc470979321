"""Every payload length is checked by the firmware itself: MicroPython's struct.unpack accepts
extra bytes (a 7-byte SET_LIGHTS would be applied there), so the firmware must refuse a wrong
length before struct sees it, with ERROR 2 and the same words on both interpreters."""

import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol as p
from firmware_bridge.firmware import wire
from tests.helpers import examples

FRAME = wire.SHOW_FRAME_SIZE
HEAD = struct.calcsize(wire.FMT_SHOW_DATA)
EXACT = {
    "HEARTBEAT": wire.FMT_HEARTBEAT,
    "SET_LIGHTS": wire.FMT_SET_LIGHTS,
    "SHOW_PLAY": wire.FMT_SHOW_PLAY,
    "ACK": wire.FMT_ACK,
}
COMMANDS = ["HELLO", "SHOW_DATA", "BUZZ", *EXACT]


def length_problem(name, n):
    """What the firmware must say about an `n`-byte payload of command `name` (PROTOCOL.md's
    layouts), or None where the length is right."""
    if name in EXACT:
        size = struct.calcsize(EXACT[name])
        return None if n == size else f"{name}: payload of {n} bytes, expected {size}"
    if name == "HELLO":  # a later minor may append fields
        size = struct.calcsize(wire.FMT_HELLO)
        return None if n >= size else f"HELLO: payload of {n} bytes, needs {size}"
    if name == "SHOW_DATA":
        if n >= HEAD and (n - HEAD) % FRAME == 0:
            return None
        return f"SHOW_DATA: payload of {n} bytes, expected {HEAD} and whole frames of {FRAME}"
    return None if n % 4 == 0 else f"BUZZ: payload of {n} bytes, expected whole notes of 4"


def send(dev, name, payload, seq=77):
    dev.feed(wire.encode_frame(seq, getattr(wire, name), payload))


@settings(max_examples=examples(60), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    name=st.sampled_from(COMMANDS),
    payload=st.integers(0, wire.MAX_PAYLOAD).flatmap(lambda n: st.binary(min_size=n, max_size=n)),
)
def test_every_command_checks_its_payload_length(make_device, name, payload):
    dev = make_device()
    dev.link()
    before = len(dev.out)
    send(dev, name, payload)
    errors = [m for m in dev.out[before:] if isinstance(m, p.Error)]
    problem = length_problem(name, len(payload))
    if problem is None:
        assert not [e for e in errors if "payload of" in e.text]
    else:
        assert [(e.code, e.ref_seq, e.text) for e in errors] == [
            (wire.ERR_BAD_PAYLOAD, 77, problem)
        ]
    dev.link()  # whatever it was sent, the firmware still answers
    dev.host(p.Heartbeat(5))
    assert dev.said(p.HeartbeatReply)[-1].token == 5


def test_a_seven_byte_set_lights_is_refused_not_applied(dev):
    dev.link()
    send(dev, "SET_LIGHTS", bytes((1, 0, 255, 255, 255, 255, 0)))
    assert dev.lights() == (0, 0, 0, 0)
    (error,) = dev.said(p.Error)
    assert (error.code, error.text) == (
        wire.ERR_BAD_PAYLOAD,
        "SET_LIGHTS: payload of 7 bytes, expected 6",
    )


def test_a_three_byte_heartbeat_is_refused_not_answered(dev):
    dev.link()
    send(dev, "HEARTBEAT", b"\x01\x00\x00")
    assert dev.said(p.HeartbeatReply) == []
    assert dev.said(p.Error)[0].text == "HEARTBEAT: payload of 3 bytes, expected 2"


def test_a_hello_with_more_fields_from_a_later_minor_links(dev):
    send(dev, "HELLO", p.Hello(1, 1, 1, 1000, 3000).pack() + b"\x09\x09")
    assert dev.said(p.HelloReply) and dev.mode == wire.MODE_LINKED


def test_a_note_the_buzzer_cannot_play_is_refused_before_the_tune_starts(dev):
    dev.link()
    dev.host(p.Buzz(((880, 50), (5, 50))))
    assert dev.said(p.Error)[0].text == "BUZZ: note 1 is 5 Hz (0 rests, at least 8)"
    assert dev.buzzer()[1] == 0
    dev.advance(200)  # nothing queued that the PWM would raise on mid-tune


@pytest.mark.parametrize("name", COMMANDS)
def test_an_empty_payload_is_checked_too(dev, name):
    dev.link()
    send(dev, name, b"")
    problem = length_problem(name, 0)
    texts = [e.text for e in dev.said(p.Error)]
    assert texts == ([problem] if problem else [])
