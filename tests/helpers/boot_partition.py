"""A card for the image's boot-time programs (bootfiles/settings.py, bootfiles/imager): a boot
partition and a root in a temporary folder, and the Wi-Fi profile they leave, as NetworkManager
would read it."""

from __future__ import annotations

import configparser
from pathlib import Path

from bootfiles import settings as bs
from tests.helpers.service import ROOT


def make_card(tmp_path: Path) -> tuple[Path, Path]:
    """(boot, root): an empty boot partition, and a root with the tray's shipped pin map."""
    boot, root = tmp_path / "boot", tmp_path / "root"
    boot.mkdir()
    (root / "etc" / "tinker-tray").mkdir(parents=True)
    (root / bs.PINMAP).write_text((ROOT / "hardware" / "pinmap.toml").read_text())
    return boot, root


def read_profile(root: Path) -> configparser.ConfigParser:
    """The NetworkManager keyfile bootfiles.settings wrote under `root`."""
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string((root / bs.PROFILE).read_text())
    return parser
