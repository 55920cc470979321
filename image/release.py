"""The release files beside the image: `SHA256SUMS` (sha256sum's format: `sha256sum -c` checks a
download with it) and Raspberry Pi Imager's OS list (`tinker-tray.rpi-imager.json`), so that a
maintainer publishes a release by uploading three files (the `.img.xz`, these two) and a family
adds the list to Imager. Run by build.sh on the host (Python's standard library only: no venv
there); also on its own, to point the list at where the image was uploaded:

    python3 image/release.py build/image/tinker-tray-v1-pi-arm64.img --url https://.../X.img.xz

The list's fields are those of Imager's own `doc/json-schema/os-list-schema.json` and
`doc/os-sublist-example.json` (rpi-imager): Imager checks what it writes against
`extract_sha256` and refuses a card smaller than `extract_size`; `image_download_sha256` is read
by Imager 1.9's download cache only. docs/image.md says which Imager reads what, and how a family
adds the list (Imager 1.8, 2.x)."""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import lzma
import os
import sys
from pathlib import Path

SUMS = "SHA256SUMS"
IMAGER_LIST = "tinker-tray.rpi-imager.json"
DEVICES = ["pi3-64bit", "pi4-64bit"]
"""Imager's device tags for the boards the image boots: Raspberry Pi's device list (the
`imager.devices` of its os_list_imagingutility_v4.json, which Imager shows as "Choose Device")
files the Zero 2 W and the Pi 3 A+/B/B+ under `pi3-64bit`, the Pi 4 and 400 under `pi4-64bit`;
not the Pi 5 (docs/image.md says why)."""
BOARDS = [
    ("Raspberry Pi Zero 2 W", "pi3-64bit", "The tray's main board"),
    ("Raspberry Pi 3", "pi3-64bit", "Raspberry Pi 3 Model A+, B and B+"),
    ("Raspberry Pi 4", "pi4-64bit", "Raspberry Pi 4 Model B and 400"),
]
"""The list's own "Choose Device" step (`imager.devices`): Imager 2 builds that step from the list
it was given (its hwlistmodel.cpp, v2.0.11, finds no device in a list without them); Imager 1.8
shows these instead of its "[ All ]" (main.qml, v1.8.5)."""
INIT_FORMAT = "systemd"
"""What Imager writes for its OS customisation: with "systemd" its `firstrun.sh` and the words
on cmdline.txt, which the image reads as data (image/imager); the one format every Imager since
1.6 writes, and the one booted under qemu (docs/image.md)."""
CHUNK = 1 << 20


class ReleaseError(Exception):
    """Why the release files could not be written, in one sentence."""


def sha256_of(path: Path) -> str:
    """The file's SHA-256, read a MiB at a time (an image is 2 GB; the Pi's memory is not)."""
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def unpacked_sha256(path: Path) -> tuple[str, int]:
    """The SHA-256 and size of what an .xz file holds, decompressed a MiB at a time: what Imager
    will write, and check against the list's extract_sha256."""
    digest, size = hashlib.sha256(), 0
    with lzma.open(path, "rb") as file:
        while chunk := file.read(CHUNK):
            digest.update(chunk)
            size += len(chunk)
    return digest.hexdigest(), size


def sums_text(files: dict[str, str]) -> str:
    """sha256sum's own format (two spaces: a text-mode line), one file a line, by name."""
    return "".join(f"{digest}  {name}\n" for name, digest in sorted(files.items()))


def imager_entry(
    image: Path,
    image_sha: str,
    download: Path,
    download_sha: str,
    url: str,
    release_date: str,
) -> dict[str, object]:
    """One OS-list entry for `image`, downloaded as `download` (the `.img.xz`, or the `.img`)."""
    version = image.stem.removeprefix("tinker-tray-")
    return {
        "name": f"Tinker Bell tray ({version})",
        "description": "The Disney UNO Tinker Bell tray: the table's page on a Pi Zero 2 W, 3 or 4",
        "url": url,
        "icon": "",
        "release_date": release_date,
        "extract_size": image.stat().st_size,
        "extract_sha256": image_sha,
        "image_download_size": download.stat().st_size,
        "image_download_sha256": download_sha,
        "devices": DEVICES,
        "init_format": INIT_FORMAT,
    }


def device_list() -> list[dict[str, object]]:
    """The boards, as Imager's device step reads them (name, tags, icon, description,
    matching_type: "inclusive" keeps an entry without `devices`, as Raspberry Pi's list does)."""
    return [
        {"name": name, "tags": [tag], "icon": "", "description": description,
         "matching_type": "inclusive", "default": False}
        for name, tag, description in BOARDS
    ]  # fmt: skip


def release_date() -> str:
    """Today (UTC), or the day of SOURCE_DATE_EPOCH when set (a reproducible build's date)."""
    utc = datetime.timezone.utc  # noqa: UP017  (the build host's python3 may be 3.10: Ubuntu 22.04)
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.isdigit():
        day = datetime.datetime.fromtimestamp(int(epoch), utc)
    else:
        day = datetime.datetime.now(utc)
    return day.date().isoformat()


def write_release(image: Path, url: str | None = None, date: str | None = None) -> list[Path]:
    """SHA256SUMS and the Imager list beside `image` (and its `.xz`, when there is one)."""
    if not image.is_file():
        raise ReleaseError(f"there is no image at {image}")
    compressed = image.with_name(image.name + ".xz")
    download = compressed if compressed.is_file() else image
    digests = {image.name: sha256_of(image)}
    if download is compressed:
        digests[compressed.name] = sha256_of(compressed)
        try:
            inside = unpacked_sha256(compressed)
        except (lzma.LZMAError, EOFError):
            inside = ("", -1)
        if inside != (digests[image.name], image.stat().st_size):
            raise ReleaseError(
                f"{compressed.name} does not hold this {image.name} (an older build's, or cut"
                " short?): Imager would refuse the card it wrote"
            )
    entry = imager_entry(
        image,
        digests[image.name],
        download,
        digests[download.name],
        url or download.name,
        date or release_date(),
    )
    sums = image.with_name(SUMS)
    listing = image.with_name(IMAGER_LIST)
    sums.write_text(sums_text(digests))
    document = {"imager": {"devices": device_list()}, "os_list": [entry]}
    listing.write_text(json.dumps(document, indent=2) + "\n")
    return [sums, listing]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="image/release.py", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("image", type=Path, help="the .img (its .img.xz beside it, if made)")
    parser.add_argument(
        "--url",
        default=None,
        help="where a family's Imager downloads the image (default: its file name, beside the"
        " list)",
    )
    parser.add_argument("--date", default=None, help="the release date (default: today, UTC)")
    args = parser.parse_args(argv)
    try:
        written = write_release(args.image, args.url, args.date)
    except (ReleaseError, OSError) as exc:
        print(f"tinker image build: the release files were not written: {exc}.", file=sys.stderr)
        return 1
    print(f"tinker image build: release files: {', '.join(str(p) for p in written)}.",
          file=sys.stderr)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
