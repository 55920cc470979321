"""A published release's files, in one folder: the `.img.xz`, the update file, `SHA256SUMS` of
them (and of the `.img` the `.xz` holds, and of the list) and Raspberry Pi Imager's OS list,
`tinker-tray.rpi-imager.json`, whose `url` is where the release serves the `.img.xz`. What
.github/workflows/release.yml uploads (image/release-steps.sh assets); also by hand:

    python3 -m image.release_assets build/image/tinker-tray-v1.3.0-pi-arm64.img.xz \\
        --update tinker-tray-v1.3.0.update \\
        --url-base https://github.com/OWNER/REPO/releases/download/v1.3.0 --out DIR

Only the `.img.xz` is needed, not the 2 GB `.img`: the size and SHA-256 of what it holds
(Imager's `extract_size`, `extract_sha256`) are read by decompressing it a MiB at a time
(memory: the `.xz`'s dictionary, 8 MiB at `xz -6`, and one MiB). The list's entry and devices
are image/release.py's, the list the build writes beside the image: one set of fields and
device tags (Imager's "pi3-64bit" for the Zero 2 W and the Pi 3, "pi4-64bit" for the Pi 4).
Python's standard library only."""

from __future__ import annotations

import argparse
import json
import lzma
import os
import shutil
import sys
from pathlib import Path

from image import release

TEXTS = (release.SUMS, release.IMAGER_LIST)


class AssetsError(Exception):
    """Why the release's files were not written, in one sentence."""


def place(source: Path, folder: Path) -> Path:
    """`source` in `folder` under its own name: a hard link where the file system allows one
    (the same bytes, no copy of 300 MB), else a copy."""
    target = folder / source.name
    if target.exists() and target.samefile(source):
        return target  # (--out is the build's own folder)
    target.unlink(missing_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)
    return target


def entry(xz: Path, url: str, date: str) -> tuple[dict[str, object], str, str]:
    """The OS list's entry for `xz`, and the SHA-256s of the `.img` it holds and of itself."""
    try:
        extract_sha, extract_size = release.unpacked_sha256(xz)
    except (lzma.LZMAError, EOFError) as exc:
        raise AssetsError(
            f"{xz.name} is not a whole .xz file ({exc}): Imager could not write it"
        ) from exc
    download_sha = release.sha256_of(xz)
    version = xz.name.removeprefix("tinker-tray-").removesuffix(".img.xz")
    item: dict[str, object] = {
        "name": f"Tinker Bell tray ({version})",
        "description": "The Disney UNO Tinker Bell tray: the table's page on a Pi Zero 2 W, 3 or 4",
        "url": url,
        "icon": "",
        "release_date": date,
        "extract_size": extract_size,
        "extract_sha256": extract_sha,
        "image_download_size": xz.stat().st_size,
        "image_download_sha256": download_sha,
        "devices": release.DEVICES,
        "init_format": release.INIT_FORMAT,
    }
    return item, extract_sha, download_sha


def write_assets(xz: Path, update: Path, url_base: str, out: Path, date: str) -> list[Path]:
    """The release's files in `out` (made if need be); returns them, SHA256SUMS last."""
    if not xz.name.endswith(".img.xz") or not xz.is_file():
        raise AssetsError(f"there is no image at {xz} (a NAME.img.xz, from build --xz)")
    if not update.is_file():
        raise AssetsError(f"there is no update file at {update} (tinker-tray release pack)")
    if not url_base.startswith(("https://", "http://")):
        raise AssetsError(f"--url-base {url_base!r} is not a web address (https://...)")
    item, extract_sha, download_sha = entry(xz, f"{url_base.rstrip('/')}/{xz.name}", date)
    out.mkdir(parents=True, exist_ok=True)
    for name in TEXTS:
        (out / name).unlink(missing_ok=True)  # an earlier run's never stands for this one
    placed = [place(xz, out), place(update, out)]
    listing = out / release.IMAGER_LIST
    document = {"imager": {"devices": release.device_list()}, "os_list": [item]}
    listing.write_text(json.dumps(document, indent=2) + "\n")
    sums = out / release.SUMS
    digests = {
        xz.name.removesuffix(".xz"): extract_sha,  # what `unxz` gives: sha256sum -c checks it
        xz.name: download_sha,
        update.name: release.sha256_of(placed[1]),
        listing.name: release.sha256_of(listing),
    }
    sums.write_text(release.sums_text(digests))
    return [*placed, listing, sums]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m image.release_assets", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("xz", type=Path, help="the image, NAME.img.xz (./tinker image build --xz)")
    parser.add_argument("--update", type=Path, required=True, help="the update file")
    parser.add_argument(
        "--url-base", required=True, help="the address the release serves its files under"
    )
    parser.add_argument("--out", type=Path, required=True, help="the folder for the files")
    parser.add_argument("--date", default=None, help="the release date (default: today, UTC)")
    args = parser.parse_args(argv)
    try:
        written = write_assets(
            args.xz, args.update, args.url_base, args.out, args.date or release.release_date()
        )
    except (AssetsError, OSError) as exc:
        print(f"tinker release: the release's files were not written: {exc}.", file=sys.stderr)
        return 1
    print(f"tinker release: {', '.join(str(p) for p in written)}.", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
