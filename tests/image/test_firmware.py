"""Every board the docs name has its Wi-Fi firmware in the image, or the docs say it has not:
docs/image.md's Wi-Fi table and the board's recipe (image/boards/pi-arm64) name the same files,
and the build's board check (image/steps/board-check.sh) fails on a tree that lacks one of them,
naming the file and the board, so an image without a covered board's firmware is never made."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BOARD = ROOT / "image" / "boards" / "pi-arm64"
CHECK = ROOT / "image" / "steps" / "board-check.sh"


def _board() -> dict[str, str]:
    """The board file's variables, as build.sh reads them (sourced by sh)."""
    done = subprocess.run(
        ["sh", "-c", '. "$1"; printf "%s\\n" "$DTBS" "$WIFI_FIRMWARE" "$WIFI_NOT_COVERED"',
         "sh", BOARD],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    dtbs, covered, not_covered = done.stdout.splitlines()
    return {"DTBS": dtbs, "WIFI_FIRMWARE": covered, "WIFI_NOT_COVERED": not_covered}


def _pairs(value: str) -> dict[str, set[str]]:
    return {p.split("=")[0]: set(p.split("=", 1)[1].split("+")) for p in value.split()}


def _docs_table() -> dict[str, tuple[set[str], bool]]:
    """docs/image.md's Wi-Fi table: per board key, its files and whether it is covered."""
    text = (ROOT / "docs" / "image.md").read_text().split("\n## Wi-Fi on each board\n")[1]
    text = text.split("\n## ")[0]
    rows = re.findall(r"^\| .*?`([a-z0-9-]+)`.*?\|(.*?)\|(.*?)\|$", text, re.MULTILINE)
    assert rows, "docs/image.md has no Wi-Fi table (a row per board key in backquotes)"
    return {
        key: (set(re.findall(r"`(brcmfmac[^`]+)`", files)), covered.strip().startswith("yes"))
        for key, files, covered in rows
    }


def test_the_docs_and_the_recipe_name_the_same_boards_and_files():
    board = _board()
    covered, not_covered = _pairs(board["WIFI_FIRMWARE"]), _pairs(board["WIFI_NOT_COVERED"])
    docs = _docs_table()
    assert set(docs) == set(covered) | set(not_covered)
    for key, (files, says_covered) in docs.items():
        assert says_covered == (key in covered), key
        assert files == (covered | not_covered)[key], key


def test_the_zero_2_w_is_covered():
    """The main board: its NVRAM file, which bookworm's firmware-brcm80211 lacked."""
    files = _pairs(_board()["WIFI_FIRMWARE"])["zero-2-w"]
    assert "brcmfmac43430-sdio.raspberrypi,model-zero-2-w.txt" in files


def _tree(tmp_path: Path, board: dict[str, str], leave_out: str = "") -> Path:
    root = tmp_path / "root"
    (root / "boot" / "firmware").mkdir(parents=True)
    for dtb in board["DTBS"].split():
        (root / "boot" / "firmware" / dtb).write_bytes(b"dtb")
    brcm = root / "lib" / "firmware" / "brcm"
    brcm.mkdir(parents=True)
    for files in _pairs(board["WIFI_FIRMWARE"]).values():
        for name in files - {leave_out}:
            (brcm / name).write_bytes(b"firmware")
    return root


def _check(root: Path, board: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", CHECK, root, board["DTBS"], board["WIFI_FIRMWARE"], board["WIFI_NOT_COVERED"]],
        capture_output=True,
        text=True,
    )


def test_a_tree_with_every_file_passes_and_says_what_is_covered(tmp_path):
    board = _board()
    done = _check(_tree(tmp_path, board), board)
    assert done.returncode == 0, done.stderr
    assert done.stderr == (
        "tinker image build: Wi-Fi firmware for: zero-2-w 3-b 3-a-plus 3-b-plus 4-b;"
        " no Wi-Fi on: zero-2-w-43430b0 (its firmware is in no Debian package:"
        " --wifi-firmware).\n"
    )


@pytest.mark.parametrize(
    "missing",
    ["brcmfmac43430-sdio.raspberrypi,model-zero-2-w.txt", "brcmfmac43455-sdio.bin"],
)
def test_a_tree_without_a_covered_boards_file_fails_naming_it(tmp_path, missing):
    board = _board()
    done = _check(_tree(tmp_path, board, leave_out=missing), board)
    assert done.returncode == 1
    assert done.stderr.startswith(
        f"tinker image build: the image lacks /lib/firmware/brcm/{missing}"
    )
    assert done.stderr.count("\n") == 1
