"""Whether the page's Update downloads the release's update file: only when the release's
set-up wants something the file carries (other packages, or an engine the running slot's
compiled one was not built from). The release is a real git commit; the running slot a folder
laid out as ./tinker leaves one."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from tests.update.helpers import git
from updater.releases import Release, Repository
from updater.update import needs_its_file

PYPROJECT = """[project]
name = "tinker-tray"
requires-python = ">=3.11"
dependencies = ["gpiozero>=2.0", "pyserial>=3.5"]

[project.optional-dependencies]
pi = ["lgpio>=0.2"]
"""
ENGINE = {"core.py": "STEP = 1\n", "disney/rules.py": "WILD = 4\n"}


def running_slot(where: Path, *, engine: dict[str, str] = ENGINE) -> Path:
    """A slot set up by ./tinker: a runtime venv for PYPROJECT, an engine compiled from `engine`."""
    (where / ".venv" / "bin").mkdir(parents=True)
    (where / ".venv" / "bin" / "python").write_text("")
    (where / ".venv" / ".installed-runtime").write_text("")
    (where / "pyproject.toml").write_text(PYPROJECT)
    stamp = where / "build" / "mypyc" / "engine" / "SOURCES"
    stamp.parent.mkdir(parents=True)
    stamp.write_text(
        "".join(
            f"{name} {hashlib.sha256(text.encode()).hexdigest()}\n" for name, text in engine.items()
        )
    )
    return where


def a_release(where: Path, *, pyproject: str = PYPROJECT, engine: dict[str, str] = ENGINE):
    where.mkdir()
    git(where, "init", "-q")
    (where / "pyproject.toml").write_text(pyproject)
    for name, text in engine.items():
        (where / "engine" / name).parent.mkdir(parents=True, exist_ok=True)
        (where / "engine" / name).write_text(text)
    (where / "README.md").write_text("only the tray's own code changed\n")
    git(where, "add", ".")
    git(where, "commit", "-q", "-m", "v1.1.0")
    return Repository(where), Release("v1.1.0", git(where, "rev-parse", "HEAD"))


def test_a_release_of_the_same_packages_and_engine_needs_no_file(tmp_path):
    repository, release = a_release(tmp_path / "repo")
    assert not needs_its_file(repository, release, running_slot(tmp_path / "slot"))


@pytest.mark.parametrize(
    "pyproject",
    [
        PYPROJECT.replace("pyserial>=3.5", "pyserial>=3.6"),
        PYPROJECT.replace('"lgpio>=0.2"', '"lgpio>=0.2", "rpi-lgpio"'),
        PYPROJECT.replace(">=3.11", ">=3.12"),
        "not toml [",
    ],
    ids=["a dependency", "the Pi extra", "the Python", "unreadable"],
)
def test_a_release_asking_for_other_packages_needs_its_file(tmp_path, pyproject):
    repository, release = a_release(tmp_path / "repo", pyproject=pyproject)
    assert needs_its_file(repository, release, running_slot(tmp_path / "slot"))


def test_a_release_with_another_engine_source_needs_its_file(tmp_path):
    changed = {**ENGINE, "disney/rules.py": "WILD = 5\n"}
    repository, release = a_release(tmp_path / "repo", engine=changed)
    assert needs_its_file(repository, release, running_slot(tmp_path / "slot"))


def test_a_release_without_an_engine_source_the_build_names_needs_its_file(tmp_path):
    repository, release = a_release(tmp_path / "repo", engine={"core.py": "STEP = 1\n"})
    assert needs_its_file(repository, release, running_slot(tmp_path / "slot"))


def test_a_running_slot_without_a_compiled_engine_needs_the_file(tmp_path):
    repository, release = a_release(tmp_path / "repo")
    slot = running_slot(tmp_path / "slot")
    (slot / "build" / "mypyc" / "engine" / "SOURCES").unlink()
    assert needs_its_file(repository, release, slot)


def test_a_development_venv_is_not_taken_so_the_file_is_needed(tmp_path):
    repository, release = a_release(tmp_path / "repo")
    slot = running_slot(tmp_path / "slot")
    (slot / ".venv" / ".installed-runtime").rename(slot / ".venv" / ".installed-dev")
    assert needs_its_file(repository, release, slot)
