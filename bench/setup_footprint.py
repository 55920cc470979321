"""What setting tinker-tray up costs a Pi: time, the process tree's peak memory, the venv's size.

    .venv/bin/python -m bench.setup_footprint [--repo DIR] [--keep]

Clones the repository's committed HEAD (default: this checkout) twice into a temporary
directory and measures, in the same run:

1. `./tinker --version` in the first clone: the set-up a family's Pi runs (runtime venv, and the
   compiled engine where a C compiler and the Python headers exist);
2. the engine's compile step alone, run again the way `./tinker` runs it (its stamp removed);
3. beside them, a plain runtime-only `python3 -m venv .venv && .venv/bin/pip install .` of the
   second clone: the least a set-up can be.

Peak memory is the largest sum of the resident set sizes of the command and every process below
it (pip's builds, mypyc, each cc1), sampled every 20 ms from /proc; shared pages count once per
process, so the figure errs high. pip's download cache is shared, as on a Pi set up twice.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

PAGE = os.sysconf("SC_PAGE_SIZE")
MB = 1_000_000


def tree_rss(root: int) -> int:
    """Resident bytes of `root` and all its descendants, now."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
            pages = int(Path(entry.path, "statm").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
        ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        pid = int(entry.name)
        children.setdefault(ppid, []).append(pid)
        rss[pid] = pages * PAGE
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo.extend(children.get(pid, ()))
    return total


def measure(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, int]:
    """Run `cmd`; return (seconds, peak bytes of its process tree). Raises if it fails."""
    peak = 0
    start = time.monotonic()
    proc = subprocess.Popen(
        cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.wait(0.02):
            peak = max(peak, tree_rss(proc.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    output, _ = proc.communicate()
    seconds = time.monotonic() - start
    done.set()
    sampler.join()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{output}")
    return seconds, peak


def size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())


def packages(venv: Path) -> list[str]:
    return sorted(p.name.split("-")[0] for p in venv.glob("lib/python*/site-packages/*.dist-info"))


def report(name: str, seconds: float, peak: int, venv: Path | None) -> str:
    line = f"{name:<34} {seconds:7.1f} s   peak {peak / MB:6.0f} MB"
    if venv is not None:
        found = packages(venv)
        tools = [p for p in found if p.lower() in ("pytest", "mypy", "playwright", "ruff")]
        line += f"   venv {size(venv) / MB:5.0f} MB, {len(found)} packages"
        line += f", test tools: {', '.join(tools) or 'none'}"
    return line


def run(repo: Path, work: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TINKER_TRAY")}
    env.pop("VIRTUAL_ENV", None)
    ours, plain = work / "tinker", work / "plain"
    for clone in (ours, plain):
        subprocess.run(["git", "clone", "--quiet", str(repo), str(clone)], check=True)
    head = subprocess.run(
        ["git", "-C", str(ours), "log", "-1", "--format=%h %s"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    python = sys.version.split()[0]
    print(f"tinker-tray set-up footprint, {head}, Python {python}, {os.uname().machine}")
    lines = []
    seconds, peak = measure(["./tinker", "--version"], ours, env)
    lines.append(report("./tinker (runtime set-up)", seconds, peak, ours / ".venv"))
    build = subprocess.run(
        [str(ours / ".venv/bin/python"), "-c", "import engine; print(engine.BUILD)"],
        cwd=ours,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if build == "compiled":
        for stale in [*ours.glob(".venv/.engine-python-*"), ours / "build"]:
            shutil.rmtree(stale) if stale.is_dir() else stale.unlink()
        seconds, peak = measure(["./tinker", "--version"], ours, env)
        lines.append(report("  its engine compile, run again", seconds, peak, None))
    seconds, peak = measure([sys.executable, "-m", "venv", "--without-pip", ".venv"], plain, env)
    python = str(plain / ".venv/bin/python")
    seconds2, peak2 = measure([python, "-m", "ensurepip", "--default-pip"], plain, env)
    seconds3, peak3 = measure([python, "-m", "pip", "install", "--quiet", "."], plain, env)
    lines.append(
        report(
            "pip install . (runtime only)",
            seconds + seconds2 + seconds3,
            max(peak, peak2, peak3),
            plain / ".venv",
        )
    )
    print("\n".join(lines))
    print(f"engine: {build}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--keep", action="store_true", help="keep the clones (path printed)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="tinker-footprint-"))
    try:
        run(args.repo, work)
    finally:
        if args.keep:
            print(f"clones kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
