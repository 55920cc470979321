"""The card's layout from a small fake root (image/steps/card.sh, as the build runs it): the
partition table, the boot partition's files, the file systems' labels the image's fstab and
cmdline.txt mount by. Debian's own tools read it back (sfdisk, mtools, blkid): no loop device,
no mount, as in the build."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
IMAGE = ROOT / "image"
TOOLS = {"sfdisk": "fdisk", "mkfs.vfat": "dosfstools", "mcopy": "mtools", "mkfs.ext4": "e2fsprogs"}


def _need_tools() -> None:
    path = os.environ.get("PATH", "") + ":/usr/sbin:/sbin"
    missing = sorted({pkg for tool, pkg in TOOLS.items() if not shutil.which(tool, path=path)})
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {missing} are missing: .ci/run installs them")
        pytest.skip(f"no {missing} here (apt-get install {' '.join(missing)})")


@pytest.fixture(scope="module")
def card(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A card made from a fake root: a kernel and a device tree on /boot/firmware, a journal
    file on /var/lib/tinker-tray; the boot partition's family files from image/bootfs."""
    _need_tools()
    where = tmp_path_factory.mktemp("card")
    root = where / "root"
    (root / "boot" / "firmware" / "overlays").mkdir(parents=True)
    (root / "boot" / "firmware" / "vmlinuz").write_bytes(b"kernel" * 1000)
    (root / "boot" / "firmware" / "overlays" / "disable-bt.dtbo").write_bytes(b"dtbo")
    (root / "var" / "lib" / "tinker-tray").mkdir(parents=True)
    (root / "var" / "lib" / "tinker-tray" / "journal.sqlite3").write_bytes(b"journal")
    (root / "etc").mkdir()
    (root / "etc" / "hostname").write_text("tinker-tray\n")
    image = where / "tray.img"
    env = dict(os.environ, PATH=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")
    done = subprocess.run(
        [IMAGE / "steps" / "card.sh", root, IMAGE / "bootfs", image],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    return image, root


def _partitions(image: Path) -> list[dict]:
    done = subprocess.run(["sfdisk", "--json", image], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)["partitiontable"]["partitions"]


def test_three_partitions_boot_data_root_the_root_last_to_grow(card):
    image, _ = card
    boot, data, root = _partitions(image)
    assert boot["type"] == "c" and boot.get("bootable") is True  # FAT32 (LBA): the Pi's firmware
    assert boot["start"] == 4 * 2048  # 4 MiB: aligned for SD cards' erase blocks
    assert data["type"] == root["type"] == "83"
    assert (
        boot["start"] + boot["size"]
        <= data["start"]
        < data["start"] + data["size"]
        <= root["start"]
    )
    assert (root["start"] + root["size"]) * 512 == image.stat().st_size  # the root ends the image


def _labels(image: Path) -> list[str]:
    labels = []
    for part in _partitions(image):
        done = subprocess.run(
            [
                "blkid",
                "--probe",
                "--offset",
                str(part["start"] * 512),
                "-s",
                "LABEL",
                "-o",
                "value",
                image,
            ],
            capture_output=True,
            text=True,
        )
        labels.append(done.stdout.strip())
    return labels


def test_the_labels_are_those_fstab_and_cmdline_mount_by(card):
    if not shutil.which("blkid", path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin"):
        pytest.skip("no blkid here (util-linux)")
    image, _ = card
    labels = _labels(image)
    assert labels == ["TRAY-BOOT", "tray-data", "tray-root"]
    fstab = (IMAGE / "rootfs" / "etc" / "fstab").read_text()
    mounts = {
        line.split()[1]: line.split()[0] for line in fstab.splitlines() if line.startswith("LABEL=")
    }
    assert mounts == {
        "/": "LABEL=tray-root",
        "/boot/firmware": "LABEL=TRAY-BOOT",
        "/var/lib/tinker-tray": "LABEL=tray-data",
    }
    raspi = (IMAGE / "rootfs" / "etc" / "default" / "raspi-firmware").read_text()
    assert 'ROOTPART="LABEL=tray-root"' in raspi


def _boot_files(image: Path, folder: str = "::/") -> str:
    offset = _partitions(image)[0]["start"] * 512
    done = subprocess.run(
        ["mdir", "-b", "-i", f"{image}@@{offset}", folder],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def test_the_boot_partition_holds_the_boot_files_and_the_wifi_file(card):
    image, root = card
    files = _boot_files(image)
    assert "::/vmlinuz" in files and "::/tinker-tray-wifi.txt" in files
    assert "::/overlays/disable-bt.dtbo" in _boot_files(image, "::/overlays")
    assert (
        list((root / "boot" / "firmware").iterdir()) == []
    )  # the root keeps the mount point, empty
    assert list((root / "var" / "lib" / "tinker-tray").iterdir()) == []  # moved to tray-data
