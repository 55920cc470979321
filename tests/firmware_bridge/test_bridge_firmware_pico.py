"""The firmware as the Pico runs it: compiled by mpy-cross for the Pico's Cortex-M0+, and
main.py, unmodified, booted by MicroPython (the WebAssembly port) with the project's stub
`machine` and USB serial (on_micropython/), in a heap the size a Pico leaves a program."""

import struct

import pytest

from firmware_bridge.firmware import tinkerfw, wire
from firmware_bridge.ticks import TICKS_PERIOD
from tests.helpers.firmware_device import (
    PICO_HEAP,
    SOURCES,
    MicroPython,
    firmware_files,
    measure_heap,
    run_main,
)


def test_mpy_cross_compiles_every_firmware_file_for_the_pico(pico_build):
    for name in SOURCES:
        header = (pico_build / name.replace(".py", ".mpy")).read_bytes()[:4]
        magic, version, _flags, small_int_bits = struct.unpack("<cBBB", header)
        # .mpy format 6 (MicroPython 1.19 and later), 31-bit small ints: a 32-bit target
        assert (magic, version, small_int_bits) == (b"M", 6, 31), name


@pytest.fixture(scope="module")
def pico(pico_build):
    """A fresh MicroPython with a Pico's heap, the firmware as mpy-cross built it."""
    mp = MicroPython(firmware_files(pico_build), heap=PICO_HEAP, name="MicroPython (Pico heap)")
    yield mp
    mp.close()


@pytest.mark.parametrize("start", [0, TICKS_PERIOD - 500], ids=["at-0", "before-the-wrap"])
def test_main_py_boots_links_and_plays_unmodified(pico, start):
    run = run_main(pico, start)
    replies = run["messages"]
    assert [type(m).__name__ for m in replies] == [
        "HelloReply",
        "HeartbeatReply",
        "HeartbeatReply",
        "HeartbeatReply",
    ]  # no ERROR: every frame of the session was taken
    hello = replies[0]
    assert (hello.firmware, hello.board, hello.max_show) == (
        tinkerfw.FIRMWARE_VERSION,
        "pico",
        tinkerfw.MAX_SHOW,
    )
    beats = replies[1:]
    assert [b.state_id for b in beats] == [0, 9, 9]
    assert all(b.mode == wire.MODE_LINKED for b in beats)
    # uptime counts from the firmware's start, 50 ms after power-up (main.py's button check)
    assert [b.uptime_ms for b in beats] == [120 - 50, 1000 - 50, 1800 - 50]


@pytest.mark.parametrize("build", ["source", "mpy"])
def test_the_firmware_fits_a_picos_heap(pico_build, build):
    """bench/firmware_heap.py prints these figures; here they must fit, with room to spare."""
    files = firmware_files(pico_build if build == "mpy" else None)
    figures = measure_heap(files)
    assert figures["heap_after"] == figures["heap"]  # never had to grow past a Pico's heap
    assert figures["errors"] == 0  # the show and the tune were taken
    assert 0 < figures["after_start_up"] <= figures["during_show"]
    used = figures["interpreter"] + figures["modules"] + figures["during_show"]
    assert used < PICO_HEAP // 4, figures
