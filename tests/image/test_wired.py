"""The image's wired network: its own NetworkManager profile, since trixie's automatic one left
qemu's USB network link-local (docs/image.md). The profile must be one NetworkManager reads (a
keyfile of mode 600 after the overlay step) and must take any wired device by DHCP."""

from __future__ import annotations

import configparser
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROFILE = "etc/NetworkManager/system-connections/tinker-tray-wired.nmconnection"


def overlaid(tmp_path: Path) -> Path:
    dest = tmp_path / "root"
    dest.mkdir()
    subprocess.run(
        [ROOT / "image" / "steps" / "overlay.sh", ROOT / "image" / "rootfs", dest], check=True
    )
    return dest


def test_the_overlay_leaves_every_keyfile_readable_by_root_alone(tmp_path):
    root = overlaid(tmp_path)
    keyfiles = sorted((root / PROFILE).parent.glob("*.nmconnection"))
    assert keyfiles and root / PROFILE in keyfiles
    for keyfile in keyfiles:
        assert keyfile.stat().st_mode & 0o777 == 0o600, keyfile.name


def test_the_wired_profile_takes_any_wired_device_by_dhcp(tmp_path):
    profile = configparser.ConfigParser(comment_prefixes=("#",))
    profile.read(overlaid(tmp_path) / PROFILE)
    connection = profile["connection"]
    assert connection["type"] == "ethernet"
    assert "interface-name" not in connection  # eth0 on a Pi 3 B or 4, usb0 in qemu, a dongle
    assert connection["autoconnect"] == "true"
    assert connection["multi-connect"] == "3"  # NetworkManager's "multiple": every such device
    assert profile["ipv4"]["method"] == "auto"
