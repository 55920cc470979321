"""Imager's customisation honoured as the tray's own boot-partition files, the rest refused in
one sentence each; Imager's files renamed and its words out of cmdline.txt (bootfiles/imager).
Whatever the card holds, each file is answered once (Imager's are renamed NAME.done; a
cmdline.txt that cannot be read is remembered, refusals.py) and the boot goes on: exit 0."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

from bootfiles import card
from bootfiles.card import Refused
from bootfiles.deadline import SECONDS, TooLong, deadline
from bootfiles.imager import Customisation, ImagerError, cloudinit, firstrun
from bootfiles.refusals import Refusals
from bootfiles.shown import quoted, say
from bootfiles.wifi import WIFI_FILE, Wifi, read_wifi

CMDLINE = "cmdline.txt"
KEYS = "authorized_keys"
FAT_MODE = 0o600
"""FAT keeps no modes: mounted with umask=0077, its files are root's and 0600, so ask that."""
TEMPLATE = Path(__file__).parents[2] / "image" / "bootfs" / WIFI_FILE
"""The Wi-Fi file the image ships (its comments explain the lines), for a card that lost it."""
IMAGER_WORDS = ("systemd.run=", "systemd.run_success_action=", "systemd.run_failure_action=")
IMAGER_UNIT = "systemd.unit=kernel-command-line.target"
REGDOM = "cfg80211.ieee80211_regdom="
USAGE = "usage: python -m bootfiles.imager BOOT_DIR [ROOT_DIR]"


def toml_string(value: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, and check_wifi has already refused the
    control characters JSON would leave as they are."""
    return json.dumps(value, ensure_ascii=False)


def wifi_file_text(current: str, wifi: Wifi) -> str:
    """The Wi-Fi file with Imager's network: its lines `country`, `ssid`, `password` filled in,
    the family's comments kept, read back as the tray reads it."""
    values = {"country": wifi.country, "ssid": wifi.ssid, "password": wifi.password}
    lines = [
        "# Filled in from Raspberry Pi Imager's settings at the first start (bootfiles/imager)."
    ]
    for line in current.removeprefix("\ufeff").splitlines():
        key = line.split("=", 1)[0].strip()
        lines.append(f"{key} = {toml_string(values.pop(key))}" if key in values else line)
    lines += [f"{key} = {toml_string(value)}" for key, value in values.items()]
    text = "\n".join(lines) + "\n"
    if read_wifi(text) != wifi:  # a bug here must not write a wrong network
        raise ImagerError(
            f"Imager's Wi-Fi '{quoted(wifi.ssid)}' cannot be written as a TOML string"
        )
    return text


def honour_wifi(boot: Path, wifi: Wifi) -> str:
    """Imager's network into tinker-tray-wifi.txt, unless that file names one already."""
    path, name = boot / WIFI_FILE, quoted(wifi.ssid)
    try:
        current = card.read_text(path) if path.exists() else _template()
        there = read_wifi(current)
    except Refused:
        return (
            f"Imager's Wi-Fi '{name}' is not used: {WIFI_FILE} has a mistake, and it is the "
            "family's file (its sentence follows)."
        )
    if there is not None:
        return (
            f"Imager's Wi-Fi '{name}' is not used: {WIFI_FILE} names '{quoted(there.ssid)}', "
            "and that file wins."
        )
    card.write_file(path, wifi_file_text(current, wifi), FAT_MODE)
    return f"Imager's Wi-Fi '{name}' is now in {WIFI_FILE}."


def _template() -> str:
    """The shipped Wi-Fi file; "" where this checkout has none (the lines are added anyway)."""
    try:
        return TEMPLATE.read_text()
    except OSError:
        return ""


def honour_keys(boot: Path, keys: list[str]) -> str:
    """Imager's SSH public keys added to the boot partition's authorized_keys, unless that file
    cannot be read or would grow past what the readers take (then it is left as it is)."""
    path = boot / KEYS
    try:
        there = card.read_text(path).splitlines() if path.exists() else []
    except Refused as exc:
        return f"{exc}: Imager's {len(keys)} SSH key(s) were not added to it."
    new = [key for key in keys if key not in there]
    text = "".join(f"{line}\n" for line in there + new)
    if len(text.encode()) > card.MAX_BYTES:
        return (
            f"{KEYS}: would be over {card.MAX_BYTES // 1024} KB with Imager's keys: Imager's "
            f"{len(keys)} SSH key(s) were not added to it."
        )
    card.write_file(path, text, FAT_MODE)
    return f"Imager's {len(keys)} SSH key(s) are in {KEYS}: SSH is on for root with them."


def refusals(wanted: Customisation) -> list[str]:
    """One sentence for each thing Imager asked for that the tray does not do, and why."""
    said = []
    who = f"user '{quoted(wanted.user)}'" if wanted.user else "user"
    if wanted.user is not None and wanted.user_password:
        said.append(
            f"Imager's {who} and its password are not used on this tray: it has no user with "
            "a password (root, with an SSH key, is the way in)."
        )
    elif wanted.user is not None:
        said.append(f"Imager's {who} is not used on this tray: its SSH keys are root's.")
    if wanted.password_ssh:
        said.append("Imager's SSH with a password is not used: the tray's SSH takes keys only.")
    if wanted.hidden:
        said.append(
            "Imager's 'hidden network' setting is not used: the tray connects to networks that "
            "show their name."
        )
    if wanted.hostname and wanted.hostname != "tinker-tray":
        said.append(
            f"Imager's hostname '{quoted(wanted.hostname)}' is not used: the tray stays "
            "tinker-tray.local, the name the phones open."
        )
    if wanted.locale:
        said.append("Imager's time zone and keyboard are not used: the tray has no login.")
    return said


def clean_cmdline(boot: Path, remembered: Refusals) -> str | None:
    """Imager's words out of cmdline.txt, as its own script's `sed` does: what happened, or
    None when nothing did (or a refusal already said at an earlier boot)."""
    path = boot / CMDLINE
    if not path.exists():
        remembered.forget(CMDLINE)
        return None
    file = card.read(path)
    if remembered.said(file) is not None:
        return None
    try:
        text = file.text()
    except Refused as exc:
        sentence = f"{exc}: Imager's words, if any, were left in it."
        remembered.remember(file, sentence)
        return sentence
    remembered.forget(CMDLINE)
    words = [
        word for word in text.split() if not word.startswith(IMAGER_WORDS) and word != IMAGER_UNIT
    ]
    if words == text.split():
        return None
    card.write_file(path, " ".join(words) + "\n", FAT_MODE)
    return f"Imager's systemd.run words are out of {CMDLINE}."


def _regdom(boot: Path) -> str:
    """The Wi-Fi country Imager 1 puts on cmdline.txt (cfg80211.ieee80211_regdom=XX); "" when
    there is none or the file cannot be read (clean_cmdline says why)."""
    try:
        words = card.read_text(boot / CMDLINE).split()
    except (OSError, Refused):
        return ""
    return next((word.removeprefix(REGDOM) for word in words if word.startswith(REGDOM)), "")


def _firstrun(boot: Path) -> Customisation:
    return firstrun.read(card.read_text(boot / firstrun.FIRSTRUN))


def _cloudinit(boot: Path) -> Customisation:
    user_data, network = (
        card.read_text(boot / name) if (boot / name).is_file() else ""
        for name in (cloudinit.USER_DATA, cloudinit.NETWORK_CONFIG)
    )
    return cloudinit.read(user_data, network, regdom=_regdom(boot))


SHAPES: list[tuple[tuple[str, ...], Callable[[Path], Customisation]]] = [
    ((firstrun.FIRSTRUN,), _firstrun),
    ((cloudinit.USER_DATA, cloudinit.NETWORK_CONFIG), _cloudinit),
]
"""Imager's two shapes: the files each is made of, and how they are read."""


def honour(boot: Path, names: tuple[str, ...], read: Callable[[Path], Customisation]) -> list[str]:
    """One shape honoured (or refused in one sentence), then its files renamed NAME.done."""
    present = [name for name in names if (boot / name).is_file()]
    if not present:
        return []
    done = " and ".join(f"{name}.done" for name in present)
    kept = f"the file is kept as {done}" if len(present) == 1 else f"the files are kept as {done}"
    try:
        wanted = read(boot)
    except Refused as exc:
        said = [f"{exc}: Imager's settings were not used ({kept})."]
    else:
        said = [honour_wifi(boot, wanted.wifi)] if wanted.wifi else []
        said += [honour_keys(boot, wanted.keys)] if wanted.keys else []
        said += refusals(wanted)
        said = said or [f"Imager's settings held nothing the tray uses ({kept})."]
    for name in present:
        os.replace(boot / name, boot / f"{name}.done")
    return said


def run(boot: Path, root: Path) -> list[str]:
    """Everything there is to do on this boot partition, as sentences."""
    said = []
    remembered = Refusals(root)
    try:
        for names, read in SHAPES:
            said += honour(boot, names, read)
        cmdline = clean_cmdline(boot, remembered)
        said += [cmdline] if cmdline else []
        remembered.save()
    except OSError as exc:
        said.append(f"Imager's settings: {exc.strerror or exc}: nothing more was changed.")
    return said


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (1, 2):
        print(USAGE, file=sys.stderr)
        return 2
    boot, root = Path(args[0]), Path(args[1] if len(args) == 2 else "/")
    try:
        with deadline():
            said = run(boot, root)
    except TooLong:
        said = [f"Imager's settings took over {SECONDS} s to read: stopped, the boot goes on."]
    say(said)
    return 0  # the boot goes on whatever happened: the units after this one start the tray
