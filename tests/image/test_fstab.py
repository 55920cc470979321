"""The card's mounts as systemd's own fstab generator makes them: only the root may stop the
boot. A boot or data partition slow to appear (or gone) must never fail local-fs.target, which
drops the Pi into emergency mode with no network and no page; the tray waits for its data
partition instead (its unit's StateDirectory requires that mount)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = Path("/usr/lib/systemd/system-generators/systemd-fstab-generator")
BOOT, DATA = "boot-firmware.mount", r"var-lib-tinker\x2dtray.mount"


@pytest.fixture
def generated(tmp_path: Path) -> Path:
    if not GENERATOR.exists():
        if os.environ.get("CI"):
            pytest.fail("CI=true but systemd-fstab-generator is missing: .ci/run installs systemd")
        pytest.skip("no systemd-fstab-generator here (apt-get install systemd)")
    out = tmp_path / "generated"
    out.mkdir()
    env = {
        "SYSTEMD_FSTAB": str(ROOT / "image" / "rootfs" / "etc" / "fstab"),
        "SYSTEMD_PROC_CMDLINE": "root=LABEL=tray-root rw fsck.repair=yes",
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
    }
    subprocess.run([GENERATOR, out, out, out], check=True, env=env)
    return out


def test_only_the_root_is_required_for_local_file_systems(generated):
    required = {p.name for p in (generated / "local-fs.target.requires").iterdir()}
    wanted = {p.name for p in (generated / "local-fs.target.wants").iterdir()}
    assert BOOT not in required and DATA not in required
    assert {BOOT, DATA} <= wanted


def test_boot_and_data_devices_are_waited_for_ten_minutes(generated):
    for label in ("TRAY\\x2dBOOT", "tray\\x2ddata"):
        device = generated / f"dev-disk-by\\x2dlabel-{label}.device.d"
        timeouts = "".join(f.read_text() for f in device.glob("*.conf"))
        assert "JobRunningTimeoutSec=10min" in timeouts, label
