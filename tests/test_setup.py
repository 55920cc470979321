"""setup.py's `check`: whether the engine can be compiled here, said in one line when it cannot
(./tinker prints that line and runs the engine as pure Python)."""

from __future__ import annotations

import grp
import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile
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


# The install guide as an ordinary user (docs/install.md, sections 2 and 3). Run by root, as the
# tests are in CI, the user's steps run in a real process of `nobody` (setpriv); elsewhere skipped.


def _python_for_anyone() -> str:
    """A Python 3.11+ that another user can run (this run's may sit in root's home)."""
    for candidate in ("/usr/bin/python3", "/usr/local/bin/python3"):
        done = subprocess.run(
            [
                "setpriv",
                "--reuid=nobody",
                "--regid=nogroup",
                "--clear-groups",
                candidate,
                "-c",
                "import sys; sys.exit(sys.version_info < (3, 11))",
            ],
            capture_output=True,
        )
        if done.returncode == 0:
            return candidate
    pytest.skip("no Python 3.11+ that nobody can run: the guide is not tried as a user")


@pytest.fixture
def as_user():
    """Run a command as `nobody`, with a home of its own, in a folder every user can reach."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("not root, or no setpriv: no second user to try the guide as")
    python = _python_for_anyone()
    folder = Path(tempfile.mkdtemp(prefix="tinker-guide-"))
    folder.chmod(0o755)
    home = folder / "home"
    home.mkdir()
    os.chown(home, pwd.getpwnam("nobody").pw_uid, grp.getgrnam("nogroup").gr_gid)

    def run(command: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
        user_env = {
            "PATH": os.environ["PATH"],
            "HOME": str(home),
            "USER": "nobody",
            "PYTHON": python,
            "TINKER_TRAY_PURE": "1",
            **env,
        }
        return subprocess.run(
            ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "sh", "-c", command],
            cwd=cwd,
            env=user_env,
            capture_output=True,
            text=True,
        )

    run.folder = folder  # type: ignore[attr-defined]
    yield run
    shutil.rmtree(folder)


def named_paths(said: str) -> list[str]:
    return re.findall(r"(?<![\w.])/[\w./+-]*\w", said)


def test_a_checkout_cloned_with_sudo_says_the_one_fix(as_user):
    checkout = as_user.folder / "tinker-tray"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(checkout)], check=True)  # root's
    done = as_user("./tinker bench", cwd=checkout)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1, done.stderr
    assert f"run `sudo chown -R nobody: {checkout}`" in done.stderr
    assert all(Path(p).exists() for p in named_paths(done.stderr)), done.stderr
    assert not (checkout / ".venv").exists()


def guide_commands(section: str) -> list[str]:
    """The commands of one section of docs/install.md (its first indented block)."""
    text = (ROOT / "docs" / "install.md").read_text()
    body = text.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"(?:^|\n)\n((?:    .+\n)+)", body)
    assert block is not None, f"no commands in section {section}"
    return [line.split("  #")[0].strip() for line in block.group(1).splitlines()]


def test_the_install_guide_works_as_the_user_it_names(as_user):
    origin = as_user.folder / "origin"
    subprocess.run(["git", "clone", "--quiet", "--bare", str(ROOT), str(origin)], check=True)
    subprocess.run(["chown", "-R", "nobody:nogroup", str(origin)], check=True)  # (git: not root's)
    checkout = as_user.folder / "opt-tinker-tray"
    cwd = as_user.folder
    for command in guide_commands("2. The software"):
        if " apt " in f" {command} ":
            continue  # this machine has the packages already
        command = command.replace("ADDRESS", str(origin)).replace("/opt/tinker-tray", str(checkout))
        if command.startswith("cd "):
            cwd = Path(command.removeprefix("cd "))
        elif command.startswith("sudo "):  # what sudo runs: root's, with the user's $USER
            env = {**os.environ, "USER": "nobody"}
            subprocess.run(["sh", "-c", command.replace("sudo ", "")], env=env, check=True)
        else:
            done = as_user(command, cwd=cwd)
            assert done.returncode == 0, done.stderr
    assert cwd == checkout
    # Section 3's first run, offline: the set-up goes as far as pip, as the user, in the user's
    # folder (pip then finds no index: the log it names is there).
    (bench,) = guide_commands("3. Check the wiring: `tinker-tray bench`")
    done = as_user(bench, cwd=cwd, PIP_NO_INDEX="1", PIP_CONFIG_FILE=os.devnull)
    assert "setting up" in done.stderr and "belongs to" not in done.stderr, done.stderr
    assert (checkout / ".venv" / "bin" / "python").lstat().st_uid == pwd.getpwnam("nobody").pw_uid
    assert all(Path(p).exists() for p in named_paths(done.stderr)), done.stderr


# `./tinker test` and the suite's npm packages, on a fresh clone whose venv is a stand-in that runs
# this test run's Python (as in tests/test_update.py): the set-up itself is not what is tried.
NODE_FOLDERS = ("tests/firmware_bridge/on_micropython", "tests/browser_audit")


@pytest.fixture
def fresh_clone(tmp_path):
    clone = tmp_path / "tray"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    bin_ = clone / ".venv" / "bin"
    bin_.mkdir(parents=True)
    (bin_ / "python").write_text(f'#!/bin/sh\nexec {sys.executable} "$@"\n')
    (bin_ / "python").chmod(0o755)
    (clone / ".venv" / ".installed-dev").touch()
    return clone


def tinker_test(clone: Path, path: str | None = None) -> subprocess.CompletedProcess[str]:
    """`./tinker test --version` (pytest's version: the tests themselves are not run)."""
    env = {**os.environ, "TINKER_TRAY_PURE": "1", "PYTHON": sys.executable}
    env["npm_config_prefer_offline"] = "true"  # (the npm cache, where this checkout filled it)
    if path is not None:
        env["PATH"] = path
    return subprocess.run(
        [str(clone / "tinker"), "test", "--version"],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_tinker_test_installs_the_npm_packages_the_suite_needs(fresh_clone):
    if shutil.which("node") is None or shutil.which("npm") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but no node and npm: .ci/run installs them")
        pytest.skip("no node and npm here: the next test tries that case")
    done = tinker_test(fresh_clone)
    assert done.returncode == 0, done.stderr
    for folder in NODE_FOLDERS:
        assert f"npm ci in {folder}" in done.stderr
        assert (fresh_clone / folder / "node_modules" / ".package-lock.json").exists()
    assert (fresh_clone / "tests/browser_audit/node_modules/axe-core/axe.min.js").exists()
    assert "npm ci" not in tinker_test(fresh_clone).stderr  # installed, and current
    lock = fresh_clone / NODE_FOLDERS[1] / "package-lock.json"
    later = lock.stat().st_mtime + 60  # (a pull that brings a new lock)
    os.utime(lock, (later, later))
    again = tinker_test(fresh_clone).stderr
    assert f"npm ci in {NODE_FOLDERS[1]}" in again and NODE_FOLDERS[0] not in again


def test_tinker_test_without_node_says_so_in_one_line_first(fresh_clone, tmp_path):
    """A PATH with what ./tinker uses but no node or npm: one line, before pytest starts, naming
    what is skipped and the command that adds it."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for tool in ("dirname", "uname", "cat", "cksum", "cut", "rm", "touch", "find", "stat", "id"):
        found = shutil.which(tool)
        assert found is not None, tool
        (bin_ / tool).symlink_to(found)
    done = tinker_test(fresh_clone, path=str(bin_))
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    said = [line for line in lines if "node" in line]
    assert len(said) == 1 and said[0].startswith("tinker test: no node and npm here")
    assert "`sudo apt install nodejs npm` adds them" in said[0]
    assert "MicroPython" in said[0] and "accessibility audits" in said[0]
    assert not any((fresh_clone / f / "node_modules").exists() for f in NODE_FOLDERS)
