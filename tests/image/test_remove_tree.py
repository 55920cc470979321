"""A work tree a killed build left with a mount inside is deleted without reaching through the
mount (rm -rf once walked into a leftover /proc)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

STEP = Path(__file__).resolve().parents[2] / "image" / "steps" / "remove-tree.sh"


def test_what_is_mounted_inside_is_unmounted_and_left_whole(tmp_path):
    tree, outside = tmp_path / "work" / "root", tmp_path / "kept"
    (tree / "proc").mkdir(parents=True)
    outside.mkdir()
    (outside / "precious").write_text("not the tree's\n")
    bind = ["mount", "--bind", str(outside), str(tree / "proc")]
    done = subprocess.run(bind, capture_output=True)
    if done.returncode != 0:
        if os.environ.get("CI") == "true":
            pytest.fail(f"mount failed under CI: {done.stderr!r}")
        pytest.skip("mount is not permitted here")
    try:
        subprocess.run([str(STEP), str(tmp_path / "work")], check=True, timeout=60)
    finally:
        subprocess.run(["umount", "-l", str(tree / "proc")], capture_output=True)
    assert not (tmp_path / "work").exists()
    assert (outside / "precious").read_text() == "not the tree's\n"


def test_a_tree_that_is_not_there_is_nothing_to_do(tmp_path):
    done = subprocess.run([str(STEP), str(tmp_path / "never")], capture_output=True, text=True)
    assert done.returncode == 0 and done.stderr == ""
