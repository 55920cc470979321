"""Builds the optional compiled engine; `pip install` itself never compiles anything.

    TINKER_TRAY_COMPILE=1 python setup.py

(what `./tinker` runs where a C compiler and the Python headers exist) compiles the engine's hot
modules with mypyc into build/mypyc, and writes build/mypyc/engine/SOURCES: each compiled
source with its SHA-256. The sources stay pure Python: `engine/__init__.py` puts the compiled
modules ahead of them unless TINKER_TRAY_PURE=1, or unless a source changed since the build.
"""

import hashlib
import os
import sys
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
COMPILED = [
    "engine/cards.py",
    "engine/actions.py",
    "engine/phases.py",
    "engine/stats.py",
    "engine/errors.py",
    "engine/effects.py",
    "engine/checks.py",
    "engine/hand.py",
    "engine/game.py",
    "engine/notation.py",
    "engine/bots.py",
    "engine/simulate.py",
    "engine/rulesets.py",
    "engine/scoring.py",
]
"""The modules a simulation spends its time in (records and the score sheet run rarely and stay
interpreted)."""
OUT = "build/mypyc"


def write_stamp() -> None:
    """Record what was compiled, so that engine/__init__ never runs a stale build."""
    lines = []
    for p in COMPILED:
        source = HERE / p
        seen = source.stat()
        digest = hashlib.sha256(source.read_bytes()).hexdigest()
        lines.append(f"{Path(p).name} {digest} {seen.st_size} {seen.st_mtime_ns}")
    (HERE / OUT / "engine" / "SOURCES").write_text("\n".join(lines) + "\n")


if os.environ.get("TINKER_TRAY_COMPILE") == "1":
    from mypyc.build import mypycify

    os.chdir(HERE)
    jobs = str(min(os.cpu_count() or 1, 4))
    sys.argv[1:] = ["-q", "build_ext", "--build-lib", OUT, "--build-temp", OUT + "-tmp", "-j", jobs]
    (HERE / OUT / "engine" / "SOURCES").unlink(missing_ok=True)  # no stamp while half-built
    setup(ext_modules=mypycify(COMPILED, opt_level="3"))
    write_stamp()
else:
    setup()
