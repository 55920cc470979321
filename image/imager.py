"""Raspberry Pi Imager's OS customisation on the tray's card, read as data and turned into the
tray's own boot-partition files, at every boot before tinker-tray-settings.service.

Imager writes its customisation (Wi-Fi, SSH keys, a user and its password, hostname, time zone)
as a shell script, `firstrun.sh`, on the boot partition, and appends to cmdline.txt
    systemd.run=/boot/firstrun.sh systemd.run_success_action=reboot
    systemd.unit=kernel-command-line.target
(Imager 1.6 always; 2.x for an image its OS list marks "systemd"). On Raspberry Pi OS /boot was
the boot partition; on this image it is /boot/firmware, so /boot/firstrun.sh is no program, and
systemd's kernel-command-line.service fails (its FailureAction=exit: the Pi switches off) before
any network or tray. The image's two drop-ins (/etc/systemd/system/kernel-command-line.*.d)
make that boot a normal one instead: no reboot, no script run as root, nothing that depends on
this module working. This module then takes from Imager's script only what is safe and the
tray uses, as the tray's own files, which the units after it apply as for any card:
  Wi-Fi (name, password or the 64-digit key Imager derives, country) -> tinker-tray-wifi.txt,
      unless that file names a network already (the file a family edits wins);
  SSH public keys -> the boot partition's authorized_keys (merged with the keys there).
Imager's user and password, SSH with a password, hostname, time zone and keyboard are not used:
each is one sentence on the screen and in the journal (the image has no user with a password,
docs/image.md). Then Imager's words leave cmdline.txt and firstrun.sh becomes firstrun.sh.done
(kept, so nothing is lost; Imager's own script deletes itself), so this happens once.
A firstrun.sh that cannot be read is one sentence and changes nothing but its name.

    python -m image.imager BOOT_DIR
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path

from image import boot_settings

FIRSTRUN = "firstrun.sh"
DONE = FIRSTRUN + ".done"
CMDLINE = "cmdline.txt"
KEYS = "authorized_keys"
FAT_MODE = 0o600
"""The boot partition is FAT mounted with umask=0077: chmod to any other mode fails there."""
TEMPLATE = Path(__file__).parent / "bootfs" / boot_settings.WIFI_FILE
IMAGER_WORDS = ("systemd.run=", "systemd.run_success_action=", "systemd.run_failure_action=")
IMAGER_UNIT = "systemd.unit=kernel-command-line.target"


class ImagerError(ValueError):
    """Imager's script cannot be read, as one sentence naming the file."""


@dataclass
class Customisation:
    """What Imager's script asks for, as data (nothing of it is run)."""

    wifi: boot_settings.Wifi | None = None
    hidden: bool = False
    keys: list[str] = field(default_factory=list)
    user: str | None = None
    """The user Imager names ("" when its script names none: Imager 1.6), None if none."""
    password_ssh: bool = False
    hostname: str = ""
    locale: bool = False


def _words(line: str) -> list[str]:
    try:
        return shlex.split(line)
    except ValueError as exc:
        raise ImagerError(f"{FIRSTRUN}: a line cannot be read ({exc})") from None


def _command(lines: list[str], program: str, verb: str = "") -> list[str] | None:
    """The arguments (after `verb`) of the first line that runs `program` `verb`; None if none.
    Only such lines are split as the shell would split them: nothing is run."""
    for line in lines:
        if program in line and verb in line:
            words = _words(line)
            if words[:1] and words[0].endswith(program) and (not verb or words[1:2] == [verb]):
                return words[2 if verb else 1 :]
    return None


def _heredoc(lines: list[str], marker: str) -> list[str] | None:
    """The lines of the here-document `<<'marker'`, None when there is none."""
    start = next((i for i, line in enumerate(lines) if f"<<'{marker}'" in line), None)
    if start is None:
        return None
    try:
        end = lines.index(marker, start + 1)
    except ValueError:
        raise ImagerError(f"{FIRSTRUN}: its part <<'{marker}' has no end ({marker})") from None
    return lines[start + 1 : end]


def _ssid(value: str) -> str:
    """wpa_supplicant's ssid= value: "text" (Imager writes it as it is) or hex:, which Imager 2
    writes for a name with a quote, a backslash or bytes that are not UTF-8."""
    if value.startswith("hex:"):
        try:
            return bytes.fromhex(value[4:]).decode()
        except ValueError:
            raise ImagerError(
                f"{FIRSTRUN}: the network's name is not UTF-8 text: write it in "
                f"{boot_settings.WIFI_FILE} instead"
            ) from None
    return value[1:-1] if len(value) >= 2 and value[0] == value[-1] == '"' else value


def _wifi(lines: list[str]) -> tuple[boot_settings.Wifi | None, bool]:
    """The network of the wpa_supplicant.conf Imager's script writes (every Imager version
    writes it, its `imager_custom set_wlan` line beside it only from 1.7): (Wi-Fi, hidden)."""
    conf = _heredoc(lines, "WPAEOF")
    if conf is None:
        return None, False
    settings = dict(line.strip().split("=", 1) for line in conf if "=" in line)
    ssid = _ssid(settings.get("ssid", ""))
    if not ssid:
        return None, False
    open_network = settings.get("key_mgmt") == "NONE"
    password = "" if open_network else settings.get("psk", "").strip('"')
    country = settings.get("country", "").strip().upper()
    try:
        boot_settings.check_wifi(FIRSTRUN, ssid, password, country)
    except boot_settings.SettingsError as exc:
        raise ImagerError(str(exc)) from None
    return boot_settings.Wifi(ssid, password, country), settings.get("scan_ssid") == "1"


def _user(lines: list[str], text: str) -> str | None:
    named = _command(lines, "/usr/lib/userconf-pi/userconf")
    if named:
        return named[0]
    return "" if "chpasswd -e" in text else None


def read_firstrun(text: str) -> Customisation:
    """Imager's firstrun.sh (1.6 to 2.0) as data, or ImagerError in one sentence."""
    lines = text.replace("\r\n", "\n").split("\n")
    if lines[0] not in ("#!/bin/bash", "#!/bin/sh"):
        raise ImagerError(f"{FIRSTRUN}: is not a script Raspberry Pi Imager writes")
    wifi, hidden = _wifi(lines)
    ssh = _command(lines, "imager_custom", "enable_ssh")  # 1.7 on; [] means with a password
    if ssh and ssh[0] == "-k":
        keys = ssh[1:]
    else:  # Imager 1.6: install ... <(echo "KEY") ...
        keys = re.findall(r'<\(echo "([^"]+)"\)', text)
    hostname = re.search(r"^\s*echo (\S+) >/etc/hostname$", text, re.MULTILINE)
    return Customisation(
        wifi=wifi,
        hidden=hidden,
        keys=[key.strip() for key in keys if key.strip()],
        user=_user(lines, text),
        password_ssh=not keys and (ssh == [] or (ssh is None and "systemctl enable ssh" in text)),
        hostname=hostname.group(1) if hostname else "",
        locale="/etc/timezone" in text or "KBEOF" in text,
    )


def toml_string(value: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, and check_wifi has already refused the
    control characters JSON would leave as they are."""
    return json.dumps(value, ensure_ascii=False)


def wifi_file_text(current: str, wifi: boot_settings.Wifi) -> str:
    """The Wi-Fi file with Imager's network: its lines `country`, `ssid`, `password` filled in,
    the family's comments kept, read back as the tray reads it."""
    values = {"country": wifi.country, "ssid": wifi.ssid, "password": wifi.password}
    lines = ["# Filled in from Raspberry Pi Imager's settings (image/imager.py)."]
    for line in current.removeprefix("\ufeff").splitlines():
        key = line.split("=", 1)[0].strip()
        lines.append(f"{key} = {toml_string(values.pop(key))}" if key in values else line)
    lines += [f"{key} = {toml_string(value)}" for key, value in values.items()]
    text = "\n".join(lines) + "\n"
    if boot_settings.read_wifi(text) != wifi:  # a bug here must not write a wrong network
        raise ImagerError(f"Imager's Wi-Fi '{wifi.ssid}' cannot be written as a TOML string")
    return text


def honour_wifi(boot: Path, wifi: boot_settings.Wifi) -> str:
    """Imager's network into tinker-tray-wifi.txt, unless that file names one already."""
    path = boot / boot_settings.WIFI_FILE
    current = boot_settings.read_text(path) if path.exists() else TEMPLATE.read_text()
    try:
        there = boot_settings.read_wifi(current)
    except boot_settings.SettingsError:
        return (
            f"Imager's Wi-Fi '{wifi.ssid}' is not used: {boot_settings.WIFI_FILE} has a "
            "mistake, and it is the family's file (its sentence follows)."
        )
    if there is not None:
        return (
            f"Imager's Wi-Fi '{wifi.ssid}' is not used: {boot_settings.WIFI_FILE} names "
            f"'{there.ssid}', and that file wins."
        )
    boot_settings.write_file(path, wifi_file_text(current, wifi), FAT_MODE)
    return f"Imager's Wi-Fi '{wifi.ssid}' is now in {boot_settings.WIFI_FILE}."


def honour_keys(boot: Path, keys: list[str]) -> str:
    """Imager's SSH public keys added to the boot partition's authorized_keys."""
    path = boot / KEYS
    there = boot_settings.read_text(path).splitlines() if path.exists() else []
    new = [key for key in keys if key not in there]
    boot_settings.write_file(path, "".join(f"{line}\n" for line in there + new), FAT_MODE)
    return f"Imager's {len(keys)} SSH key(s) are in {KEYS}: SSH is on for root with them."


def refusals(wanted: Customisation) -> list[str]:
    """One sentence for each thing Imager asked for that the tray does not do, and why."""
    said = []
    if wanted.user is not None:
        who = f"user '{wanted.user}'" if wanted.user else "user"
        said.append(
            f"Imager's {who} and its password are not used on this tray: it has no user with "
            "a password (root, with an SSH key, is the way in)."
        )
    if wanted.password_ssh:
        said.append("Imager's SSH with a password is not used: the tray's SSH takes keys only.")
    if wanted.hidden:
        said.append("Imager's 'hidden network' is not used: the tray looks for the name.")
    if wanted.hostname and wanted.hostname != "tinker-tray":
        said.append(
            f"Imager's hostname '{wanted.hostname}' is not used: the tray stays "
            "tinker-tray.local, the name the phones open."
        )
    if wanted.locale:
        said.append("Imager's time zone and keyboard are not used: the tray has no login.")
    return said


def clean_cmdline(boot: Path) -> bool:
    """Imager's words out of cmdline.txt, as its own script's `sed` does. True if changed."""
    path = boot / CMDLINE
    if not path.exists():
        return False
    text = boot_settings.read_text(path)
    words = [
        word for word in text.split() if not word.startswith(IMAGER_WORDS) and word != IMAGER_UNIT
    ]
    if words == text.split():
        return False
    boot_settings.write_file(path, " ".join(words) + "\n", FAT_MODE)
    return True


def honour(boot: Path) -> list[str]:
    """Imager's firstrun.sh honoured (or refused in one sentence), then renamed."""
    path = boot / FIRSTRUN
    try:
        wanted = read_firstrun(boot_settings.read_text(path))
        said = [honour_wifi(boot, wanted.wifi)] if wanted.wifi else []
    except (ImagerError, boot_settings.SettingsError) as exc:
        said = [f"{exc}: Imager's settings were not used (the file is kept as {DONE})."]
    else:
        said += [honour_keys(boot, wanted.keys)] if wanted.keys else []
        said += refusals(wanted)
    os.replace(path, boot / DONE)
    return said


def run(boot: Path) -> list[str]:
    """Everything there is to do on this boot partition, as sentences."""
    said = []
    try:
        if (boot / FIRSTRUN).is_file():
            said += honour(boot)
        if clean_cmdline(boot):
            said.append(f"Imager's systemd.run words are out of {CMDLINE}.")
    except OSError as exc:
        said.append(f"Imager's settings: {exc.strerror or exc}: nothing more was changed.")
    return said


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    for line in run(Path(args[0])):
        print(f"tinker-tray: {line}")
    return 0  # the boot goes on whatever happened: the units after this one start the tray


if __name__ == "__main__":
    sys.exit(main())
