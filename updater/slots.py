"""The release slots beside a tray's checkout, and the switch between them.

A tray never changes the version it runs. Each release is set up in a slot of its own and the
tray is switched to it by one atomic rename of a symbolic link, as RAUC switches a boot slot:

    HOME/                    the checkout the tray was installed from (the factory slot)
    HOME/.releases/current   -> slots/NAME, or -> .. (HOME itself): what every start runs
    HOME/.releases/previous  -> the slot it ran before: the way back, kept until the next update
    HOME/.releases/slots/NAME/           one release: its tree, its venv, RELEASE, then READY
    HOME/.releases/unconfirmed           {"slot": NAME, "starts": N}: switched to, not yet good

A slot is complete once its READY file exists (written last, after the set-up); a slot without
it is an interrupted set-up, never switched to, removed by the next update. A switch that has
not been confirmed (the tray said READY=1 and answered its page) is tried at one start; a second
start that finds it still unconfirmed switches back first, so a release that cannot serve, or a
switch cut short by a power cut or a kill, always ends on a version that runs.

This module is the tray's boot logic: it runs with the system's python3 before the service
starts (`python3 updater/slots.py recover`), from the checkout, so it imports nothing but the
standard library and must never depend on the release it may have to undo.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

RELEASES = ".releases"
HOME_SLOT = ".."
"""The link target that names the checkout itself (from inside .releases/)."""
READY = "READY"
"""Written last into a slot, once its set-up finished: only such a slot is switched to."""
RELEASE = "RELEASE"
"""The slot's release, as JSON {"tag": ..., "commit": ...}: what --version says."""


class SlotError(Exception):
    """A slot operation that could not be done, in one sentence."""


@dataclass(frozen=True)
class Slots:
    """The slots of one checkout (`home`)."""

    home: Path

    @property
    def root(self) -> Path:
        return self.home / RELEASES

    @property
    def slots(self) -> Path:
        return self.root / "slots"

    def path(self, name: str) -> Path:
        """The folder of slot `name` (HOME_SLOT: the checkout itself)."""
        return self.home if name == HOME_SLOT else self.slots / name

    def _link(self, which: str) -> str | None:
        try:
            target = os.readlink(self.root / which)
        except OSError:
            return None
        if target == HOME_SLOT:
            return HOME_SLOT
        return target.removeprefix("slots/") if target.startswith("slots/") else None

    def current(self) -> str:
        """The slot every start runs (the checkout itself before any update)."""
        return self._link("current") or HOME_SLOT

    def previous(self) -> str | None:
        return self._link("previous")

    def complete(self, name: str) -> bool:
        return name == HOME_SLOT or (self.path(name) / READY).is_file()

    def release_of(self, name: str) -> dict[str, str]:
        """{"tag", "commit"} of a slot ({} for the checkout, whose git says it)."""
        if name == HOME_SLOT:
            return {}
        try:
            data = json.loads((self.path(name) / RELEASE).read_text())
        except (OSError, ValueError):
            return {}
        return {k: str(v) for k, v in data.items() if k in ("tag", "commit")}

    # --- writing --------------------------------------------------------------------------

    def _set_link(self, which: str, name: str) -> None:
        """Point `which` at slot `name` by one rename (the old link stays until it is done)."""
        self.root.mkdir(exist_ok=True)
        target = HOME_SLOT if name == HOME_SLOT else f"slots/{name}"
        temporary = self.root / f".{which}.new"
        temporary.unlink(missing_ok=True)
        os.symlink(target, temporary)
        _owned_like(temporary, self.root)
        os.replace(temporary, self.root / which)
        sync_folder(self.root)

    def switch(self, name: str, *, confirmed: bool) -> None:
        """Make `name` current and the running one previous. Unless `confirmed` (its health was
        already seen), the switch is marked unconfirmed first, so a start that finds it can
        finish or undo it."""
        if not self.complete(name):
            raise SlotError(f"the release in {self.path(name)} did not finish its set-up")
        self.root.mkdir(exist_ok=True)
        running = self.current()
        if not confirmed:
            write_json(self.root / "unconfirmed", {"slot": name, "starts": 0})
        if running != name:
            self._set_link("previous", running)
        self._set_link("current", name)

    def ensure_current(self) -> None:
        """.releases/current exists (the installed unit starts the service through it)."""
        if not os.path.lexists(self.root / "current"):
            self._set_link("current", HOME_SLOT)

    def confirm(self) -> None:
        """The current slot is good: forget that it was on trial."""
        (self.root / "unconfirmed").unlink(missing_ok=True)
        sync_folder(self.root)

    def unconfirmed(self) -> dict[str, object] | None:
        try:
            data = json.loads((self.root / "unconfirmed").read_text())
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def roll_back(self) -> str:
        """Back to the previous slot (or the checkout); returns the slot now current."""
        back = self.previous() or HOME_SLOT
        if not self.complete(back):
            back = HOME_SLOT
        self._set_link("current", back)
        (self.root / "unconfirmed").unlink(missing_ok=True)
        sync_folder(self.root)
        return back

    def recover(self) -> str:
        """At a start: finish or undo a switch that was not confirmed. The first start after a
        switch tries the new slot; a start that finds it still unconfirmed goes back. Returns
        what to say (empty: nothing to do). Starts even where nothing can be written."""
        said = self._try_write(self.ensure_current, "")
        if said:
            return said
        pending = self.unconfirmed()
        current = self.current()
        if not self.complete(current):  # a slot lost its files (a card's fault): the checkout
            return self._try_write(self.roll_back, f"the release {current} is incomplete")
        if pending is None:
            return ""
        if pending.get("slot") != current:  # the switch itself never happened
            return self._try_write(self.confirm, "")
        starts = pending.get("starts")
        if isinstance(starts, int) and starts >= 1:
            return self._try_write(
                self.roll_back,
                f"the release {current} did not confirm it could serve: back to the previous one",
            )
        return self._try_write(
            lambda: write_json(self.root / "unconfirmed", {"slot": current, "starts": 1}),
            f"trying the release {current} (not yet confirmed)",
        )

    def _try_write(self, action: Callable[[], object], said: str) -> str:
        try:
            action()
        except OSError as exc:
            return f"{said} (could not write {self.root}: {exc.strerror or exc})".lstrip()
        return said

    def remove_others(self, keep: set[str]) -> list[str]:
        """Remove every slot folder but `keep` (and current and previous); returns the names."""
        keep = keep | {self.current(), self.previous() or HOME_SLOT}
        removed = []
        if self.slots.is_dir():
            for folder in sorted(self.slots.iterdir()):
                if folder.name not in keep:
                    shutil.rmtree(folder, ignore_errors=True)
                    removed.append(folder.name)
        return removed


def sync_folder(folder: Path) -> None:
    """A rename is durable once its folder is synced (a power cut right after keeps it)."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _owned_like(path: Path, folder: Path) -> None:
    """What root writes into a user's checkout (`sudo ./tinker update`) stays the user's."""
    owner = folder.stat()
    if os.geteuid() == 0 and owner.st_uid != 0:
        os.lchown(path, owner.st_uid, owner.st_gid)


def write_json(path: Path, data: object) -> None:
    """Written whole or not at all: a temporary file, synced, renamed over."""
    temporary = path.with_name(f".{path.name}.new")
    with open(temporary, "w") as out:
        json.dump(data, out)
        out.flush()
        os.fsync(out.fileno())
    _owned_like(temporary, path.parent)
    os.replace(temporary, path)
    sync_folder(path.parent)


def page_answers(port: int, *, within: float) -> bool:
    """The tray's page answers on loopback within `within` seconds."""
    deadline = time.monotonic() + within
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                if answer.status == 200:
                    return True
        except (OSError, urllib.error.URLError, ValueError):
            pass
        if time.monotonic() > deadline:
            return False
        time.sleep(0.5)


def main(argv: list[str] | None = None) -> int:
    """`slots.py recover HOME` before a start; `slots.py confirm HOME --port P` once it said
    READY=1 (systemd's ExecStartPre and ExecStartPost, as root, hardware/tinker-tray.service)."""
    parser = argparse.ArgumentParser(prog="tinker-tray slots")
    parser.add_argument("action", choices=["recover", "confirm"])
    parser.add_argument("home", type=Path)
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--within", type=float, default=60.0)
    args = parser.parse_args(argv)
    slots = Slots(args.home)
    if args.action == "recover":
        said = slots.recover()
        if said:
            print(f"tinker-tray: {said}", file=sys.stderr)
        return 0
    if slots.unconfirmed() is None:
        return 0
    if not page_answers(args.port, within=args.within):
        print(
            f"tinker-tray: the release {slots.current()} did not answer its page on port "
            f"{args.port} within {args.within:.0f} s: it will not be kept",
            file=sys.stderr,
        )
        return 1
    slots.confirm()
    print(f"tinker-tray: the release {slots.current()} serves: kept", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
