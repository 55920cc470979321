"""Imager's firstrun.sh (Imager 1.6 to 2.0) read as data: only the lines that carry a setting
are split as the shell would split them; nothing is run.

Imager 1.6 wrote the script for every image; 1.7 to 1.9 for a custom image whose boot partition
has an issue.txt naming pi-gen (Raspberry Pi OS's, not this image's); 2.x for an image its OS
list marks "systemd" (a local list made with Imager's create_local_json.py) or with
`rpi-imager --cli --first-run-script`.
"""

from __future__ import annotations

import re
import shlex

from bootfiles.imager import Customisation, ImagerError, check_keys, check_wifi
from bootfiles.wifi import WIFI_FILE, Wifi

FIRSTRUN = "firstrun.sh"


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
                f"{FIRSTRUN}: the network's name is not UTF-8 text: write it in {WIFI_FILE} instead"
            ) from None
    return value[1:-1] if len(value) >= 2 and value[0] == value[-1] == '"' else value


def _wifi(lines: list[str]) -> tuple[Wifi | None, bool]:
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
    wifi = check_wifi(FIRSTRUN, Wifi(ssid, password, country))
    return wifi, settings.get("scan_ssid") == "1"


def _user(lines: list[str], text: str) -> tuple[str | None, bool]:
    """(the user Imager names, whether with a password): userconf NAME HASH from 1.7 (Imager 2
    names 'pi' with no password when it has only keys), 1.6's `chpasswd -e` for user 1000."""
    named = _command(lines, "/usr/lib/userconf-pi/userconf")
    if named:
        return named[0], len(named) > 1 and bool(named[1])
    return ("", True) if "chpasswd -e" in text else (None, False)


def read(text: str) -> Customisation:
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
    # [ \t]*, not \s*: \s matches newlines, and 60 KB of them took quadratic time
    hostname = re.search(r"^[ \t]*echo (\S+) >/etc/hostname$", text, re.MULTILINE)
    user, user_password = _user(lines, text)
    return Customisation(
        wifi=wifi,
        hidden=hidden,
        keys=check_keys(FIRSTRUN, keys),
        user=user,
        user_password=user_password,
        password_ssh=not keys and (ssh == [] or (ssh is None and "systemctl enable ssh" in text)),
        hostname=hostname.group(1) if hostname else "",
        locale="/etc/timezone" in text or "KBEOF" in text,
    )
