"""Issue 50: `./tinker image build --help` says in one sentence each what the build needs (the
signing key's allowed-signers file, free room in --out), and a build without the room stops
first, in one sentence naming the megabytes needed and free. The check runs before the host's
tools, root or anything slow, so it is run here as it is: with TINKER_IMAGE_NEED_MB above what
this machine has (the free figure is df's own)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "image" / "build.sh"
KEY = (
    "a signing key --trust FILE is the maintainers' allowed-signers file (a line "
    "\"you@example.org $(cut -d' ' -f1,2 KEY.pub)\" for each key of ssh-keygen -t ed25519: "
    "docs/release.md, Once: the keys); without it the card cannot update itself, as it "
    "refuses every release it cannot verify."
)
ROOM = (
    "free room a build from nothing fills about 4 GB of --out at its fullest (the cache, the "
    "tree, the card's partitions as files and the image), so it checks first that {mb} MB are "
    "free there and stops with one sentence if not."
)


def build(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BUILD), *args], capture_output=True, text=True, env={**os.environ, **env}, timeout=60
    )


def needed_mb() -> int:
    """The figure the script checks (its default), read from the script itself."""
    found = re.search(r"need_mb=\$\{TINKER_IMAGE_NEED_MB:-(\d+)\}", BUILD.read_text())
    assert found
    return int(found.group(1))


def test_the_help_says_what_the_build_needs_in_one_sentence_each():
    for how in ([str(BUILD), "--help"], [str(ROOT / "tinker"), "image", "build", "--help"]):
        done = subprocess.run(how, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        text = " ".join(done.stdout.split())
        assert KEY in text
        assert ROOM.format(mb=needed_mb()) in text


def test_too_little_room_in_out_is_one_sentence_before_anything_else(tmp_path):
    out = tmp_path / "out"
    free = int(subprocess.run(["df", "-Pm", str(tmp_path)], capture_output=True, text=True,
                              check=True).stdout.splitlines()[1].split()[3])  # fmt: skip
    done = build("--out", str(out), "--trust", str(tmp_path / "none"),
                 TINKER_IMAGE_NEED_MB=str(10**9))  # fmt: skip
    assert done.returncode == 1
    said = re.fullmatch(
        rf"tinker image build: not enough room in {re.escape(str(out))}: a build needs about "
        rf"{10**9} MB free there and (\d+) MB are free \(--out DIR names another place\)\.\n",
        done.stderr,
    )
    assert said, done.stderr
    assert abs(int(said.group(1)) - free) < 500  # df's figure (other tests write meanwhile)
    assert sorted(p.name for p in out.iterdir()) == []  # nothing made but --out itself


def test_with_the_room_the_build_goes_on_to_the_next_check(tmp_path):
    """Enough room: the next check is --trust's (a missing file: the build stops there)."""
    done = build("--out", str(tmp_path / "out"), "--trust", str(tmp_path / "none"),
                 TINKER_IMAGE_NEED_MB="1")  # fmt: skip
    assert done.returncode == 1
    assert "not enough room" not in done.stderr
    assert f"--trust {tmp_path / 'none'}: No such file" in done.stderr  # --trust's own refusal
