"""`tinker-tray uninstall`: removes what `tinker-tray install` made (`sudo ./tinker uninstall`).

The journal of games (/var/lib/tinker-tray) stays unless --purge; so do settings the family has
changed since the install (and settings that were there before it). With --root DIR it works
under DIR and stops nothing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

from cli.commands.install import (
    MANIFEST,
    SETTINGS,
    STATE,
    USER,
    InstallError,
    Made,
    add_root_argument,
    system,
)

ROOT_NEEDED = "it changes the system: run it as root (sudo ./tinker uninstall)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_root_argument(
        parser, "remove what install --root DIR wrote under DIR, and stop nothing; default: /"
    )
    parser.add_argument(
        "--purge",
        action="store_true",
        help=f"also remove the journal of games (/{STATE}) and changed settings",
    )


def deactivate() -> None:
    """Stop and disable the unit (the real system only); one that is not there is no error."""
    subprocess.run(["systemctl", "disable", "--now", "tinker-tray.service"], capture_output=True)


def remove(root: Path, made: Made, purge: bool) -> list[str]:
    """Remove what `made` lists under `root`; returns what was kept, to say so."""
    kept = []
    for relative in made.files:
        (root / relative).unlink(missing_ok=True)
    settings = root / SETTINGS
    (root / MANIFEST).unlink(missing_ok=True)
    if settings.exists():
        ours = made.settings is not None and settings.read_text() == made.settings
        if ours or purge:
            settings.unlink()
        else:
            kept.append(f"/{SETTINGS} (changed since the install, or not made by it)")
            if made.settings is not None:  # for a later --purge: its folders are the install's
                (root / MANIFEST).write_text(Made(folders=made.folders, settings="").to_json())
    state = root / STATE
    if state.exists():
        if purge:
            shutil.rmtree(state)
        else:
            kept.append(f"/{STATE} (the journal of games; --purge removes it)")
    for folder in sorted(made.folders, key=lambda f: f.count("/"), reverse=True):
        path = root / folder
        if path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    return kept


def run(args: argparse.Namespace) -> int:
    root = args.root
    try:
        if root is None:
            if os.geteuid() != 0:
                raise InstallError(ROOT_NEEDED)
            deactivate()
        kept = remove(root or Path("/"), Made.read(root or Path("/")), args.purge)
        if root is None:
            system("systemctl", "daemon-reload")
            subprocess.run(["userdel", USER], capture_output=True)  # gone already: fine
            if shutil.which("udevadm"):
                system("udevadm", "control", "--reload")
    except (InstallError, OSError) as exc:
        print(f"tinker-tray uninstall: {exc}", file=sys.stderr)
        return 1
    print("Uninstalled" + (f" from {root}" if root is not None else "") + ".")
    for what in kept:
        print(f"Kept {what}.")
    return 0
