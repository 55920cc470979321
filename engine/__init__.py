"""The rules engine: pure Python, no I/O, no threads, no clock; deterministic for a seed.

Modelled on OpenSpiel: a state knows whose move it is, lists the legal actions (small ints),
applies one, and exposes chance (shuffles, Tinker Bell's pick) as explicit chance nodes.

The same modules may also be compiled with mypyc (`setup.py`; `./tinker` builds them into
build/mypyc where a C compiler is present). Both builds live side by side: the compiled modules
are put ahead of these sources on the package's path, unless TINKER_TRAY_PURE=1 or unless a
source has changed since they were built (a stale build is never used). `BUILD` says which runs.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_COMPILED = _HERE.parent / "build" / "mypyc"
STAMP = "SOURCES"
"""File in the compiled package listing each compiled source with its SHA-256."""


def _compiled_is_current() -> bool:
    try:
        lines = (_COMPILED / "engine" / STAMP).read_text().splitlines()
    except OSError:
        return False
    for line in lines:
        name, _, digest = line.partition(" ")
        try:
            if hashlib.sha256((_HERE / name).read_bytes()).hexdigest() != digest:
                return False
        except OSError:
            return False
    return bool(lines)


def _choose_build() -> str:
    if os.environ.get("TINKER_TRAY_PURE") == "1" or not _compiled_is_current():
        return "python"
    __path__.insert(0, str(_COMPILED / "engine"))  # the compiled modules first
    sys.path.append(str(_COMPILED))  # mypyc's shared runtime library of the group
    return "compiled"


BUILD = _choose_build()
""""compiled" (mypyc) or "python" (these sources), as chosen at import time."""
