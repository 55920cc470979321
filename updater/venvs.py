"""A new release's venv, taken from the running slot when both ask for the same packages.

Setting up a venv is pip resolving, unpacking and byte-compiling some 25 wheels: minutes on a
Pi Zero 2 W, and most of an update's twenty minutes under emulation. A release that asks for
what the running one asks for (the same dependencies and Pi extra, the same Python bounds)
would be given the same packages, so its slot takes the running slot's venv instead: each file
hard-linked (no second copy on the card, and nothing either slot does later changes the other's:
Python and pip replace files, never write into them), copied where the card cannot link, and the
few files that name the old venv's path (the scripts' `#!` lines, `activate`, pyvenv.cfg, the
project's editable .pth and its direct_url.json) written anew. A release that changes a
requirement is set up by pip as before, from the wheels its update file handed it.
"""

from __future__ import annotations

import os
import shutil
import tomllib
from pathlib import Path

MARKERS = (".installed-", ".engine-python-", ".bytecode-", "pip.log", "mypyc.log")
"""The set-up's own notes in a venv (./tinker): the new slot writes its own."""
MAX_REWRITTEN = 1 << 20
"""A script or .pth larger than this is no file of a venv's that names its path."""


def requirements(pyproject: Path) -> tuple[object, ...] | None:
    """What a venv must hold for this release: its dependencies, its Pi extra, its Python."""
    try:
        return requirements_in(pyproject.read_text())
    except OSError:
        return None


def requirements_in(text: str) -> tuple[object, ...] | None:
    """`requirements` of a pyproject.toml's text."""
    try:
        project = tomllib.loads(text)["project"]
        extras = project.get("optional-dependencies", {})
        return (
            sorted(project["dependencies"]),
            sorted(extras.get("pi", [])),
            project.get("requires-python"),
        )
    except (tomllib.TOMLDecodeError, KeyError, TypeError):
        return None


def reusable(running: Path, folder: Path) -> bool:
    """Whether the release in `folder` may take `running`'s venv: a runtime venv (a tray's:
    no development tools) set up for the same requirements."""
    return reusable_for(running, requirements(folder / "pyproject.toml"))


def reusable_for(running: Path, wanted: tuple[object, ...] | None) -> bool:
    """`reusable` for a release that asks for `wanted` (`requirements`)."""
    venv = running / ".venv"
    if not (venv / ".installed-runtime").is_file() or not (venv / "bin" / "python").exists():
        return False
    return wanted is not None and wanted == requirements(running / "pyproject.toml")


def take(running: Path, folder: Path) -> None:
    """`running`'s venv as `folder`'s, its paths rewritten; ./tinker in `folder` then finds it
    set up for its pyproject.toml (the marker is made new) and installs nothing."""
    old, new = running / ".venv", folder / ".venv"
    for top, folders, files in os.walk(old):
        here = Path(top)
        there = new / here.relative_to(old)
        there.mkdir(exist_ok=True)
        shutil.copystat(here, there)
        for name in folders:
            if (here / name).is_symlink():
                os.symlink(os.readlink(here / name), there / name)
        folders[:] = [name for name in folders if not (here / name).is_symlink()]
        for name in files:
            if here == old and name.startswith(MARKERS):
                continue
            _place(here / name, there / name)
    _rewrite(new, os.fsencode(old), os.fsencode(new))
    _rewrite_project(new, os.fsencode(running), os.fsencode(folder))
    (new / ".installed-runtime").touch()


def _place(source: Path, target: Path) -> None:
    if source.is_symlink():
        os.symlink(os.readlink(source), target)
        return
    try:
        os.link(source, target)
    except OSError:  # a card (or a folder) that cannot link: a copy
        shutil.copy2(source, target)


def _rewrite(venv: Path, old: bytes, new: bytes) -> None:
    """The scripts, `activate` and pyvenv.cfg that name the old venv: written anew (never
    through the shared link)."""
    for path in [*(venv / "bin").iterdir(), venv / "pyvenv.cfg"]:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_REWRITTEN:
            continue
        data = path.read_bytes()
        if old in data:
            _replace(path, data.replace(old, new))


def _rewrite_project(venv: Path, old: bytes, new: bytes) -> None:
    """The editable install's .pth names the old slot's folder on a line of its own, and its
    direct_url.json as a file:// address."""
    for path in venv.glob("lib/python*/site-packages/*.pth"):
        lines = path.read_bytes().splitlines(keepends=True)
        changed = [
            new + line[len(old) :] if line.rstrip(b"\r\n") == old else line for line in lines
        ]
        if changed != lines:
            _replace(path, b"".join(changed))
    address = b'"file://%s"'
    for path in venv.glob("lib/python*/site-packages/*.dist-info/direct_url.json"):
        data = path.read_bytes()
        if address % old in data:
            _replace(path, data.replace(address % old, address % new))


def _replace(path: Path, data: bytes) -> None:
    mode = path.stat().st_mode
    fresh = path.with_name(path.name + ".new")
    fresh.write_bytes(data)
    os.chmod(fresh, mode)
    os.replace(fresh, path)
