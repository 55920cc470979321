"""Taps that reach the host while noise shares the USB line: the host's window of event numbers
(`firmware_bridge.event_window`: a tap whose first sending was lost is taken when its resend
comes after a newer tap) beside the rule before it (new only if ahead of the newest), and beside
the taps the device itself registered.

    .venv/bin/python -m bench.serial_noise [--taps 100] [--seeds 3]

The emulated tray (the firmware's own logic) on a real pseudo-terminal, linked to `SerialTray`
with the tests' quick timings; while a person taps `--taps` times, 1 MiB of random bytes is
written down the same line in 4 KiB bursts (frames cut by noise fail their CRC, and the device
resends an unacknowledged tap every 250 ms, keeping at most 8). A tap the device registered and
the host never delivered is lost.
"""

from __future__ import annotations

import argparse
import random
import threading
import time

from bench.harness import heading, row
from firmware_bridge.emulator import Emulator
from firmware_bridge.event_window import EventWindow, Seen
from firmware_bridge.tray import SerialTray
from tests.helpers.bridge import FAST, Events
from tray.events import ButtonPressed


class AheadOnly(EventWindow):
    """The rule before the window: an event is new only if it comes after the newest."""

    def take(self, event_no: int) -> Seen:
        newest = self._newest
        if newest is None or 0 < (event_no - newest) & 0xFFFF < 0x8000:
            self._newest = event_no
            return Seen.NEW
        return Seen.RESEND


def run(window: EventWindow, taps: int, seed: int) -> tuple[int, int]:
    """(taps delivered, taps the device registered) under 1 MiB of noise."""
    emulator = Emulator()
    emulator.start()
    events = Events()
    tray = SerialTray("emulator", settings=FAST, resolve=lambda: emulator.path)
    tray.open(events)
    bridge = tray.bridge
    firmware = emulator.firmware
    assert bridge is not None and firmware is not None, "the emulated tray did not open"
    try:
        assert bridge.wait_linked(5), "the emulated tray did not link"
        bridge._events = window
        noise = random.Random(seed).randbytes(1 << 20)

        def inject() -> None:
            for i in range(0, len(noise), 4096):
                emulator.inject(noise[i : i + 4096])
                time.sleep(0.02)

        injector = threading.Thread(target=inject)
        injector.start()
        for _ in range(taps):
            emulator.tap()
            time.sleep(0.06)
        injector.join()
        registered = firmware.event_no // 2  # a DOWN and an UP each
        deadline = time.monotonic() + 5  # the last resends
        while len(events.of(ButtonPressed)) < registered and time.monotonic() < deadline:
            time.sleep(0.05)
        return len(events.of(ButtonPressed)), registered
    finally:
        tray.close()
        emulator.unplug()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=100)
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    heading(
        f"{args.taps} taps under 1 MiB of noise: delivered / registered by the device"
        " (the rule before the window beside it: ahead only)"
    )
    for seed in range(1, args.seeds + 1):
        window = "{} / {}".format(*run(EventWindow(), args.taps, seed))
        ahead = "{} / {}".format(*run(AheadOnly(), args.taps, seed))
        row(f"noise seed {seed}", f"window {window}, ahead only {ahead}")


if __name__ == "__main__":
    main()
