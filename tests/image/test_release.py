"""The release files beside the image (image/release.py, run by the build): SHA256SUMS that
sha256sum itself checks, and Raspberry Pi Imager's OS list whose sizes and sums are those of the
files, with the fields Imager's own schema requires; made here from a small fake image. And
`./tinker image build --help` lists every option the build takes."""

from __future__ import annotations

import hashlib
import json
import lzma
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RELEASE = ROOT / "image" / "release.py"
REQUIRED = {"name", "description", "icon", "url", "extract_size", "extract_sha256",
            "image_download_size", "release_date"}  # fmt: skip
"""What rpi-imager's doc/json-schema/os-list-schema.json requires of an OS entry."""


@pytest.fixture
def image(tmp_path: Path) -> Path:
    """A small fake image (not all zeros, so that xz has something to do) and its .img.xz."""
    img = tmp_path / "tinker-tray-v9-pi-arm64.img"
    img.write_bytes(os.urandom(64 * 1024) + bytes(2 * 1024 * 1024))
    with lzma.open(img.with_name(img.name + ".xz"), "wb", preset=1) as xz:  # as `xz -k -1`
        xz.write(img.read_bytes())
    return img


def _release(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, RELEASE, *args], capture_output=True, text=True)


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_sums_are_checked_by_sha256sum_itself(image):
    done = _release(image)
    assert done.returncode == 0, done.stderr
    check = subprocess.run(
        ["sha256sum", "-c", "SHA256SUMS"], cwd=image.parent, capture_output=True, text=True
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.splitlines() == [
        "tinker-tray-v9-pi-arm64.img: OK",
        "tinker-tray-v9-pi-arm64.img.xz: OK",
    ]


def test_the_imager_list_has_the_files_sizes_and_sums(image):
    url = "https://example.org/releases/v9/tinker-tray-v9-pi-arm64.img.xz"
    done = _release(image, "--url", url, "--date", "2026-11-28")
    assert done.returncode == 0, done.stderr
    listing = json.loads((image.parent / "tinker-tray.rpi-imager.json").read_text())
    (entry,) = listing["os_list"]
    xz = image.with_name(image.name + ".xz")
    assert set(entry) >= REQUIRED
    assert entry["url"] == url and entry["release_date"] == "2026-11-28"
    assert entry["extract_size"] == image.stat().st_size == 64 * 1024 + 2 * 1024 * 1024
    assert entry["extract_sha256"] == _sha(image)
    assert entry["image_download_size"] == xz.stat().st_size < image.stat().st_size
    assert entry["image_download_sha256"] == _sha(xz)
    assert entry["devices"] == ["pi3-64bit", "pi4-64bit"]  # Zero 2 W and Pi 3; Pi 4 and 400
    assert entry["init_format"] == "systemd"
    assert "v9-pi-arm64" in entry["name"]
    boards = {device["name"]: device["tags"] for device in listing["imager"]["devices"]}
    assert boards == {
        "Raspberry Pi Zero 2 W": ["pi3-64bit"],
        "Raspberry Pi 3": ["pi3-64bit"],
        "Raspberry Pi 4": ["pi4-64bit"],
    }  # Imager 2's "Choose Device" step is built from these: each offers the tray


def test_by_default_the_url_is_the_downloads_name_beside_the_list(image):
    assert _release(image).returncode == 0
    (entry,) = json.loads((image.parent / "tinker-tray.rpi-imager.json").read_text())["os_list"]
    assert entry["url"] == "tinker-tray-v9-pi-arm64.img.xz"


def test_without_the_xz_the_download_is_the_image_itself(image):
    image.with_name(image.name + ".xz").unlink()
    assert _release(image).returncode == 0
    (entry,) = json.loads((image.parent / "tinker-tray.rpi-imager.json").read_text())["os_list"]
    assert entry["url"] == image.name
    assert entry["image_download_size"] == entry["extract_size"]
    assert entry["image_download_sha256"] == entry["extract_sha256"] == _sha(image)
    sums = (image.parent / "SHA256SUMS").read_text()
    assert sums == f"{_sha(image)}  {image.name}\n"


def test_an_xz_that_does_not_hold_the_image_is_refused(image):
    """An older build's .img.xz beside a new .img: its list would make Imager refuse the card
    it wrote (extract_sha256), so no release files are written."""
    image.write_bytes(image.read_bytes()[:-1] + b"\1")  # the .img built again, one byte apart
    done = _release(image)
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert "tinker-tray-v9-pi-arm64.img.xz does not hold this" in done.stderr
    assert not (image.parent / "SHA256SUMS").exists()


def test_a_missing_image_is_one_sentence(tmp_path):
    done = _release(tmp_path / "nothing.img")
    assert done.returncode == 1
    assert done.stderr == (
        f"tinker image build: the release files were not written: there is no image at"
        f" {tmp_path / 'nothing.img'}.\n"
    )


def test_build_help_lists_every_option_the_build_takes():
    done = subprocess.run([ROOT / "tinker", "image", "build", "--help"], capture_output=True,
                          text=True)  # fmt: skip
    assert done.returncode == 0, done.stderr
    script = (ROOT / "image" / "build.sh").read_text()
    options = set(re.findall(r"^    (--[a-z-]+)\) ", script, re.MULTILINE))
    options |= set(re.findall(r"^    (--[a-z-]+)\|", script, re.MULTILINE))
    assert {"--board", "--origin", "--xz", "--trust", "--wifi-firmware", "--release-url"} <= options
    for option in options:
        assert re.search(rf"^  {option}\b", done.stdout, re.MULTILINE), option


def test_the_date_is_source_date_epochs_when_set(image):
    """A reproducible build's date (SOURCE_DATE_EPOCH), in UTC: 86,399 s is still 1 January."""
    env = dict(os.environ, SOURCE_DATE_EPOCH="86399")
    done = subprocess.run([sys.executable, RELEASE, image], capture_output=True, text=True,
                          env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    (entry,) = json.loads((image.parent / "tinker-tray.rpi-imager.json").read_text())["os_list"]
    assert entry["release_date"] == "1970-01-01"
