"""Imager's cloud-init customisation (user-data, network-config on the boot partition) read as
data; the image has no cloud-init, so nothing else reads them.

Imager 1.7 to 1.9 writes these, not firstrun.sh, for a "Use custom" image whose boot partition
has no issue.txt naming pi-gen, as this image's has none (DownloadThread::_customizeImage, init
format "auto"), and appends cfg80211.ieee80211_regdom=XX (the Wi-Fi country) to cmdline.txt;
Imager 2.x writes them (with meta-data, the country in network-config) for an image its OS list
marks "cloudinit". YAML by Debian's python3-yaml (image/packages.txt; the image's venv sees the
system's packages, as on any Pi), imported only when such a file is there: a card made before it
was in the image, and updated since (`tinker-tray update` installs no Debian package), still
reads firstrun.sh, and says in a sentence what it lacks for these.
"""

from __future__ import annotations

from typing import Any

from bootfiles import settings as boot_settings
from bootfiles.imager import Customisation, ImagerError, check_wifi

USER_DATA = "user-data"
NETWORK_CONFIG = "network-config"


def _mapping(text: str, name: str) -> dict[str, Any]:
    """A cloud-init file's settings, or ImagerError naming its line."""
    try:
        import yaml
    except ImportError:
        raise ImagerError(
            f"{name}: cannot be read on this card (it lacks Debian's python3-yaml: "
            "apt install python3-yaml)"
        ) from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise ImagerError(f"{name}: is not YAML{where}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ImagerError(f"{name}: holds no settings (lines such as name: value)")
    return data


def _ssid(name: str) -> str:
    """Imager 2 writes each byte of a name that is not ASCII as \\xHH, which YAML reads as one
    character per byte; Imager 1 writes the name as UTF-8 text. Either way, the name."""
    try:
        return name.encode("latin-1").decode()
    except (UnicodeEncodeError, UnicodeDecodeError):
        return name


def _wifi(network: dict[str, Any], regdom: str) -> tuple[boot_settings.Wifi | None, bool]:
    """The first access point of network-config (netplan's version 2, Imager 2 under network:),
    its country from there or else from cmdline.txt: (Wi-Fi, hidden)."""
    network = network.get("network", network)
    wifis = network.get("wifis") if isinstance(network, dict) else None
    for device in (wifis or {}).values() if isinstance(wifis, dict) else ():
        points = device.get("access-points") if isinstance(device, dict) else None
        for ssid, point in (points or {}).items() if isinstance(points, dict) else ():
            point = point if isinstance(point, dict) else {}
            country = str(device.get("regulatory-domain") or regdom).strip().upper()
            wifi = boot_settings.Wifi(_ssid(str(ssid)), str(point.get("password", "")), country)
            return check_wifi(NETWORK_CONFIG, wifi), point.get("hidden") is True
    return None, False


def _users(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Imager 1's users: list, Imager 2's user: (cloud-init's "default" entries left out)."""
    users: list[Any] = data["users"] if isinstance(data.get("users"), list) else []
    one: list[Any] = [data["user"]] if isinstance(data.get("user"), dict) else []
    return [user for user in users + one if isinstance(user, dict)]


def read(user_data: str, network_config: str, regdom: str = "") -> Customisation:
    """Both files as data ("" for one that is not there), or ImagerError in one sentence."""
    data = _mapping(user_data, USER_DATA)
    wifi, hidden = _wifi(_mapping(network_config, NETWORK_CONFIG), regdom)
    users = _users(data)
    keys = [key for user in users for key in user.get("ssh_authorized_keys") or []]
    keys += data.get("ssh_authorized_keys") or []
    passwords = ("passwd", "hashed_passwd", "plain_text_passwd")
    return Customisation(
        wifi=wifi,
        hidden=hidden,
        keys=[str(key).strip() for key in keys if str(key).strip()],
        user=str(users[0].get("name", "")) if users else None,
        user_password=any(user.get(word) for user in users for word in passwords),
        password_ssh=data.get("ssh_pwauth") is True,
        hostname=str(data.get("hostname") or ""),
        locale="timezone" in data or "keyboard" in data,
    )
