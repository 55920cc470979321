"""Wi-Fi and the table's settings from the SD card's boot partition, read at every boot by the
image's tinker-tray-settings.service, before the network and the tray start.

The boot partition is FAT: any computer can edit it, so it is where a family without a keyboard
on the Pi writes what the tray needs (docs/image.md):
  tinker-tray-wifi.txt       country, ssid, password: becomes a NetworkManager profile
  tinker-tray-settings.txt   the pin map and settings (hardware/pinmap.toml's format): becomes
                             /etc/tinker-tray/pinmap.toml
A file with a mistake changes nothing (the last good Wi-Fi profile and settings stay) and is
reported in one sentence on the HDMI screen (the console and the login banner) and in the
journal; the program always exits 0, so the tray starts all the same.

    python -m bootfiles.settings BOOT_DIR ROOT_DIR
"""

from __future__ import annotations

import os
import sys
import tomllib
import uuid
from dataclasses import dataclass
from pathlib import Path

from tray import config as tray_config

WIFI_FILE = "tinker-tray-wifi.txt"
SETTINGS_FILE = "tinker-tray-settings.txt"
PROFILE = "etc/NetworkManager/system-connections/tinker-tray-wifi.nmconnection"
REGULATORY = "etc/modprobe.d/tinker-tray-wifi.conf"
PINMAP = "etc/tinker-tray/pinmap.toml"
ISSUE = "etc/issue.d/tinker-tray-settings.issue"
"""The login banner's part (agetty reads /etc/issue.d): the problems, until they are fixed."""
WIFI_KEYS = ("country", "ssid", "password")
MAX_BYTES = 64 * 1024


class SettingsError(ValueError):
    """A boot-partition file that cannot be used, as one sentence naming the file."""


@dataclass(frozen=True)
class Wifi:
    ssid: str
    password: str
    """"" for an open network."""
    country: str
    """Two letters (ISO 3166), or "" to keep the kernel's world setting."""


def read_wifi(text: str, source: str = WIFI_FILE) -> Wifi | None:
    """The Wi-Fi file's network; None when it names none (ssid left empty). SettingsError."""
    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(
            f'{source}: {exc}: write each setting as name = "value", in double quotes'
        ) from None
    unknown = sorted(set(data) - set(WIFI_KEYS))
    if unknown:
        raise SettingsError(
            f"{source}: '{unknown[0]}' is not a Wi-Fi setting (the file takes country, ssid "
            "and password)"
        )
    for key, value in data.items():
        if not isinstance(value, str):
            raise SettingsError(
                f'{source}: {key} must be text in double quotes, like {key} = "..."'
            )
    ssid, password = data.get("ssid", ""), data.get("password", "")
    country = data.get("country", "").strip().upper()
    if not ssid:
        return None
    check_wifi(source, ssid, password, country)
    return Wifi(ssid, password, country)


def check_wifi(source: str, ssid: str, password: str, country: str) -> None:
    """A network NetworkManager can take, or SettingsError naming `source` (bootfiles/imager
    checks Raspberry Pi Imager's network with it too)."""
    if len(ssid.encode()) > 32:
        raise SettingsError(
            f"{source}: the ssid has {len(ssid.encode())} bytes; a network's name has at most 32"
        )
    if any(ord(c) < 32 or ord(c) == 127 for c in ssid + password):
        raise SettingsError(f"{source}: the ssid and the password cannot hold control characters")
    hex_key = len(password) == 64 and all(c in "0123456789abcdefABCDEF" for c in password)
    if password and not hex_key and not 8 <= len(password) <= 63:
        raise SettingsError(
            f"{source}: the password has {len(password)} characters; a WPA password has 8 to "
            '63 (or write password = "" for an open network)'
        )
    if password and not password.isascii():
        raise SettingsError(f"{source}: the password can only hold plain (ASCII) characters")
    if country and not (len(country) == 2 and country.isascii() and country.isalpha()):
        raise SettingsError(
            f'{source}: country must be two letters, like "GB" or "US" (not "{country}")'
        )


def _keyfile_ssid(ssid: str) -> str:
    """The SSID as NetworkManager's keyfile reads it: plain text when it is plain, else its bytes
    as a list (`72;105;`), which no character can confuse."""
    plain = ssid.isascii() and ssid.isprintable() and ssid == ssid.strip()
    if plain and not any(c in ssid for c in ";\\#"):
        return ssid
    return "".join(f"{byte};" for byte in ssid.encode())


def profile_text(wifi: Wifi) -> str:
    """The NetworkManager keyfile for the network (a stable id: the same file, the same uuid)."""
    security = ""
    if wifi.password:
        psk = wifi.password.replace("\\", "\\\\")
        psk = "\\s" + psk[1:] if psk.startswith(" ") else psk
        security = f"\n[wifi-security]\nkey-mgmt=wpa-psk\npsk={psk}\n"
    name = uuid.uuid5(uuid.NAMESPACE_URL, "tinker-tray-wifi:" + wifi.ssid)
    return (
        f"# Made from the boot partition's {WIFI_FILE} at boot (bootfiles/settings.py).\n"
        f"[connection]\nid=tinker-tray-wifi\nuuid={name}\ntype=wifi\nautoconnect=true\n\n"
        f"[wifi]\nmode=infrastructure\nssid={_keyfile_ssid(wifi.ssid)}\n{security}\n"
        "[ipv4]\nmethod=auto\n\n[ipv6]\nmethod=auto\n"
    )


def write_file(path: Path, text: str, mode: int = 0o644) -> bool:
    """Write `text` to `path` unless it is there already; atomically (a power cut leaves the
    old file or the new), synced. True when it changed."""
    try:
        if path.read_text() == text:
            return False
    except (OSError, UnicodeDecodeError):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".new")
    with open(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode), "w") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())
    os.chmod(temporary, mode)
    os.replace(temporary, path)
    return True


def read_text(path: Path) -> str:
    """A boot-partition file as text (UTF-8, at most 64 KB), or SettingsError in one sentence."""
    with open(path, "rb") as file:
        data = file.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise SettingsError(f"{path.name}: is over 64 KB: not a settings file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise SettingsError(f"{path.name}: is not UTF-8 text (save it as UTF-8)") from None


def apply_wifi(boot: Path, root: Path) -> str:
    """The Wi-Fi file as a profile (none named: the profile removed). What happened, a line."""
    wifi = read_wifi(read_text(boot / WIFI_FILE))
    if wifi is None:
        (root / PROFILE).unlink(missing_ok=True)
        return f"{WIFI_FILE} names no network (ssid is empty): no Wi-Fi."
    changed = write_file(root / PROFILE, profile_text(wifi), 0o600)
    if wifi.country:
        write_file(root / REGULATORY, f"options cfg80211 ieee80211_regdom={wifi.country}\n")
    return f"Wi-Fi: '{wifi.ssid}'{' (new)' if changed else ''}."


def apply_settings(boot: Path, root: Path) -> str:
    """The settings file, checked as the tray checks it, as /etc/tinker-tray/pinmap.toml."""
    text = read_text(boot / SETTINGS_FILE)
    try:
        tray_config.parse(text, source=SETTINGS_FILE)
    except tray_config.ConfigError as exc:
        problems = "; ".join(str(exc).splitlines())
        raise SettingsError(f"{problems} (the tray keeps its previous settings)") from None
    changed = write_file(root / PINMAP, text)
    return f"Settings: {SETTINGS_FILE}{' (new)' if changed else ''}."


def run(boot: Path, root: Path) -> tuple[list[str], list[str]]:
    """Apply each file that is there: (what was done, the problems, one sentence each)."""
    done: list[str] = []
    problems: list[str] = []
    for name, apply in ((WIFI_FILE, apply_wifi), (SETTINGS_FILE, apply_settings)):
        if not (boot / name).is_file():
            continue
        try:
            done.append(apply(boot, root))
        except SettingsError as exc:
            problems.append(f"{exc}: nothing was changed.")
        except OSError as exc:
            problems.append(f"{name}: {exc.strerror or exc}: nothing was changed.")
    return done, problems


def banner(problems: list[str]) -> str:
    """The login banner's part for the problems (agetty escapes its backslashes)."""
    lines = ["  The SD card's settings need a fix:", *(f"  - {p}" for p in problems)]
    return "\n".join(line.replace("\\", "\\\\") for line in lines) + "\n\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    boot, root = Path(args[0]), Path(args[1])
    done, problems = run(boot, root)
    for line in done:
        print(f"tinker-tray: {line}")
    for line in problems:
        print(f"tinker-tray: {line}")
    try:
        if problems:
            write_file(root / ISSUE, banner(problems))
        else:
            (root / ISSUE).unlink(missing_ok=True)
    except OSError as exc:
        print(f"tinker-tray: the login banner could not be written: {exc.strerror}")
    return 0  # the tray starts all the same: its own settings check decides about its pins


if __name__ == "__main__":
    sys.exit(main())
