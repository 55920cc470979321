"""`tinker-tray uninstall`: removes what `tinker-tray install` made (`sudo ./tinker uninstall`).

The journal of games (/var/lib/tinker-tray) stays unless --purge; so do settings the family has
changed since the install (and settings that were there before it). With --root DIR it works
under DIR and stops nothing.
"""

from __future__ import annotations

import argparse
import os
import pwd
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
    check_root,
    reason,
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


def where(root: Path | None) -> str:
    return f"under {root}" if root is not None else "from this system"


def deactivate() -> None:
    """Stop and disable the unit (the real system only); one that is not there is no error."""
    subprocess.run(
        ["systemctl", "disable", "--now", "tinker-tray.service", "tinker-tray-update.path",
         "tinker-tray-update-card.service"],
        capture_output=True,
    )  # fmt: skip


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
            if purge and not any(settings.parent.iterdir()):  # (the unit's ConfigurationDirectory)
                settings.parent.rmdir()
        else:
            kept.append(f"/{SETTINGS} (changed since the install, or not made by it)")
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


def installed(root: Path, made: Made) -> bool:
    """Anything of an install under root: a file it makes, its settings, its journal (or, on the
    real system, its user)."""
    paths = [*made.files, MANIFEST, SETTINGS, STATE]
    if any((root / relative).exists() for relative in paths):
        return True
    return root == Path("/") and user_exists(USER)


def user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def run(args: argparse.Namespace) -> int:
    root = args.root
    try:
        if root is None and os.geteuid() != 0:
            raise InstallError(ROOT_NEEDED)
        if root is not None:
            check_root(root)
        made = Made.read(root or Path("/"))
        if not installed(root or Path("/"), made):
            print(f"Nothing to uninstall: tinker-tray is not installed {where(root)}.")
            return 0
        if root is None:
            deactivate()
        kept = remove(root or Path("/"), made, args.purge)
        if root is None:
            system("systemctl", "daemon-reload")
            subprocess.run(["userdel", USER], capture_output=True)  # gone already: fine
            if shutil.which("udevadm"):
                system("udevadm", "control", "--reload")
    except (InstallError, OSError) as exc:
        print(f"tinker-tray uninstall: {reason(exc)}", file=sys.stderr)
        return 1
    print(f"Uninstalled {where(root)}.")
    for what in kept:
        print(f"Kept {what}.")
    return 0
