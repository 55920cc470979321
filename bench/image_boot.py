"""The boot check is a command now: `./tinker image check IMG [--cuts N]` (image/check.py).
This module stays, a thin wrapper, for its old command line (`python -m bench.image_boot IMG`)
and for what imported the check's parts from here; import them from `image.check`."""

from __future__ import annotations

import sys

from image.check import (
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
