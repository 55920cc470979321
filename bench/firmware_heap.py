"""The reference firmware's heap on a Pico, measured in MicroPython's WebAssembly port with its
heap limited to what a Pico leaves a MicroPython program (about 192 KB of the RP2040's 264 KB).

Prints, for the firmware from source (.py, as `tinker-tray bridge deploy` copies it) and as
mpy-cross builds it for the Pico (armv6m .mpy), in one run:
  - live bytes of its modules, and what importing them allocates in all (garbage included: from
    source that is the compiler's work, an upper bound of its peak);
  - the booted firmware (after start-up), and the most live during the longest show the device
    stores (128 frames, sent in 4 SHOW_DATA) with a tune over it, polled every millisecond;
  - the heap's size before and after (it would grow if the firmware did not fit);
and each beside the Pico's heap, as a share of it.

Needs node and `npm ci` in tests/firmware_bridge/on_micropython (as .ci/run does):

    .venv/bin/python -m bench.firmware_heap
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from bench.harness import heading, row
from tests.helpers.firmware_device import (
    PICO_HEAP,
    MicroPython,
    compile_for_pico,
    firmware_files,
    measure_heap,
    micropython_missing,
)

ROWS = [
    ("modules", "the firmware's modules, live"),
    ("import_allocates", "importing them allocates (garbage included)"),
    ("after_start_up", "the booted firmware, after start-up"),
    ("during_show", "the most live during a 128-frame show and a tune"),
]


def version() -> str:
    mp = MicroPython([], bare=True)
    try:
        return mp.run("import sys\nprint(sys.version)")
    finally:
        mp.close()


def main() -> None:
    missing = micropython_missing()
    if missing:
        raise SystemExit(f"cannot measure: {missing}")
    with tempfile.TemporaryDirectory() as tmp:
        compile_for_pico(Path(tmp))
        runs = {
            "source (.py)": measure_heap(firmware_files()),
            "mpy-cross armv6m (.mpy)": measure_heap(firmware_files(Path(tmp))),
        }
    heading(f"{version()}; heap limited to {PICO_HEAP} bytes (a Pico's: the peer)")
    for name, fig in runs.items():
        heading(f"the firmware from {name}")
        for key, label in ROWS:
            row(label, f"{fig[key]} B, {100 * fig[key] / PICO_HEAP:.1f} % of a Pico's heap")
        grew = "grew" if fig["heap_after"] != fig["heap"] else "never grew"
        row("GC heap before, after", f"{fig['heap']} B, {fig['heap_after']} B ({grew})")


if __name__ == "__main__":
    main()
