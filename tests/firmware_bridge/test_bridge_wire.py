"""The wire format: COBS, CRC-16, framing, and typed messages surviving a round trip."""

import dataclasses
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol as p
from firmware_bridge.firmware import wire
from tests.helpers import examples

# Examples from the COBS paper / Wikipedia.
COBS_VECTORS = [
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
    (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255)) + b"\x01"),
]


@pytest.mark.parametrize(("raw", "encoded"), COBS_VECTORS)
def test_cobs_known_vectors(raw, encoded):
    assert wire.cobs_encode(raw) == encoded
    assert wire.cobs_decode(encoded) == raw


@given(st.binary(max_size=1000))
def test_cobs_round_trip_has_no_zero(data):
    encoded = wire.cobs_encode(data)
    assert b"\x00" not in encoded
    assert wire.cobs_decode(encoded) == data


@pytest.mark.parametrize("bad", [b"\x05\x11\x22", b"\x02\x00\x01"])
def test_cobs_rejects_truncated_or_zero(bad):
    with pytest.raises(ValueError, match="COBS"):
        wire.cobs_decode(bad)


def test_crc16_is_ccitt_false_in_both_implementations():
    assert wire.crc16(b"123456789") == 0x29B1  # the standard check value
    assert wire.crc16_py(b"123456789") == 0x29B1


@given(st.binary(max_size=300))
def test_table_crc_matches_the_c_one(data):
    # The device uses the table version; the host the C one. They must agree.
    assert wire.crc16_py(data) == wire.crc16(data)


def test_the_worked_example_in_protocol_md():
    assert wire.encode_frame(7, wire.HEARTBEAT, bytes([2, 1])) == bytes.fromhex(
        "08 01 07 03 02 01 63 c5 00"
    )


def test_oversized_payload_is_refused_when_encoding():
    with pytest.raises(ValueError, match="exceeds 240"):
        wire.encode_frame(1, wire.HEARTBEAT, bytes(241))


def test_deframer_counts_each_kind_of_bad_frame():
    good = wire.encode_frame(7, wire.HEARTBEAT, b"\x01\x00")
    flipped = bytearray(good)
    flipped[2] ^= 0x40  # a bit error inside the frame: the CRC catches it
    d = wire.Deframer()
    out = d.feed(
        bytes(flipped)
        + b"\x05\x11\x00"
        + b"\x02\x11\x00"
        + b"\x7f" * 400
        + b"\x00"
        + b"\x00\x00"
        + good
    )
    assert out == [(1, 7, wire.HEARTBEAT, b"\x01\x00")]
    assert d.dropped == {"bad_crc": 1, "garbled": 1, "too_short": 1, "too_long": 1}


def test_a_frame_split_at_every_offset_decodes_once():
    frames = p.encode(p.SetLights(3, (255, 0, 128, 1)), 1) + p.encode(
        p.Button(9, wire.KIND_UP, 123456, 80), 2
    )
    for cut in range(len(frames) + 1):
        dec = p.Decoder()
        got = dec.feed(frames[:cut]) + dec.feed(frames[cut:])
        assert [r.msg for r in got] == [
            p.SetLights(3, (255, 0, 128, 1)),
            p.Button(9, wire.KIND_UP, 123456, 80),
        ], cut
        assert dec.counters.dropped == 0


def test_one_byte_at_a_time_as_the_device_reads():
    data = p.encode(p.Heartbeat(0xBEEF), 200)
    dec = p.Decoder()
    got = [r for i in range(len(data)) for r in dec.feed(data[i : i + 1])]
    assert [(r.seq, r.msg) for r in got] == [(200, p.Heartbeat(0xBEEF))]


def test_sequence_gaps_are_counted():
    dec = p.Decoder()
    dec.feed(
        p.encode(p.Heartbeat(1), 254) + p.encode(p.Heartbeat(2), 255) + p.encode(p.Heartbeat(3), 2)
    )  # 0 and 1 went missing across the wrap
    assert dec.counters.seq_gaps == 2


def test_bad_payload_and_unknown_type_and_wrong_major_are_dropped_and_counted():
    dec = p.Decoder()
    got = dec.feed(
        wire.encode_frame(1, wire.SET_LIGHTS, b"\x01")  # too short
        + wire.encode_frame(2, 0x55, b"")  # unknown type
        + wire.encode_frame(3, wire.HEARTBEAT, b"\x01\x00", major=2)
        + wire.encode_frame(4, wire.BUTTON, struct.pack(wire.FMT_BUTTON, 1, 9, 0, 0))
    )
    assert got == []
    c = dec.counters
    assert (c.bad_payload, c.bad_field, c.unknown_type, c.wrong_major) == (1, 1, 1, 1)
    [refused] = dec.refused
    assert refused.problem == "BUTTON: kind = 9 is not allowed (kind is one of 0, 1, 2, 3)"


def test_hello_reply_of_another_major_still_gets_through():
    reply = p.HelloReply(2, 3, 0, 4, 1, 128, 0, 0, "2.0.0", "pico")
    got = p.Decoder().feed(p.encode(reply, 1, major=2))
    assert [r.msg for r in got] == [reply]


u8 = st.integers(0, 255)
u16 = st.integers(0, 0xFFFF)
u32 = st.integers(0, 0xFFFFFFFF)
short_text = st.text(max_size=32).filter(lambda s: len(s.encode()) <= 32)

short_text = short_text.filter(str.isprintable)
majors = st.tuples(st.integers(1, 255), st.integers(1, 255)).map(sorted)
modes = st.sampled_from([wire.MODE_LINKED, wire.MODE_STANDALONE])

# Valid messages: every field within its declared limits.
MESSAGES = st.one_of(
    st.builds(lambda m, minor, hold, lost: p.Hello(*m, minor, hold, lost), majors, u8, u16, u16),
    st.builds(
        lambda m, *rest: p.HelloReply(*m, *rest),
        majors,
        u8,
        st.just(4),
        u8,
        st.integers(2, p.MAX_SHOW_FRAMES),
        modes,
        u16,
        short_text,
        short_text,
    ),
    st.builds(p.Heartbeat, u16),
    st.builds(p.HeartbeatReply, u16, u32, u16, modes, u16),
    st.builds(p.SetLights, u16, st.tuples(u8, u8, u8, u8)),
    st.builds(
        p.ShowData,
        u16,
        u16,
        st.lists(st.tuples(u8, u8, u8, u8, u16), max_size=wire.SHOW_FRAMES_PER_MESSAGE).map(tuple),
    ),
    st.builds(p.ShowPlay, u16, st.integers(1, p.MAX_SHOW_FRAMES)),
    st.builds(p.Buzz, st.lists(st.tuples(u16, u16), max_size=60).map(tuple)),
    st.builds(p.Ack, u16),
    st.builds(p.Button, u16, st.sampled_from([0, 1, 2, 3]), u32, st.integers(0, p.MAX_DURATION_MS)),
    st.builds(p.Error, u8, u8, st.text(max_size=60).filter(str.isprintable)),
)


@settings(max_examples=examples(300))
@given(st.lists(MESSAGES, max_size=30), st.data())
def test_any_message_sequence_survives_encode_and_decode(messages, data):
    stream = b"".join(p.encode(m, i) for i, m in enumerate(messages))
    # deliver it in arbitrary chunks, as reads off a serial port come
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=8)))
    dec = p.Decoder()
    got = []
    for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        got += dec.feed(stream[a:b])
    assert [r.msg for r in got] == messages
    assert [r.seq for r in got] == [i & 0xFF for i in range(len(messages))]
    assert dec.counters.dropped == 0 and dec.counters.seq_gaps == 0


def test_noise_never_decodes_to_a_button_event():
    import random

    rng = random.Random(5)
    dec = p.Decoder()
    noise = rng.randbytes(1 << 20)
    got = [r for i in range(0, len(noise), 4096) for r in dec.feed(noise[i : i + 4096])]
    assert not [r for r in got if isinstance(r.msg, p.Button)]
    assert dec.counters.dropped > 1000  # it did look at the noise, and threw it away


# --- every field a device sends, fuzzed: in its limits it decodes, outside it is refused ------

WIRE_VALUES = {"B": u8, "H": u16, "I": u32}


def _wire_strategy(cls, name):
    """Every value the wire can carry in field `name` of `cls` (a fixed integer field)."""
    fields = cls._fixed_fields()
    at = sum(cls.GROUPS.get(n, 1) for n in fields[: fields.index(name)])
    return WIRE_VALUES[cls.FIXED.lstrip("<")[at]]


def _fixed_values(msg):
    out = []
    for n in type(msg)._fixed_fields():
        value = getattr(msg, n)
        out.extend(value if n in type(msg).GROUPS else (value,))
    return out


@given(st.data())
def test_each_field_of_each_message_is_decoded_only_within_its_limits(data):
    """Take a valid message, set one field to anything its wire type can carry, send it: the
    decoder returns it if the field is within its declared limits, and otherwise refuses it
    naming the message and the field. It never raises, never lets an absurd value through."""
    original = data.draw(MESSAGES)
    cls = type(original)
    names = [n for n in cls._fixed_fields() if n not in cls.GROUPS]
    if not names:
        return
    name = data.draw(st.sampled_from(names))
    value = data.draw(_wire_strategy(cls, name))
    msg = dataclasses.replace(original, **{name: value})
    dec = p.Decoder()
    got = dec.feed(
        wire.encode_frame(
            1, cls.TYPE, struct.pack(cls.FIXED, *_fixed_values(msg)) + _tail(original)
        )
    )
    try:
        msg.check()
    except p.FieldError as exc:
        assert got == [] and dec.counters.bad_field == 1
        assert dec.refused[-1].problem == str(exc)
        assert str(exc).startswith(f"{cls.name()}: ")
    else:
        assert [r.msg for r in got] == [msg]
        limit = cls.LIMITS.get(name)
        assert limit is None or limit.allows(value)


def _tail(msg):
    packed = msg.pack()
    return packed[struct.calcsize(type(msg).FIXED) :]


@pytest.mark.parametrize("max_show", [0, 1, p.MAX_SHOW_FRAMES + 1, 0xFFFF])
def test_a_hello_reply_with_an_absurd_max_show_is_refused(max_show):
    reply = p.HelloReply(1, 1, 0, 4, 1, max_show, 0, 0, "1.0.0", "pico")
    dec = p.Decoder()
    assert dec.feed(p.encode(reply, 1)) == []
    refused = dec.take_refused(wire.HELLO_REPLY)
    assert refused is not None
    assert refused.problem == (
        f"HELLO_REPLY: max_show = {max_show} is not allowed (max_show is 2 to {p.MAX_SHOW_FRAMES})"
    )
    assert dec.take_refused(wire.HELLO_REPLY) is None


def test_every_message_is_declared_by_its_layout():
    for cls in p.MESSAGE_TYPES:
        assert "pack" not in vars(cls) and "unpack" not in vars(cls), cls
        assert set(cls.LIMITS) <= {f.name for f in dataclasses.fields(cls)}, cls
