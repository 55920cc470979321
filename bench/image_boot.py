"""The boot check is a command now: `./tinker image check IMG [--cuts N]` (image/check.py).
This script stays, a thin wrapper, for the benches and tests that import the check's parts
(tests/image/test_bench_play.py) and for its old command line."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from image.check import (  # the checkout's root on the path first
    ICOUNT,
    ROOT,
    BenchError,
    Guest,
    Play,
    Qemu,
    bench_card,
    bench_main,
    first_boot_of,
    http,
    main,
    run,
)

__all__ = ["ICOUNT", "ROOT", "BenchError", "Guest", "Play", "Qemu", "bench_card", "bench_main",
           "first_boot_of", "http", "main", "run"]  # fmt: skip

if __name__ == "__main__":
    sys.exit(main())
