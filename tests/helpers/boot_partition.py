"""A card for the image's boot-time programs (bootfiles/settings.py, bootfiles/imager): a boot
partition and a root in a temporary folder, the Wi-Fi profile they leave, as NetworkManager
would read it, and one boot's readers run as the units run them."""

from __future__ import annotations

import configparser
import os
import resource
import subprocess
import sys
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


MEMORY_CAP = 256 * 1024 * 1024
"""Bytes of address space a reader may take: half a Zero 2 W's memory."""
TIME_LIMIT = 20
UNITS = ("bootfiles.imager", "bootfiles.settings")
"""The readers in the order of their units: Imager's settings, then the tray's settings."""


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def boot_as_the_units_do(boot: Path, root: Path) -> list[subprocess.CompletedProcess[bytes]]:
    """One boot's readers, each run as its unit runs it (`python -m ...`, a bare environment in
    the POSIX locale), under a 256 MB address-space cap and a 20 s limit (past it the test
    fails with TimeoutExpired)."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    return [
        subprocess.run(
            [sys.executable, "-m", module, str(boot), str(root)],
            capture_output=True,
            timeout=TIME_LIMIT,
            preexec_fn=_capped,
            cwd=ROOT,
            env=env,
        )
        for module in UNITS
    ]
