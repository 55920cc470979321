"""setup.py's `check`: whether the engine can be compiled here, said in one line when it cannot
(./tinker prints that line and runs the engine as pure Python)."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def check(tmp_path: Path, free_kb: int | None, path: str | None = None) -> tuple[int, str]:
    env = {k: v for k, v in os.environ.items() if k != "TINKER_TRAY_COMPILE"}
    env["TINKER_TRAY_COMPILE"] = "check"
    if free_kb is not None:
        meminfo = tmp_path / "meminfo"
        meminfo.write_text(f"MemTotal: 443000 kB\nMemAvailable: {free_kb} kB\n")
        env["TINKER_TRAY_MEMINFO"] = str(meminfo)
    if path is not None:
        env["PATH"] = path
    done = subprocess.run(
        [sys.executable, str(ROOT / "setup.py")], env=env, capture_output=True, text=True
    )
    return done.returncode, done.stdout + done.stderr


def test_too_little_free_memory_is_one_line(tmp_path):
    status, said = check(tmp_path, free_kb=150_000)
    assert status == 1
    assert said.count("\n") == 1
    assert said.startswith("only 150 MB of memory free, and compiling the engine needs about")


def test_no_compiler_is_one_line(tmp_path):
    status, said = check(tmp_path, free_kb=4_000_000, path=str(tmp_path))
    assert status == 1 and said.count("\n") == 1
    assert "no C compiler or Python headers" in said and "build-essential python3-dev" in said


def test_enough_memory_names_the_build_extra(tmp_path):
    status, said = check(tmp_path, free_kb=4_000_000)
    if status == 1 and "no C compiler" in said:
        pytest.skip("no C compiler here (the line above): nothing more to check")
    assert status == 0, said
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert said.split() == extra["optional-dependencies"]["build"]
    assert any(line.startswith("mypy") for line in said.split())
