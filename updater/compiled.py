"""The compiled engine a release carries, so that a tray's update compiles nothing.

A Pi Zero 2 W compiles the engine with mypyc in minutes (tens of them under emulation), so the
maintainer packs the one the release's image build made (`build/mypyc` of the tray set up for
the image's Python on arm64) into the update file as `mypyc/...` parts. `pack` takes it only if
it was built from the tag's own engine sources (each SHA-256 that its SOURCES lists is the tag's
file) for the trays' Python and machine; the update copies it into the new slot, where
engine/__init__.py checks every source again at each start: a compiled engine that is not the
release's is never run.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable
from pathlib import Path

from updater.releases import Repository

PREFIX = "mypyc/"
NAME = re.compile(r"mypyc/(?:[A-Za-z0-9_]{1,64}/){0,3}[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}")
"""A compiled engine's part: up to three folders of plain names, no `..`, no hidden file."""
MAX_FILES = 80
"""The engine is about 25 files (a shared library, a stub per module, SOURCES)."""
STAMP = "engine/SOURCES"


class CompiledError(Exception):
    """Why a compiled engine cannot go into an update file, in one sentence."""


def parts(folder: Path) -> dict[str, Path]:
    """Every file of the compiled engine in `folder` (a `build/mypyc`), as update-file parts."""
    if not (folder / STAMP).is_file():
        raise CompiledError(
            f"{folder} holds no compiled engine (no {STAMP}: `./tinker` builds one)"
        )
    found: dict[str, Path] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_symlink():
            raise CompiledError(f"{path} is a symbolic link: a compiled engine is plain files")
        if path.is_dir():
            continue
        name = PREFIX + path.relative_to(folder).as_posix()
        if not NAME.fullmatch(name):
            raise CompiledError(f"{path} is not a name a compiled engine's part can have")
        found[name] = path
    if len(found) > MAX_FILES:
        raise CompiledError(f"{folder} holds {len(found)} files, more than a compiled engine")
    return found


def suffix(python: str, machine: str) -> str:
    """The extension suffix of CPython `python` (3.13) on Linux `machine` (aarch64)."""
    return f".cpython-{python.replace('.', '')}-{machine}-linux-gnu.so"


def mismatch(repo: Path, tag: str, folder: Path, python: str, machine: str) -> str | None:
    """Why the compiled engine in `folder` is not the one for `tag` on the trays, or None."""
    wanted = suffix(python, machine)
    for path in folder.rglob("*.so"):
        if not path.name.endswith(wanted):
            return (
                f"{path.name} in {folder} was built for another Python or machine than the "
                f"trays' ({wanted[1:-3]}: --python, --machine)"
            )

    show = functools.partial(Repository(repo).show, tag)
    stale = stale_source(folder, show)
    if stale is None:
        return None
    if show(stale) is None:
        return f"the compiled engine in {folder} has {stale}, which {tag} has not"
    return (
        f"the compiled engine in {folder} was built from another {stale} than {tag}'s: "
        "build it from the tag"
    )


def stale_source(folder: Path, show: Callable[[str], bytes | None]) -> str | None:
    """The first source (`engine/...`) that the compiled engine in `folder` was not built from,
    as `show` gives the release's files; None when every one it lists is the release's."""
    for line in (folder / STAMP).read_text().splitlines():
        name, digest = line.split(" ")[:2]
        source = show(f"engine/{name}")
        if source is None or hashlib.sha256(source).hexdigest() != digest:
            return f"engine/{name}"
    return None
