"""The tray's Wi-Fi file (tinker-tray-wifi.txt: country, ssid, password, in TOML) and the
NetworkManager profile made of it. Raspberry Pi Imager's network is checked here too
(bootfiles/imager), so both ways to give the tray a network take the same networks."""

from __future__ import annotations

import tomllib
import uuid
from dataclasses import dataclass

from bootfiles.card import Refused
from bootfiles.shown import quoted

WIFI_FILE = "tinker-tray-wifi.txt"
WIFI_KEYS = ("country", "ssid", "password")


@dataclass(frozen=True)
class Wifi:
    ssid: str
    password: str
    """"" for an open network."""
    country: str
    """Two letters (ISO 3166), or "" to keep the kernel's world setting."""


def read_wifi(text: str, source: str = WIFI_FILE) -> Wifi | None:
    """The Wi-Fi file's network; None when it names none (ssid left empty). Refused."""
    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except RecursionError:  # tomllib recurses once per nested bracket or brace
        raise Refused(
            f"{source}: has brackets or braces nested hundreds deep: the file takes three "
            'lines, name = "value"'
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise Refused(
            f'{source}: {exc}: write each setting as name = "value", in double quotes'
        ) from None
    unknown = sorted(set(data) - set(WIFI_KEYS))
    if unknown:
        raise Refused(
            f"{source}: '{quoted(unknown[0])}' is not a Wi-Fi setting (the file takes country, "
            "ssid and password)"
        )
    for key, value in data.items():
        if not isinstance(value, str):
            raise Refused(f'{source}: {key} must be text in double quotes, like {key} = "..."')
    ssid, password = data.get("ssid", ""), data.get("password", "")
    country = data.get("country", "").strip().upper()
    if not ssid:
        return None
    check_wifi(source, ssid, password, country)
    return Wifi(ssid, password, country)


def check_wifi(source: str, ssid: str, password: str, country: str) -> None:
    """A network NetworkManager can take, or Refused naming `source`."""
    if len(ssid.encode()) > 32:
        raise Refused(
            f"{source}: the ssid has {len(ssid.encode())} bytes; a network's name has at most 32"
        )
    if any(ord(c) < 32 or ord(c) == 127 for c in ssid + password):
        raise Refused(f"{source}: the ssid and the password cannot hold control characters")
    hex_key = len(password) == 64 and all(c in "0123456789abcdefABCDEF" for c in password)
    if password and not hex_key and not 8 <= len(password) <= 63:
        raise Refused(
            f"{source}: the password has {len(password)} characters; a WPA password has 8 to "
            '63 (or write password = "" for an open network)'
        )
    if password and not password.isascii():
        raise Refused(f"{source}: the password can only hold plain (ASCII) characters")
    if country and not (len(country) == 2 and country.isascii() and country.isalpha()):
        raise Refused(
            f'{source}: country must be two letters, like "GB" or "US" (not "{quoted(country)}")'
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
