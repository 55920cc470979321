"""Wi-Fi and the table's settings from the SD card's boot partition, read at every boot by the
image's tinker-tray-settings.service, before the network and the tray start.

The boot partition is FAT: any computer can edit it, so it is where a family without a keyboard
on the Pi writes what the tray needs (docs/image.md):
  tinker-tray-wifi.txt       country, ssid, password: becomes a NetworkManager profile
  tinker-tray-settings.txt   the pin map and settings (hardware/pinmap.toml's format): becomes
                             /etc/tinker-tray/pinmap.toml
A file with a mistake changes nothing (the last good Wi-Fi profile and settings stay) and is
reported in one sentence on the HDMI screen (the console and the login banner) and in the
journal, once: the same file at the next boot is not read again and says nothing new, while the
banner keeps its sentence until the file is fixed (refusals.py). The program always exits 0, so
the tray starts all the same.

    python -m bootfiles.settings BOOT_DIR ROOT_DIR
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bootfiles import card
from bootfiles.card import Refused
from bootfiles.deadline import SECONDS, TooLong, deadline
from bootfiles.refusals import Refusals
from bootfiles.shown import quoted, say, shown
from bootfiles.wifi import WIFI_FILE, profile_text, read_wifi
from tray import config as tray_config

SETTINGS_FILE = "tinker-tray-settings.txt"
PROFILE = "etc/NetworkManager/system-connections/tinker-tray-wifi.nmconnection"
REGULATORY = "etc/modprobe.d/tinker-tray-wifi.conf"
PINMAP = "etc/tinker-tray/pinmap.toml"
ISSUE = "etc/issue.d/tinker-tray-settings.issue"
"""The login banner's part (agetty reads /etc/issue.d): the problems, until they are fixed."""
USAGE = "usage: python -m bootfiles.settings BOOT_DIR ROOT_DIR"


def apply_wifi(text: str, root: Path) -> str:
    """The Wi-Fi file as a profile (none named: the profile removed). What happened, a line."""
    wifi = read_wifi(text)
    if wifi is None:
        (root / PROFILE).unlink(missing_ok=True)
        return f"{WIFI_FILE} names no network (ssid is empty): no Wi-Fi."
    changed = card.write_file(root / PROFILE, profile_text(wifi), 0o600)
    if wifi.country:
        card.write_file(root / REGULATORY, f"options cfg80211 ieee80211_regdom={wifi.country}\n")
    return f"Wi-Fi: '{quoted(wifi.ssid)}'{' (new)' if changed else ''}."


def apply_settings(text: str, root: Path) -> str:
    """The settings file, checked as the tray checks it, as /etc/tinker-tray/pinmap.toml."""
    try:
        tray_config.parse(text, source=SETTINGS_FILE)
    except tray_config.ConfigError as exc:
        problems = shown("; ".join(str(exc).splitlines()), 400)  # so that the end is seen
        raise Refused(f"{problems} (the tray keeps its previous settings)") from None
    changed = card.write_file(root / PINMAP, text)
    return f"Settings: {SETTINGS_FILE}{' (new)' if changed else ''}."


FILES: list[tuple[str, Callable[[str, Path], str]]] = [
    (WIFI_FILE, apply_wifi),
    (SETTINGS_FILE, apply_settings),
]


@dataclass
class Outcome:
    """What one run did: `done` and `new` are said now; `kept` (refused at an earlier boot, the
    same file still there) only stays in the banner."""

    done: list[str] = field(default_factory=list)
    new: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)


def run(boot: Path, root: Path, refusals: Refusals) -> Outcome:
    """Apply each file that is there, each refusal one sentence, said once."""
    outcome = Outcome()
    for name, apply in FILES:
        if not (boot / name).is_file():
            refusals.forget(name)
            continue
        try:
            file = card.read(boot / name)
        except OSError as exc:
            outcome.new.append(f"{name}: {exc.strerror or exc}: nothing was changed.")
            continue
        said = refusals.said(file)
        if said is not None:
            outcome.kept.append(said)
            continue
        try:
            outcome.done.append(apply(file.text(), root))
        except Refused as exc:
            outcome.new.append(f"{exc}: nothing was changed.")
            refusals.remember(file, outcome.new[-1])
        except OSError as exc:
            outcome.new.append(f"{name}: {exc.strerror or exc}: nothing was changed.")
        else:
            refusals.forget(name)
    return outcome


def banner(problems: list[str]) -> str:
    """The login banner's part for the problems, escaped (no line of the card's own) and with
    its backslashes doubled (agetty reads `\\4` and the like as its own escapes)."""
    lines = ["  The SD card's settings need a fix:", *(f"  - {shown(p)}" for p in problems)]
    return "\n".join(line.replace("\\", "\\\\") for line in lines) + "\n\n"


def _banner(root: Path, problems: list[str]) -> list[str]:
    """The banner written (or removed: nothing to fix); a sentence if that failed."""
    try:
        if problems:
            card.write_file(root / ISSUE, banner(problems))
        else:
            (root / ISSUE).unlink(missing_ok=True)
    except OSError as exc:
        return [f"the login banner could not be written: {exc.strerror}"]
    return []


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print(USAGE, file=sys.stderr)
        return 2
    boot, root = Path(args[0]), Path(args[1])
    refusals = Refusals(root)
    try:
        with deadline():
            outcome = run(boot, root, refusals)
    except TooLong:
        outcome = Outcome()
        outcome.new.append(f"the boot partition's files took over {SECONDS} s to read: stopped.")
    said = outcome.done + outcome.new + _banner(root, outcome.new + outcome.kept)
    try:
        refusals.save()
    except OSError as exc:
        said.append(f"the refusals could not be remembered: {exc.strerror}")
    say(said)
    return 0  # the tray starts all the same: its own settings check decides about its pins


if __name__ == "__main__":
    sys.exit(main())
