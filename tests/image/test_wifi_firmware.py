"""The Zero 2 W's BCM43430/2 Wi-Fi from Raspberry Pi OS's firmware package
(`./tinker image build --wifi-firmware SOURCE`, image/steps/wifi-firmware.sh), with a stand-in
package made here by dpkg-deb: files of our own content, their sums given to the step as the
recipe's table would be. The step lays out the files and the names the kernel asks for, with the
licence; a file whose sum differs is refused in one sentence; a build without the option says
which boards will have no Wi-Fi."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STEP = ROOT / "image" / "steps" / "wifi-firmware.sh"
SUMS = ROOT / "image" / "steps" / "wifi-firmware.sha256"
CHECK = ROOT / "image" / "steps" / "board-check.sh"
BOARD = ROOT / "image" / "boards" / "pi-arm64"
FILES = [
    "brcmfmac43436-sdio.bin",
    "brcmfmac43436-sdio.clm_blob",
    "brcmfmac43436-sdio.txt",
    "brcmfmac43436s-sdio.bin",
    "brcmfmac43436s-sdio.txt",
]
ASKED = "brcmfmac43430b0-sdio.raspberrypi,model-zero-2-w"
"""The name Debian's kernel (brcmfmac) asks for on a Zero 2 W whose chip is a BCM43430/2."""


def _board(variable: str) -> str:
    done = subprocess.run(
        ["sh", "-c", f'. "$1"; printf "%s" "${variable}"', "sh", BOARD],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return done.stdout


def _package_tree(where: Path) -> Path:
    """The package's files as Raspberry Pi OS lays them out, each file's content its own."""
    tree = where / "pkg"
    brcm = tree / "usr" / "lib" / "firmware" / "brcm"
    brcm.mkdir(parents=True)
    for name in FILES:
        (brcm / name).write_bytes(f"stand-in firmware {name}\n".encode() * 50)
    (brcm / "brcmfmac43455-sdio.bin").write_bytes(b"another chip's file, not taken")
    doc = tree / "usr" / "share" / "doc" / "firmware-brcm80211"
    doc.mkdir(parents=True)
    (doc / "copyright").write_text("Files: *43436*\nLicense: Synaptics (stand-in)\n")
    return tree


def _sums(tree: Path, where: Path) -> Path:
    """The recipe's table for the stand-in files, in the recipe's own format."""
    brcm = tree / "usr" / "lib" / "firmware" / "brcm"
    lines = ["# the stand-in package's sums"]
    for name in FILES:
        lines.append(f"{hashlib.sha256((brcm / name).read_bytes()).hexdigest()}  {name}")
    sums = where / "sums.sha256"
    sums.write_text("\n".join(lines) + "\n")
    return sums


@pytest.fixture
def package(tmp_path: Path) -> tuple[Path, Path]:
    """A stand-in firmware-brcm80211 .deb and the sums of its files."""
    if not shutil.which("dpkg-deb"):
        pytest.skip("no dpkg-deb here (Debian's dpkg)")
    tree = _package_tree(tmp_path)
    (tree / "DEBIAN").mkdir()
    (tree / "DEBIAN" / "control").write_text(
        "Package: firmware-brcm80211\nVersion: 1:20230625-2+rpt2\nArchitecture: all\n"
        "Maintainer: stand-in <nobody@example.org>\nDescription: a stand-in for the test\n"
    )
    deb = tmp_path / "firmware-brcm80211_stand-in_all.deb"
    subprocess.run(
        ["dpkg-deb", "--root-owner-group", "-b", tree, deb], capture_output=True, check=True
    )
    return deb, _sums(tree, tmp_path)


def _step(dest: Path, source: Path, sums: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["sh", STEP, dest, source, sums], capture_output=True, text=True)


def test_the_package_gives_the_files_and_the_names_the_kernel_asks_for(package, tmp_path):
    deb, sums = package
    dest = tmp_path / "extra"
    done = _step(dest, deb, sums)
    assert done.returncode == 0, done.stderr
    brcm = dest / "usr" / "lib" / "firmware" / "brcm"
    for name in FILES:
        assert (brcm / name).is_file() and not (brcm / name).is_symlink()
    for suffix in ("bin", "txt", "clm_blob"):
        asked = brcm / f"{ASKED}.{suffix}"
        assert asked.is_symlink() and os.readlink(asked) == f"brcmfmac43436-sdio.{suffix}"
        assert asked.read_bytes() == (brcm / f"brcmfmac43436-sdio.{suffix}").read_bytes()
    assert not (brcm / "brcmfmac43455-sdio.bin").exists()  # Debian's own, not taken
    licence = dest / "usr" / "share" / "doc" / "tinker-tray-wifi-firmware" / "copyright"
    assert "Synaptics" in licence.read_text()


def test_a_folder_with_the_files_does_the_same(tmp_path):
    tree = _package_tree(tmp_path)
    done = _step(tmp_path / "extra", tree, _sums(tree, tmp_path))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "extra" / "usr/lib/firmware/brcm" / f"{ASKED}.bin").exists()


def test_a_file_whose_sum_differs_is_refused_in_one_sentence(package, tmp_path):
    deb, sums = package
    text = sums.read_text().splitlines()
    text[1] = "0" * 64 + text[1][64:]  # the recipe expects other content for the first file
    sums.write_text("\n".join(text) + "\n")
    done = _step(tmp_path / "extra", deb, sums)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1
    assert f"{FILES[0]}'s SHA-256 is " in done.stderr and done.stderr.endswith("refused.\n")


def test_a_link_in_the_source_is_not_taken_for_the_file(tmp_path):
    """A folder whose firmware file is a link (to a file outside it, here one with the right
    content): only regular files are taken, so the file is missing, in one sentence."""
    tree = _package_tree(tmp_path)
    sums = _sums(tree, tmp_path)
    brcm = tree / "usr" / "lib" / "firmware" / "brcm"
    outside = tmp_path / "outside.bin"
    (brcm / FILES[0]).rename(outside)
    (brcm / FILES[0]).symlink_to(outside)
    done = _step(tmp_path / "extra", tree, sums)
    assert done.returncode == 1 and f"it has no {FILES[0]}" in done.stderr


def test_a_source_without_the_licence_is_refused(tmp_path):
    tree = _package_tree(tmp_path)
    shutil.rmtree(tree / "usr" / "share")
    done = _step(tmp_path / "extra", tree, _sums(tree, tmp_path))
    assert done.returncode == 1 and "no licence file" in done.stderr


def test_neither_a_folder_nor_a_package_is_one_sentence(tmp_path):
    junk = tmp_path / "firmware.deb"
    junk.write_text("not a package")
    done = _step(tmp_path / "extra", junk, SUMS)
    assert done.returncode == 1
    assert done.stderr == (
        f"tinker image build: --wifi-firmware {junk}: it is neither a folder nor a .deb package"
        " dpkg-deb can unpack.\n"
    )


def test_with_the_files_the_board_check_covers_every_board(package, tmp_path):
    """A tree as trixie's (/lib is /usr/lib) with Debian's files, the step's laid over it: the
    build's board check then finds the BCM43430/2's files and names no board without Wi-Fi."""
    deb, sums = package
    root = tmp_path / "root"
    (root / "usr" / "lib" / "firmware" / "brcm").mkdir(parents=True)
    (root / "lib").symlink_to("usr/lib")
    (root / "boot" / "firmware").mkdir(parents=True)
    for dtb in _board("DTBS").split():
        (root / "boot" / "firmware" / dtb).write_bytes(b"dtb")
    covered = _board("WIFI_FIRMWARE")
    for pair in covered.split():
        for name in pair.split("=", 1)[1].split("+"):
            (root / "usr/lib/firmware/brcm" / name).write_bytes(b"Debian's")
    assert _step(tmp_path / "extra", deb, sums).returncode == 0
    lay_over = f'tar -C "{tmp_path / "extra"}" -cf - . | tar -C "{root}" -xf - --no-overwrite-dir'
    subprocess.run(lay_over, shell=True, check=True)  # build.sh's own way of laying it over
    assert (root / "lib").is_symlink()
    done = subprocess.run(
        ["sh", CHECK, root, _board("DTBS"), f"{covered} {_board('WIFI_NOT_COVERED')}", ""],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr.endswith("3-b-plus 4-b zero-2-w-43430b0; no Wi-Fi on: none.\n")


def test_the_recipe_names_what_the_step_makes():
    """The board's uncovered files are names the step makes, and the step's real files are the
    ones the recipe carries sums for."""
    step = STEP.read_text()
    for pair in _board("WIFI_NOT_COVERED").split():
        for name in pair.split("=", 1)[1].split("+"):
            assert f"\n{name} " in step, name
    recipe = [line.split()[1] for line in SUMS.read_text().splitlines() if line[:1] != "#"]
    assert recipe == FILES
    for line in SUMS.read_text().splitlines():
        if line[:1] != "#":
            assert len(line.split()[0]) == 64


def _bin_without_build_tools(tmp_path: Path) -> Path:
    """A PATH with the shell's tools and python3 but no mmdebstrap: the build stops at its host
    check, after the checks of what the builder named."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("sh", "id", "git", "python3", "ls", "paste", "date", "rm", "mkdir", "dirname",
                 "cat", "install", "chown", "find", "mktemp", "sha256sum", "cut", "grep", "ln",
                 "dpkg-deb", "tar", "df", "awk"):  # fmt: skip
        target = sys.executable if tool == "python3" else shutil.which(tool)
        if target:  # python3: this one, resolved (a PATH's python3 may be a wrapper script)
            target = str(Path(target).resolve()) if tool == "python3" else target
            (bin_dir / tool).symlink_to(target)
    return bin_dir


def _build(tmp_path: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    bin_dir = _bin_without_build_tools(tmp_path)
    return subprocess.run(
        [bin_dir / "sh", ROOT / "image" / "build.sh", "--out", tmp_path / "out", *args],
        capture_output=True, text=True, env={"PATH": str(bin_dir)},
    )  # fmt: skip


def test_a_build_without_the_option_says_which_boards_will_have_no_wifi(tmp_path):
    done = _build(tmp_path)
    said = [line for line in done.stderr.splitlines() if "--wifi-firmware" in line]
    assert said == [
        "tinker image build: no --wifi-firmware: a Pi Zero 2 W with the BCM43430/2 Wi-Fi chip"
        " will have no Wi-Fi on this image (its firmware is in no Debian package;"
        " docs/image.md, Wi-Fi on each board)."
    ]
    assert "missing host tools" in done.stderr  # it went on, to the host check


def test_a_build_with_a_wrong_firmware_file_stops_before_the_long_build(package, tmp_path):
    deb, _ = package  # its stand-in files are not the recipe's (image/steps/wifi-firmware.sha256)
    done = _build(tmp_path, "--wifi-firmware", deb)
    assert done.returncode == 1
    assert "SHA-256 is" in done.stderr and "missing host tools" not in done.stderr
