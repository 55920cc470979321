"""`tinker-tray release pack TAG --key KEY`: a maintainer's update file for trays with no network.

The release itself is a signed tag (`git tag -s`, docs/release.md). This packs that tag with the
wheels its set-up needs on the trays' Python and architecture (downloaded by pip for that
target, or taken from --wheels DIR) into one file signed with the same key.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]
PI_PLATFORMS = ("manylinux_2_17_aarch64", "manylinux2014_aarch64", "manylinux_2_28_aarch64",
                "linux_aarch64")  # fmt: skip
BUILD_TOOLS = ("pip", "setuptools>=68,<85", "mypy>=1.13,<3")
"""What the set-up itself installs besides the release's requirements (the engine's compiler)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=["pack"], help="pack: write an update file")
    parser.add_argument("tag", help="the signed release tag, e.g. v1.2.0")
    parser.add_argument("--key", type=Path, required=True, help="the SSH key that signed the tag")
    parser.add_argument("--out", type=Path, help="the file (default: tinker-tray-TAG.update)")
    parser.add_argument(
        "--wheels", type=Path, metavar="DIR", help="take the wheels from DIR instead of PyPI"
    )
    parser.add_argument(
        "--repo", type=Path, default=CHECKOUT, help="the repository holding TAG (default: this one)"
    )
    parser.add_argument(
        "--python", default="3.13", help="the trays' Python (default 3.13, Debian trixie's)"
    )


def download_wheels(python: str, into: Path) -> None:
    """The project's requirements and the set-up's tools, as wheels for a Pi (aarch64)."""
    import tomllib

    project = tomllib.loads((CHECKOUT / "pyproject.toml").read_text())["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"].get("pi", []),
              *BUILD_TOOLS]  # fmt: skip
    platforms = [arg for name in PI_PLATFORMS for arg in ("--platform", name)]
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--only-binary=:all:",
         *platforms, "--python-version", python, "--implementation", "cp",
         "-d", str(into), *wanted],
        check=True,
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    from updater.bundle import BundleError, pack

    out = args.out or Path(f"tinker-tray-{args.tag}.update")
    try:
        if args.wheels is not None:
            pack(args.repo, args.tag, args.key, args.wheels, out, print)
            return 0
        with tempfile.TemporaryDirectory(prefix="tinker-wheels-") as folder:
            download_wheels(args.python, Path(folder))
            pack(args.repo, args.tag, args.key, Path(folder), out, print)
    except (BundleError, subprocess.CalledProcessError) as exc:
        print(f"tinker-tray release: {exc}", file=sys.stderr)
        return 1
    return 0
