"""The image's own units (image/rootfs/etc/systemd/system) through systemd's own check
(`systemd-analyze verify`), with /opt/tinker-tray read as this checkout (as install does for the
tray's unit), and the order they promise: settings before the network and the tray."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "image" / "rootfs" / "etc" / "systemd" / "system"
NAMES = [
    "tinker-tray-settings.service",
    "tinker-tray-growfs.service",
    "tinker-tray-ssh.service",
    "tinker-tray-imager.service",
    "tinker-tray-restore.service",
]


@pytest.mark.parametrize("name", NAMES)
def test_the_unit_passes_systemd_analyze_verify(tmp_path, name):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but systemd-analyze is missing: .ci/run installs systemd")
        pytest.skip("no systemd-analyze here (apt-get install systemd)")
    text = (UNITS / name).read_text()
    text = text.replace("/opt/tinker-tray/.venv/bin/python", sys.executable)
    text = text.replace("/opt/tinker-tray", str(ROOT))
    (tmp_path / name).write_text(text)
    done = subprocess.run([analyze, "verify", str(tmp_path / name)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert name not in done.stderr, done.stderr  # no warning about the unit itself


def test_settings_come_before_the_network_and_the_tray_and_growfs_only_once():
    settings = (UNITS / "tinker-tray-settings.service").read_text()
    assert "Before=NetworkManager.service tinker-tray.service" in settings
    assert "StandardOutput=journal+console" in settings  # the HDMI screen shows its sentences
    assert "ConditionFirstBoot=yes" in (UNITS / "tinker-tray-growfs.service").read_text()
    ssh = (UNITS / "tinker-tray-ssh.service").read_text()
    assert "ConditionPathExists=/boot/firmware/authorized_keys" in ssh


def test_a_backup_on_the_card_never_keeps_the_tray_from_starting():
    """The restore is ordered before the tray, so it must end: a time limit of its own (the
    check stops itself at 30 s), and the tray's unit waits for it without needing it."""
    restore = (UNITS / "tinker-tray-restore.service").read_text()
    assert "Before=tinker-tray.service" in restore
    assert "TimeoutStartSec=3min" in restore
    tray = (ROOT / "hardware" / "tinker-tray.service").read_text()
    assert "tinker-tray-restore" not in tray  # neither Requires= nor BindsTo= it


def test_the_onboard_programs_are_executable():
    for program in (ROOT / "image" / "onboard").iterdir():
        assert os.access(program, os.X_OK), program


def test_a_cards_first_boot_enables_nothing(tmp_path):
    """systemd applies the presets on a card's first boot; with Debian's (none: enable all),
    ssh.service was enabled there and SSH opened on a card without a key. The image's preset
    file (image/rootfs) makes that boot enable nothing; what the image enabled stays."""
    systemctl = shutil.which("systemctl")
    if systemctl is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but systemctl is missing: .ci/run installs systemd")
        pytest.skip("no systemctl here (apt-get install systemd)")
    units = tmp_path / "usr" / "lib" / "systemd" / "system"
    units.mkdir(parents=True)
    for name in ("ssh.service", "systemd-networkd.service", "tinker-tray.service"):
        (units / name).write_text(
            "[Service]\nExecStart=/bin/true\n[Install]\nWantedBy=multi-user.target\n"
        )
    presets = tmp_path / "etc" / "systemd" / "system-preset"
    presets.mkdir(parents=True)
    ours = ROOT / "image" / "rootfs" / "etc" / "systemd" / "system-preset"
    for preset in ours.iterdir():
        (presets / preset.name).write_text(preset.read_text())
    wants = tmp_path / "etc" / "systemd" / "system" / "multi-user.target.wants"
    wants.mkdir(parents=True)
    (wants / "tinker-tray.service").symlink_to("/usr/lib/systemd/system/tinker-tray.service")
    done = subprocess.run(
        [systemctl, f"--root={tmp_path}", "preset-all", "--preset-mode=enable-only"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in wants.iterdir()) == ["tinker-tray.service"]
