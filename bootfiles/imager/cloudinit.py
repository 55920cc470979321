"""Imager's cloud-init customisation (user-data, network-config on the boot partition) read as
data; the image has no cloud-init, so nothing else reads them.

Imager 1.7 to 1.9 writes these, not firstrun.sh, for a "Use custom" image whose boot partition
has no issue.txt naming pi-gen, as this image's has none (DownloadThread::_customizeImage, init
format "auto"), and appends cfg80211.ieee80211_regdom=XX (the Wi-Fi country) to cmdline.txt;
Imager 2.x writes them (with meta-data, the country in network-config) for an image its OS list
marks "cloudinit". YAML by Debian's python3-yaml (image/packages.txt; the image's venv sees the
system's packages, as on any Pi), imported only when such a file is there: a card made before it
was in the image, and updated since (`tinker-tray update` installs no Debian package), still
reads firstrun.sh, and says in a sentence what it lacks for these. The YAML is read bounded
(yaml_bounded.py) and each value taken only in its shape (shapes.py).
"""

from __future__ import annotations

from typing import Any

from bootfiles.imager import Customisation, ImagerError, check_keys, check_wifi, shapes
from bootfiles.shown import quoted
from bootfiles.wifi import Wifi

USER_DATA = "user-data"
NETWORK_CONFIG = "network-config"
PASSWORDS = ("passwd", "hashed_passwd", "plain_text_passwd")


def _mapping(text: str, name: str) -> dict[Any, Any]:
    """A cloud-init file's settings, or ImagerError naming its line."""
    try:
        from bootfiles.imager import yaml_bounded
    except ImportError:
        raise ImagerError(
            f"{name}: cannot be read on this card (it lacks Debian's python3-yaml: "
            "apt install python3-yaml)"
        ) from None
    data = yaml_bounded.load(text, name)
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


def _wifi(network: dict[Any, Any], regdom: str) -> tuple[Wifi | None, bool]:
    """The first access point of network-config (netplan's version 2, Imager 2 under network:),
    its country from there or else from cmdline.txt: (Wi-Fi, hidden)."""
    source = NETWORK_CONFIG
    network = shapes.mapping(network.get("network", network), source, "network")
    wifis = shapes.mapping(network.get("wifis"), source, "wifis")
    for name, device in wifis.items():
        if name == "renderer":  # netplan's `renderer: networkd`, as Imager 1 writes it
            continue
        device = shapes.mapping(device, source, f"the Wi-Fi device '{quoted(str(name))}'")
        points = shapes.mapping(device.get("access-points"), source, "access-points")
        for ssid, point in points.items():
            if not isinstance(ssid, str):
                raise ImagerError(
                    f"{source}: a network's name under access-points must be text in quotes, "
                    f"not {shapes.kind(ssid)}"
                )
            point = shapes.mapping(point, source, f"the network '{quoted(ssid)}'")
            country = shapes.text(device.get("regulatory-domain"), source, "regulatory-domain")
            password = shapes.text(point.get("password"), source, "password")
            hidden = shapes.flag(point.get("hidden"), source, "hidden")
            wifi = Wifi(_ssid(ssid), password, (country or regdom).strip().upper())
            return check_wifi(source, wifi), hidden
    return None, False


def _users(data: dict[Any, Any]) -> list[dict[Any, Any]]:
    """Imager 1's users: list, Imager 2's user: (cloud-init's "default" entries, text, left
    out; a user given as text is only a name)."""
    users = data.get("users")
    if users is not None and not isinstance(users, list):
        raise ImagerError(f"{USER_DATA}: users must be a list, not {shapes.kind(users)}")
    found = []
    for user in users or []:
        if isinstance(user, dict):
            found.append(user)
        elif not isinstance(user, str):
            raise ImagerError(f"{USER_DATA}: a user must be a mapping, not {shapes.kind(user)}")
    one = data.get("user")
    if isinstance(one, str | dict):
        found.append({"name": one} if isinstance(one, str) else one)
    elif one is not None:
        raise ImagerError(f"{USER_DATA}: user must be a mapping, not {shapes.kind(one)}")
    return found


def read(user_data: str, network_config: str, regdom: str = "") -> Customisation:
    """Both files as data ("" for one that is not there), or ImagerError in one sentence."""
    data = _mapping(user_data, USER_DATA)
    wifi, hidden = _wifi(_mapping(network_config, NETWORK_CONFIG), regdom)
    users = _users(data)
    where = "ssh_authorized_keys"
    keys = [key for user in users for key in shapes.keys(user.get(where), USER_DATA, where)]
    keys += shapes.keys(data.get(where), USER_DATA, where)
    names = [shapes.text(user.get("name"), USER_DATA, "a user's name") for user in users]
    return Customisation(
        wifi=wifi,
        hidden=hidden,
        keys=check_keys(USER_DATA, keys),
        user=names[0] if users else None,
        user_password=any(user.get(word) for user in users for word in PASSWORDS),
        password_ssh=data.get("ssh_pwauth") is True,
        hostname=shapes.text(data.get("hostname"), USER_DATA, "hostname"),
        locale="timezone" in data or "keyboard" in data,
    )
