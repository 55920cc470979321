"""`tinker-tray install`: the tray as a service of this Pi, from this checkout (`sudo ./tinker
install`; `sudo ./tinker uninstall` undoes it, see cli/commands/uninstall.py).

What it makes, each under --root (default /):
  etc/sysusers.d/tinker-tray.conf      the system user tinker-tray, in the gpio and dialout groups
  etc/tinker-tray/pinmap.toml          the settings, copied from hardware/ unless already there
  etc/udev/rules.d/99-tinker-tray-*.rules   the GPIO chips and a USB tray for those groups
  etc/systemd/system/tinker-tray.service    the unit, running this checkout's current release
                                            (.releases/current: the checkout until an update)
  etc/tinker-tray/installed            what it made (files and new folders), for uninstall
On the real system (no --root) it then creates the user (systemd-sysusers), reloads udev and
enables and starts the unit; with --root nothing outside DIR is touched, for tests and packagers.
It ends by printing the address the phones open.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]
UNIT = "etc/systemd/system/tinker-tray.service"
UPDATE_UNITS = {
    f"etc/systemd/system/{name}": f"hardware/{name}"
    for name in ("tinker-tray-update.path", "tinker-tray-update.service",
                 "tinker-tray-update-card.service")
}  # fmt: skip
"""The root side of updates (docs/release.md): the page's requests, and a boot partition's file."""
SETTINGS = "etc/tinker-tray/pinmap.toml"
SYSUSERS = "etc/sysusers.d/tinker-tray.conf"
MANIFEST = "etc/tinker-tray/installed"
STATE = "var/lib/tinker-tray"
"""The journal (systemd's StateDirectory): made by the service, kept by uninstall unless --purge."""
RULES = {
    "etc/udev/rules.d/99-tinker-tray-gpio.rules": "hardware/99-tinker-tray-gpio.rules",
    "etc/udev/rules.d/99-tinker-tray-usb.rules": "firmware_bridge/99-tinker-tray-usb.rules",
}
USER = "tinker-tray"
TEMPLATE = CHECKOUT / "hardware" / "tinker-tray.service"
TEMPLATE_HOME = "/opt/tinker-tray"
"""Where hardware/tinker-tray.service expects the checkout; replaced by the real one."""
SYSUSERS_TEXT = f"""\
# The tray service's system user (sudo ./tinker install; systemd-sysusers reads this file).
u {USER} - "Tinker Bell tray" /{STATE}
m {USER} gpio
m {USER} dialout
"""


class InstallError(Exception):
    """Why the install cannot go on, in one line."""


@dataclass
class Made:
    """What an install created, as paths relative to its root: uninstall removes just these."""

    files: list[str] = field(default_factory=list)
    folders: list[str] = field(default_factory=list)
    settings: str | None = None
    """The settings file's text as installed (None: it was there already, and is the user's)."""

    def to_json(self) -> str:
        return json.dumps(self.__dict__, indent=1) + "\n"

    @classmethod
    def read(cls, root: Path) -> Made:
        try:
            data = json.loads((root / MANIFEST).read_text())
        except (OSError, ValueError):
            return cls(files=[UNIT, SYSUSERS, *RULES])  # an install without a record: the fixed set
        return cls(data.get("files", []), data.get("folders", []), data.get("settings"))


def add_root_argument(parser: argparse.ArgumentParser, what: str) -> None:
    """`--root DIR`: install and uninstall work under DIR and touch nothing of the system."""
    parser.add_argument("--root", type=Path, default=None, metavar="DIR", help=what)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_root_argument(
        parser, "write everything under DIR and start nothing (tests, packagers); default: /"
    )


def unit_text(venv: Path, checkout: Path = CHECKOUT, template: Path | None = None) -> str:
    """A unit of hardware/ with this checkout and its venv in place of /opt's (in its
    settings: the comments, which say what is replaced, stay as they are)."""
    lines = (template or TEMPLATE).read_text().splitlines(keepends=True)
    return "".join(
        line if line.startswith("#") else home_replaced(line, venv, checkout) for line in lines
    )


HOME_PATH = re.compile(
    rf"(?<![\w.\-~]){re.escape(TEMPLATE_HOME)}(?![\w.\-~])(?P<venv>/\.venv(?![\w.\-~]))?"
)
"""/opt/tinker-tray as a whole path (its venv, /opt/tinker-tray/.venv, as one), wherever a line
names it (ExecStart=, an argument, file:///opt/tinker-tray/docs): never the start of a longer
name (/opt/tinker-tray2), nor a folder of that name inside another path (/srv/opt/tinker-tray)."""


def home_replaced(text: str, venv: Path, checkout: Path) -> str:
    """`text` with each /opt/tinker-tray path naming `checkout` (its .venv: `venv`), in one
    pass: a checkout whose own name starts with /opt/tinker-tray (/opt/tinker-tray2) is not
    replaced again, and its characters are taken as they are (no regex escapes)."""
    return HOME_PATH.sub(lambda m: str(venv if m["venv"] else checkout), text)


def write(root: Path, relative: str, text: str, made: Made) -> None:
    path = root / relative
    missing = [p for p in path.parents if not p.exists() and p.is_relative_to(root)]
    for folder in reversed(missing):
        folder.mkdir()
        made.folders.append(str(folder.relative_to(root)))
    path.write_text(text)
    path.chmod(0o644)
    made.files.append(relative)


def place_files(root: Path, venv: Path) -> Made:
    """Write every file of the install under `root`; returns what was made (an install run
    again keeps the first one's record: its folders, its settings text)."""
    before = Made.read(root) if (root / MANIFEST).exists() else Made()
    made = Made(folders=before.folders, settings=before.settings)
    write(root, SYSUSERS, SYSUSERS_TEXT, made)
    settings = root / SETTINGS
    if not settings.exists():  # (a settings file the family keeps is never written over)
        text = (CHECKOUT / "hardware" / "pinmap.toml").read_text()
        write(root, SETTINGS, text, made)
        made.files.remove(SETTINGS)  # uninstall decides about it by its text (Made.settings)
        made.settings = text
    for target, source in RULES.items():
        write(root, target, (CHECKOUT / source).read_text(), made)
    write(root, UNIT, unit_text(venv), made)
    for target, source in UPDATE_UNITS.items():
        write(root, target, unit_text(venv, template=CHECKOUT / source), made)
    from updater.slots import Slots

    Slots(CHECKOUT).ensure_current()  # the unit starts the current release slot (the checkout)
    (root / MANIFEST).write_text(made.to_json())
    return made


def readable_by_all(path: Path) -> bool:
    """The service's user can reach the checkout: every folder above it lets others through."""
    return all(os.stat(p).st_mode & 0o005 == 0o005 for p in [path, *path.parents])


HIDDEN = {
    "/home": "ProtectHome=yes",
    "/root": "ProtectHome=yes",
    "/run/user": "ProtectHome=yes",
    "/tmp": "PrivateTmp=yes",
    "/var/tmp": "PrivateTmp=yes",
}
"""Folders the unit (hardware/tinker-tray.service) hides from the service, and the setting that
hides them: a checkout under one cannot be run by it, however readable."""


def hidden_by(path: Path) -> tuple[str, str] | None:
    """The hidden folder `path` is in, and the unit's setting that hides it; None: visible."""
    for folder, setting in HIDDEN.items():
        if path.is_relative_to(folder):
            return folder, setting
    return None


def check_checkout(checkout: Path) -> None:
    """The service can reach the checkout: not in a folder its unit hides, readable by others."""
    hidden = hidden_by(checkout.resolve())
    if hidden is not None:
        raise InstallError(
            f"the service cannot see {checkout}: its unit hides {hidden[0]} ({hidden[1]}): clone "
            "it into /opt/tinker-tray (docs/install.md, section 2) and install from there"
        )
    if not readable_by_all(checkout):
        raise InstallError(
            f"the service's user cannot read {checkout} (a home folder is private): clone it "
            "to /opt/tinker-tray instead (docs/install.md)"
        )


def check_system(venv: Path) -> None:
    """Refuse, in one line, an install that could not work on this system."""
    if os.geteuid() != 0:
        raise InstallError("it changes the system: run it as root (sudo ./tinker install)")
    check_checkout(CHECKOUT)
    if not (venv / "bin" / "tinker-tray").exists():
        raise InstallError(f"no tinker-tray in {venv}: run it as ./tinker install")


def system(*command: str) -> None:
    """Run one step on the real system; a failure stops the install with its message."""
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines()
        detail = said[-1] if said else f"exit status {done.returncode}"
        raise InstallError(f"{' '.join(command)} failed: {detail}")


def activate() -> None:
    """The user, the udev rules and the unit, live (the real system only)."""
    system("systemd-sysusers", f"/{SYSUSERS}")
    if shutil.which("udevadm"):
        system("udevadm", "control", "--reload")
        system("udevadm", "trigger", "--subsystem-match=gpio", "--subsystem-match=tty")
    system("systemctl", "daemon-reload")
    system("systemctl", "enable", "tinker-tray.service", "tinker-tray-update.path",
           "tinker-tray-update-card.service")  # fmt: skip
    system("systemctl", "restart", "tinker-tray.service")  # (installed again: the new unit)


def address() -> str:
    """What the phones open: the LAN address (every phone can), and the mDNS name."""
    from cli.network import DEFAULT_PORT, MDNS_NAME, lan_address

    lan = lan_address()
    named = f"http://{MDNS_NAME}.local:{DEFAULT_PORT}"
    return f"http://{lan}:{DEFAULT_PORT} (or {named})" if lan else named


def check_root(root: Path) -> None:
    """--root DIR names a folder that is there (install and uninstall make nothing above it)."""
    if not root.is_dir():
        raise InstallError(
            f"--root {root}: {'not a folder' if root.exists() else 'no such folder'}"
        )


def reason(exc: Exception) -> str:
    """An error as a sentence: a file's problem names the file, not an errno."""
    if isinstance(exc, OSError) and exc.strerror:
        return f"cannot write {exc.filename}: {exc.strerror}" if exc.filename else exc.strerror
    return str(exc)


def run(args: argparse.Namespace) -> int:
    venv = Path(sys.prefix)
    root = args.root
    try:
        if root is None:
            check_system(venv)
        else:
            check_root(root)
        made = place_files(root or Path("/"), venv)
        if root is None:
            activate()
    except (InstallError, OSError) as exc:
        print(f"tinker-tray install: {reason(exc)}", file=sys.stderr)
        if root is None and (Path("/") / MANIFEST).exists():
            print("(`sudo ./tinker uninstall` removes what was made.)", file=sys.stderr)
        return 1
    where = f" under {root}" if root is not None else ""
    print(f"Installed{where}: the service, its user and its udev rules.")
    kept = "kept as it was" if made.settings is None else "edit it, then restart the service"
    print(f"Settings: {(root or Path('/')) / SETTINGS} ({kept}).")
    print(f"The phones at the table open {address()}")
    return 0
