"""The tinker-tray serial wire format, shared by the host and the firmware.

Written in the subset of Python that MicroPython runs (no dataclasses, no typing, no f-strings in
hot paths), because this one file is copied to the Pico as it is: the host and the device cannot
disagree about framing if they run the same code. PROTOCOL.md is the specification; this is one
implementation of it.

A frame on the wire is COBS(body + crc16) followed by one 0x00 delimiter, where
body = major(u8) seq(u8) type(u8) payload(0..MAX_PAYLOAD bytes), all integers little-endian.
"""

import struct

PROTOCOL_MAJOR = 1
PROTOCOL_MINOR = 0

MAX_PAYLOAD = 240
HEADER = 3
MAX_BODY = HEADER + MAX_PAYLOAD + 2  # header, payload, crc
MAX_ENCODED = MAX_BODY + 2  # COBS adds at most one byte per 254 (here: 2)

# Message types. HELLO, HELLO_REPLY and ERROR keep their layout in every protocol major, so two
# sides that speak different majors can still find that out and say so.
HELLO = 0x01
HELLO_REPLY = 0x02
HEARTBEAT = 0x03
HEARTBEAT_REPLY = 0x04
SET_LIGHTS = 0x10
SHOW_DATA = 0x11
SHOW_PLAY = 0x12
BUZZ = 0x13
ACK = 0x14
BUTTON = 0x20
ERROR = 0x7F

# struct formats of the fixed part of each payload (strings and lists follow where noted).
FMT_HELLO = "<BBBHH"  # major_min, major_max, minor, hold_ms, lost_ms
FMT_HELLO_REPLY = "<BBBBBHBH"  # major_min, major_max, minor, leds, features, max_show,
#                                  previous mode, standalone picks; then firmware, board strings
FMT_HEARTBEAT = "<H"  # token
FMT_HEARTBEAT_REPLY = "<HIHBH"  # token, uptime_ms, state_id, mode, rx_bad
FMT_SET_LIGHTS = "<HBBBB"  # state_id, red, blue, green, yellow (0..255)
FMT_SHOW_DATA = "<HH"  # state_id, index of first frame; then frames
FMT_SHOW_FRAME = "<BBBBH"  # red, blue, green, yellow, milliseconds
FMT_SHOW_PLAY = "<HH"  # state_id, frame count
FMT_NOTE = "<HH"  # BUZZ payload is notes: frequency_hz (0 = rest), milliseconds
FMT_ACK = "<H"  # event_no
FMT_BUTTON = "<HBII"  # event_no, kind, t_ms (device clock), duration_ms
FMT_ERROR = "<BB"  # code, seq of the offending frame; then text

FEATURE_PWM = 0x01
FEATURE_BUZZER = 0x02

MODE_LINKED = 0
MODE_STANDALONE = 1

KIND_DOWN = 0
KIND_UP = 1  # released before the hold time: a tap
KIND_HOLD = 2  # held down for the hold time (sent once, while still down)
KIND_RELEASE = 3  # released after a hold (not a tap)

ERR_UNKNOWN_TYPE = 1
ERR_BAD_PAYLOAD = 2
ERR_VERSION = 3
ERR_SHOW_INCOMPLETE = 4
ERR_NOT_LINKED = 5

SHOW_FRAME_SIZE = struct.calcsize(FMT_SHOW_FRAME)
SHOW_FRAMES_PER_MESSAGE = (MAX_PAYLOAD - struct.calcsize(FMT_SHOW_DATA)) // SHOW_FRAME_SIZE


def _crc16_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_TABLE = None


def crc16_py(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor)."""
    global _TABLE
    if _TABLE is None:
        _TABLE = _crc16_table()
    table = _TABLE
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ b]
    return crc


try:  # CPython has the same CRC in C; MicroPython's binascii does not.
    from binascii import crc_hqx as _crc_hqx

    def crc16(data):
        return _crc_hqx(data, 0xFFFF)

except ImportError:  # pragma: no cover - exercised on the device
    crc16 = crc16_py


def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: the result has no 0x00 byte."""
    out = bytearray()
    for block in bytes(data).split(b"\x00"):
        while len(block) >= 254:
            out.append(255)
            out += block[:254]
            block = block[254:]
        out.append(len(block) + 1)
        out += block
    return bytes(out)


def cobs_decode(data):
    """Inverse of cobs_encode; raises ValueError on a zero byte or a truncated block."""
    if b"\x00" in data:
        raise ValueError("zero byte inside a COBS frame")
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        i += 1
        j = i + code - 1
        if j > n:
            raise ValueError("truncated COBS block")
        out += data[i:j]
        i = j
        if code < 255 and i < n:
            out.append(0)
    return bytes(out)


def encode_frame(seq, msg_type, payload=b"", major=PROTOCOL_MAJOR):
    """One complete frame, delimiter included, ready to write."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("payload of %d bytes exceeds %d" % (len(payload), MAX_PAYLOAD))
    body = bytes((major & 0xFF, seq & 0xFF, msg_type & 0xFF)) + bytes(payload)
    return cobs_encode(body + struct.pack("<H", crc16(body))) + b"\x00"


# Reasons a chunk between delimiters is dropped (keys of Deframer.dropped).
DROP_GARBLED = "garbled"  # not valid COBS
DROP_CRC = "bad_crc"
DROP_SHORT = "too_short"
DROP_LONG = "too_long"


class Deframer:
    """Turns a byte stream into (major, seq, type, payload) tuples; drops and counts bad frames.

    Bytes may arrive in any chunks (one at a time on the device, thousands on the host). A chunk
    longer than MAX_ENCODED is discarded as soon as it overflows, so noise cannot grow memory.
    """

    def __init__(self):
        self._buf = bytearray()
        self._overflow = False
        self.dropped = {DROP_GARBLED: 0, DROP_CRC: 0, DROP_SHORT: 0, DROP_LONG: 0}
        self.frames = 0

    def feed(self, data):
        out = []
        start = 0
        n = len(data)
        while start < n:
            end = data.find(b"\x00", start)
            if end < 0:
                self._append(data[start:])
                break
            self._append(data[start:end])
            self._finish(out)
            start = end + 1
        return out

    def _append(self, chunk):
        if self._overflow:
            return
        if len(self._buf) + len(chunk) > MAX_ENCODED:
            self._overflow = True
            self._buf = bytearray()
        else:
            self._buf += chunk

    def _finish(self, out):
        raw = self._buf
        overflow = self._overflow
        self._buf = bytearray()
        self._overflow = False
        if overflow:
            self.dropped[DROP_LONG] += 1
            return
        if not raw:
            return  # back-to-back delimiters: a sender may resynchronise with a lone 0x00
        try:
            body = cobs_decode(raw)
        except ValueError:
            self.dropped[DROP_GARBLED] += 1
            return
        if len(body) < HEADER + 2:
            self.dropped[DROP_SHORT] += 1
            return
        if crc16(body[:-2]) != struct.unpack("<H", body[-2:])[0]:
            self.dropped[DROP_CRC] += 1
            return
        self.frames += 1
        out.append((body[0], body[1], body[2], body[HEADER:-2]))
