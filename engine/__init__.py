"""The rules engine: pure Python, no I/O, no threads, no clock; deterministic for a seed.

Modelled on OpenSpiel: a state knows whose move it is, lists the legal actions (small ints),
applies one, and exposes chance (shuffles, Tinker Bell's pick) as explicit chance nodes.

The same modules may also be compiled with mypyc (`setup.py`; `./tinker` builds them into
build/mypyc where a C compiler is present). Both builds live side by side: the compiled modules
are put ahead of these sources on the package's path, unless TINKER_TRAY_PURE=1 or unless a
source has changed since they were built (a stale build is never used). `BUILD` says which runs.
"""

from __future__ import annotations

import os
import sys

# (os.path, not pathlib: this runs at every start, and pathlib costs more to import than the rest)
_HERE = os.path.dirname(os.path.abspath(__file__))
COMPILED = os.path.join(os.path.dirname(_HERE), "build", "mypyc")
"""Where `./tinker` builds the compiled modules (a subpackage puts its own folder first too)."""
STAMP = "SOURCES"
"""File in the compiled package listing each compiled source with its SHA-256."""


def _compiled_is_current() -> bool:
    """Each source as it was compiled: the same size and modification time as recorded (a stat
    per file), else the same SHA-256 (a checkout touches files without changing them)."""
    try:
        with open(os.path.join(COMPILED, "engine", STAMP)) as f:
            lines = f.read().splitlines()
    except OSError:
        return False
    for line in lines:
        name, digest, *seen = line.split(" ")
        path = os.path.join(_HERE, name)
        try:
            now = os.stat(path)
            if seen != [str(now.st_size), str(now.st_mtime_ns)] and _sha256(path) != digest:
                return False
        except OSError:
            return False
    return bool(lines)


def _sha256(path: str) -> str:
    try:  # CPython's own SHA-256: loading OpenSSL for hashlib costs a whole process ~5 ms
        from _sha256 import sha256  # type: ignore[import-not-found]
    except ImportError:
        from hashlib import sha256
    with open(path, "rb") as f:
        return str(sha256(f.read()).hexdigest())


def _choose_build() -> str:
    if os.environ.get("TINKER_TRAY_PURE") == "1" or not _compiled_is_current():
        return "python"
    __path__.insert(0, os.path.join(COMPILED, "engine"))  # the compiled modules first
    sys.path.append(COMPILED)  # mypyc's shared runtime library of the group
    return "compiled"


BUILD = _choose_build()
""""compiled" (mypyc) or "python" (these sources), as chosen at import time."""
