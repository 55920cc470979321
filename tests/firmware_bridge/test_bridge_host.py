"""Host-side pure functions: version check, level conversion, fitting a show to the device."""

import pytest

from firmware_bridge import protocol as p
from firmware_bridge.host import VersionRefused, check_version, show_frames, to_byte
from tray.backend import Frame


def reply(lo, hi):
    return p.HelloReply(lo, hi, 0, 4, 1, 128, 1, 0, "9.9.9", "pico")


def test_the_highest_common_major_is_chosen():
    assert check_version(reply(1, 3), host=(1, 2)) == 2


def test_an_old_firmware_is_told_to_update():
    with pytest.raises(VersionRefused, match="update the firmware on the tray"):
        check_version(reply(1, 1), host=(2, 2))


def test_a_new_firmware_asks_for_a_newer_host():
    with pytest.raises(VersionRefused, match="update tinker-tray on the host"):
        check_version(reply(3, 4), host=(1, 2))


def test_levels_map_to_bytes_and_bad_levels_are_refused():
    assert [to_byte(v) for v in (0.0, 0.5, 1.0)] == [0, 128, 255]
    with pytest.raises(ValueError, match="outside"):
        to_byte(-0.1)


def test_a_long_frame_is_split_and_keeps_its_time():
    out = show_frames([Frame((1.0, 0.0, 0.0, 0.0), 70.0)], 128)
    assert [f[4] for f in out] == [65535, 4465]


def test_a_show_too_long_for_the_device_is_merged_keeping_time_and_end():
    frames = [Frame((i % 2, 0.0, 0.0, 0.0), 0.01) for i in range(300)]
    frames.append(Frame((0.0, 0.0, 0.0, 1.0), 0.5))
    out = show_frames(frames, 128)
    assert len(out) <= 128
    assert sum(f[4] for f in out) == 300 * 10 + 500
    assert out[-1][:4] == (0, 0, 0, 255)


def test_a_frame_with_a_negative_time_is_refused():
    with pytest.raises(ValueError, match="non-negative"):
        show_frames([Frame((0.0, 0.0, 0.0, 0.0), -1.0)], 128)
