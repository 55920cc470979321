"""Builds the optional compiled engine; `pip install` itself never compiles anything.

    TINKER_TRAY_COMPILE=check python setup.py   # can it build here? (what ./tinker asks first)
    TINKER_TRAY_COMPILE=1 python setup.py       # build it

`check` prints the `build` extra's requirements (mypy, setuptools: ./tinker installs them for the
build only, into a folder it deletes afterwards, so the runtime venv never carries them) and
exits 0, or prints one line saying why not (no C compiler, no Python headers, too little free
memory) and exits 1.

`1` compiles the engine's hot modules with mypyc into build/mypyc (./tinker runs its phases one
by one: TINKER_TRAY_COMPILE=generate, then build, then stamp), and writes
build/mypyc/engine/SOURCES: each compiled source with its SHA-256. The sources stay pure Python:
`engine/__init__.py` puts the compiled modules ahead of them unless TINKER_TRAY_PURE=1, or unless
a source changed since the build.

The build is shaped to fit a Pi Zero 2 W (512 MB; bench/setup_footprint.py measures it): see
MYPYC_OPTIONS.
"""

import hashlib
import os
import shutil
import sys
import sysconfig
from pathlib import Path

HERE = Path(__file__).resolve().parent
COMPILED = [
    "engine/disney/cards.py",
    "engine/disney/actions.py",
    "engine/phases.py",
    "engine/disney/steps.py",
    "engine/disney/stats.py",
    "engine/errors.py",
    "engine/disney/variant.py",
    "engine/disney/handstate.py",
    "engine/disney/effects.py",
    "engine/disney/checks.py",
    "engine/disney/moves.py",
    "engine/disney/listing.py",
    "engine/disney/hand.py",
    "engine/disney/game.py",
    "engine/disney/notation.py",
    "engine/bots.py",
    "engine/disney/greedy.py",
    "engine/disney/simulate.py",
    "engine/disney/rulesets.py",
    "engine/disney/scoring.py",
]
"""The modules a simulation spends its time in (records and the score sheet run rarely and stay
interpreted)."""
OUT = "build/mypyc"
C_DIR = "build/mypyc-c"
"""mypyc's generated C, and the extensions to build from it (extensions.json)."""
MYPYC_OPTIONS = {"opt_level": "3", "debug_level": "0", "multi_file": True}
"""Chosen to fit a Pi Zero 2 W (512 MB). The peak of the build's whole process tree, sampled from
/proc (bench/setup_footprint.py's sampler), on x86-64:
  one process, one C file, -O3 -g1 -j2 (the previous build)       554 MB
  the same with -g0 / -O2 -g0 -j1 / -O1 -g0 -j1                    547 / 545 / 534 MB
  separate=True (a library per module), -O3 / -O2, -g0 -j1         364 / 357 MB
  mypy's analysis and the C generation alone                       ~190 MB
  compiling the one C file alone, in a fresh process               414 MB
  compiling multi_file's C (a file per module, one cc1 at a time)  201 MB
So the optimisation level hardly matters; what does is that mypy's analysis stays resident while
the C compiles, and one cc1 for everything. The build therefore runs as phases in processes of
their own, one after the other (./tinker runs them: generate, build, stamp; with a Python parent
waiting over them, TINKER_TRAY_COMPILE=1, it peaked at 228 MB), and multi_file splits the C per
module while keeping one shared library (calls between modules stay native). -O3 stays, as
lowering it saved little memory (above). No debug info (-g0): nobody debugs the C on a Pi."""
JOBS = int(os.environ.get("TINKER_TRAY_JOBS") or 1)
"""One C compiler at a time on a Pi: two in parallel would add their peaks. The image build,
on a machine with memory to spare, compiles two at once (TINKER_TRAY_JOBS=2: the engine's
sources are one library's, which setuptools would compile one after another)."""
NEEDED_MB = 280
"""Free memory (MemAvailable) the build needs: its measured peak (~200 MB) with a margin."""
MEMINFO = Path(os.environ.get("TINKER_TRAY_MEMINFO", "/proc/meminfo"))
"""(The environment variable is for tests: a machine with little memory, on any machine.)"""


def write_stamp() -> None:
    """Record what was compiled, so that engine/__init__ never runs a stale build."""
    lines = []
    for p in COMPILED:
        source = HERE / p
        seen = source.stat()
        digest = hashlib.sha256(source.read_bytes()).hexdigest()
        lines.append(
            f"{Path(p).relative_to('engine').as_posix()} {digest} {seen.st_size} {seen.st_mtime_ns}"
        )
    (HERE / OUT / "engine" / "SOURCES").write_text("\n".join(lines) + "\n")


def available_mb() -> int | None:
    """MemAvailable in MB (None where the kernel does not say: not Linux)."""
    try:
        for line in MEMINFO.read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) // 1000
    except (OSError, ValueError, IndexError):
        pass
    return None


def why_not() -> str | None:
    """Why the engine cannot be compiled here, in one line; None: it can."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    headers = Path(sysconfig.get_paths()["include"], "Python.h")
    if not shutil.which(cc) or not headers.exists():
        return (
            "no C compiler or Python headers (for the compiled engine: "
            "sudo apt install build-essential python3-dev)"
        )
    free = available_mb()
    if free is not None and free < NEEDED_MB:
        return f"only {free} MB of memory free, and compiling the engine needs about {NEEDED_MB} MB"
    return None


def build_requirements() -> list[str]:
    """The `build` extra of pyproject.toml: what the compile needs beyond the runtime."""
    import tomllib

    project = tomllib.loads((HERE / "pyproject.toml").read_text())["project"]
    return list(project["optional-dependencies"]["build"])


def check() -> int:
    problem = why_not()
    if problem is not None:
        print(problem)
        return 1
    print("\n".join(build_requirements()))
    return 0


def compile_engine() -> int:
    """Generate the C, then compile it, each in a process of its own (see MYPYC_OPTIONS), then
    stamp; ./tinker runs the three phases itself, so that no Python stays resident beside them."""
    import subprocess

    for phase in ("generate", "build", "stamp"):
        env = {**os.environ, "TINKER_TRAY_COMPILE": phase}
        done = subprocess.run([sys.executable, str(Path(__file__).resolve())], env=env)
        if done.returncode != 0:
            return done.returncode
    return 0


def generate_c() -> None:
    """mypy's analysis and mypyc's C, written to C_DIR with the extensions to build from it."""
    import json

    from mypyc.build import mypycify

    os.chdir(HERE)
    (HERE / OUT / "engine" / "SOURCES").unlink(missing_ok=True)  # no stamp while half-built
    extensions = mypycify(COMPILED, target_dir=C_DIR, **MYPYC_OPTIONS)  # type: ignore[arg-type]
    keys = ("name", "sources", "include_dirs", "depends", "extra_compile_args")
    found = [{key: getattr(ext, key) for key in keys} for ext in extensions]
    (HERE / C_DIR / "extensions.json").write_text(json.dumps(found, indent=1))


def build_c() -> None:
    """Compile what generate_c wrote, without mypy loaded."""
    import json

    from setuptools import Extension, setup

    os.chdir(HERE)
    if JOBS > 1:
        compile_in_parallel(JOBS)
    found = json.loads((HERE / C_DIR / "extensions.json").read_text())
    sys.argv[1:] = ["-q", "build_ext", "--build-lib", OUT, "--build-temp", OUT + "-tmp"]
    sys.argv += ["-j", str(JOBS)]
    setup(ext_modules=[Extension(**ext) for ext in found])


def compile_in_parallel(jobs: int) -> None:
    """distutils' CCompiler.compile with `jobs` sources at a time (its own loop, in threads:
    each compile is a cc1 process of its own)."""
    from concurrent.futures import ThreadPoolExecutor
    from distutils import ccompiler

    def compile(self, sources, output_dir=None, macros=None, include_dirs=None, debug=0,
                extra_preargs=None, extra_postargs=None, depends=None):  # fmt: skip
        macros, objects, extra, pp_opts, build = self._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs
        )
        cc_args = self._get_cc_args(pp_opts, debug, extra_preargs)
        todo = [(obj, *build[obj]) for obj in objects if obj in build]
        with ThreadPoolExecutor(jobs) as pool:
            for _ in pool.map(lambda o: self._compile(*o, cc_args, extra, pp_opts), todo):
                pass
        return objects

    ccompiler.CCompiler.compile = compile  # type: ignore[method-assign]


PHASES = {
    "check": check,
    "1": compile_engine,
    "generate": generate_c,
    "build": build_c,
    "stamp": write_stamp,
}
phase = PHASES.get(os.environ.get("TINKER_TRAY_COMPILE", ""))
if phase is not None:
    sys.exit(phase())
else:
    from setuptools import setup

    setup()
