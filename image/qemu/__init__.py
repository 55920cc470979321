"""The patched qemu: Debian's qemu 7.2 with bcm2835-gpio-inputs.patch, whose emulated Pi's GPIO
has inputs, pulls, edge detection and the bank interrupts (build.sh builds it: ./tinker image
qemu). Python finds the build here, by the same key build.sh caches it under: the patch's
SHA-256, so an edited patch is never run as an old binary. docs/image.md."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

PATCH = Path(__file__).resolve().parent / "bcm2835-gpio-inputs.patch"


def cache_dir() -> Path:
    """build.sh's default cache, `${XDG_CACHE_HOME:-$HOME/.cache}/tinker-tray` (an empty
    XDG_CACHE_HOME counts as unset, as in the shell)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tinker-tray"


def patch_sha12() -> str:
    """The first 12 hex digits of the patch's SHA-256: the cache key's second half."""
    return hashlib.sha256(PATCH.read_bytes()).hexdigest()[:12]


def patched_qemu(cache: Path | None = None) -> Path | None:
    """The cached qemu-system-aarch64 built from this patch (of whichever Debian version, the
    newest build if several), or None when `./tinker image qemu` has not built it."""
    builds = [
        path
        for path in (cache or cache_dir()).glob(f"qemu-*-{patch_sha12()}/qemu-system-aarch64")
        if os.access(path, os.X_OK)
    ]
    return max(builds, key=lambda path: path.stat().st_mtime, default=None)
