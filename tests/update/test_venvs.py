"""A release asking for the running release's packages takes its venv: a real venv (Python's
own `venv`, a console script and an editable install's .pth, as pip writes them) linked into
the new slot runs the new slot's code, and leaves the old one running its own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from updater import venvs

PYPROJECT = """[project]
name = "tinker-tray"
version = "0.1.0"
requires-python = ">=3.11"
dependencies = ["gpiozero>=2.0,<3", "pyserial>=3.5,<4"]

[project.optional-dependencies]
pi = ["lgpio>=0.2"]
dev = ["pytest"]
"""
SCRIPT = """#!{python}
# -*- coding: utf-8 -*-
import sys
from probe import main
if __name__ == "__main__":
    sys.exit(main())
"""


def slot(folder: Path, *, pyproject: str = PYPROJECT) -> Path:
    folder.mkdir(parents=True)
    (folder / "pyproject.toml").write_text(pyproject)
    (folder / "probe.py").write_text("def main():\n    print(__file__)\n")
    return folder


def set_up(folder: Path) -> Path:
    """A venv as ./tinker and pip leave it: the project editable (compat .pth), its script."""
    venv = folder / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    (site,) = venv.glob("lib/python*/site-packages")
    (site / "__editable__.tinker_tray-0.1.0.pth").write_text(f"{folder}\n")
    info = site / "tinker_tray-0.1.0.dist-info"
    info.mkdir()
    (info / "direct_url.json").write_text(f'{{"url": "file://{folder}", "dir_info": {{}}}}')
    (info / "METADATA").write_text("Name: tinker-tray\n")
    script = venv / "bin" / "probe"
    script.write_text(SCRIPT.format(python=venv / "bin" / "python"))
    script.chmod(0o755)
    (venv / ".installed-runtime").touch()
    (venv / ".bytecode-123").touch()
    return venv


def probe(venv: Path) -> str:
    done = subprocess.run([str(venv / "bin" / "probe")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_new_slot_runs_its_own_code_in_the_running_slots_packages(tmp_path):
    running = slot(tmp_path / "tray")
    old = set_up(running)
    new_slot = slot(tmp_path / "tray" / ".releases" / "slots" / "v1.1.0-abc")
    assert venvs.reusable(running, new_slot)
    venvs.take(running, new_slot)
    new = new_slot / ".venv"
    assert probe(new) == str(new_slot / "probe.py")
    assert probe(old) == str(running / "probe.py")  # the running slot is untouched
    (site,) = new.glob("lib/python*/site-packages")
    metadata = site / "tinker_tray-0.1.0.dist-info" / "METADATA"
    assert metadata.stat().st_ino == (old / metadata.relative_to(new)).stat().st_ino  # linked
    for rewritten in (new / "bin" / "probe", site / "__editable__.tinker_tray-0.1.0.pth"):
        assert rewritten.stat().st_ino != (old / rewritten.relative_to(new)).stat().st_ino
    assert str(new_slot) in (site / "tinker_tray-0.1.0.dist-info" / "direct_url.json").read_text()
    assert (
        str(new) in (new / "pyvenv.cfg").read_text()
        or str(old) not in (new / "pyvenv.cfg").read_text()
    )
    assert (new / ".installed-runtime").is_file() and not (new / ".bytecode-123").exists()


@pytest.mark.parametrize(
    "change",
    [
        ('"pyserial>=3.5,<4"', '"pyserial>=3.5,<4", "rich>=13"'),
        ('pi = ["lgpio>=0.2"]', 'pi = ["lgpio>=0.3"]'),
        ('">=3.11"', '">=3.12"'),
        ("[project]", "[project"),
    ],
    ids=["a new dependency", "another pi extra", "another Python", "no pyproject it reads"],
)
def test_a_release_asking_for_other_packages_is_set_up_by_pip(tmp_path, change):
    running = slot(tmp_path / "tray")
    set_up(running)
    new_slot = slot(tmp_path / "new", pyproject=PYPROJECT.replace(*change))
    assert not venvs.reusable(running, new_slot)


def test_only_a_runtime_venv_is_taken(tmp_path):
    running = slot(tmp_path / "tray")
    venv = set_up(running)
    (venv / ".installed-runtime").rename(venv / ".installed-dev")  # a developer's, with tools
    assert not venvs.reusable(running, slot(tmp_path / "new"))
    assert not venvs.reusable(slot(tmp_path / "bare"), slot(tmp_path / "other"))  # no venv
