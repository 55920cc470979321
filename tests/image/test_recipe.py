"""The recipe's failures are one sentence: a missing host tool is named with the Debian package
that has it (image/steps/host-check.sh), an unknown board with the boards there are; and
`./tinker image` without `build` says how it is called."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_missing_tool_is_named_with_its_debian_package(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("sh", "id", "git", "xz", "arch-test"):  # a host with few of the tools
        target = next(
            (Path(d) / tool for d in ("/usr/bin", "/bin") if (Path(d) / tool).exists()), None
        )
        if target:
            (bin_dir / tool).symlink_to(target)
    done = subprocess.run(
        [str(bin_dir / "sh"), ROOT / "image" / "steps" / "host-check.sh"],
        capture_output=True,
        text=True,
        env={"PATH": str(bin_dir)},
    )
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1
    assert "missing host tools: sudo apt install" in done.stderr
    for package in ("mmdebstrap", "qemu-user-static", "dosfstools", "mtools", "fdisk"):
        assert package in done.stderr


def test_an_unknown_board_names_the_boards_there_are():
    done = subprocess.run(
        [ROOT / "image" / "build.sh", "--board", "pi-zero-w"], capture_output=True, text=True
    )
    assert done.returncode == 1
    assert done.stderr == "tinker image build: no board 'pi-zero-w' (one of: pi-arm64).\n"


def test_tinker_image_without_build_says_how_it_is_called():
    done = subprocess.run(
        [ROOT / "tinker", "image"], capture_output=True, text=True, env=dict(os.environ)
    )
    assert done.returncode == 2 and "./tinker image build" in done.stderr
