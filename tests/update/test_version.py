"""The page and --version name the release that runs even where the service's user reads a
checkout root owns (the image's /opt/tinker-tray): git refuses such a repository as not its
own unless told it is safe for that read (the page said 'None' on the image)."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SYSTEM_PYTHON = "/usr/bin/python3"
"""A Python another user can run (this run's may sit in a folder of root's); the version's
module is the standard library's alone."""


@pytest.fixture
def folder():
    """A folder every user may enter (pytest's own are root's alone, and so may be the one the
    checkout is in)."""
    made = Path(tempfile.mkdtemp(prefix="tinker-version-"))
    made.chmod(0o755)
    yield made
    shutil.rmtree(made)


def _readable_copy(package: Path, folder: Path) -> Path:
    """`package` copied into `folder`, readable by every user: the checkout may sit in a folder
    only its owner can enter (a home folder, `mktemp -d`, /root), which another user cannot
    import from. The folder to put on that user's PYTHONPATH."""
    shutil.copytree(package, folder / package.name, ignore=shutil.ignore_patterns("__pycache__"))
    for path in (folder, *folder.rglob("*")):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return folder


def test_another_user_reads_the_version_of_roots_checkout(folder):
    if os.geteuid() != 0 or not Path(SYSTEM_PYTHON).exists():
        pytest.skip("not root, or no /usr/bin/python3: no checkout of another owner to read")
    clone = folder / "checkout"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    head = subprocess.run(
        ["git", "-C", str(clone), "rev-parse", "--short=12", "HEAD"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    code = _readable_copy(ROOT / "updater", folder / "code")
    nobody = pwd.getpwnam("nobody")
    read = (
        "import sys; from pathlib import Path; "
        "from updater.version import running_version; print(running_version(Path(sys.argv[1])))"
    )
    done = subprocess.run(  # this tree's code, and nothing of the caller's environment or site
        [SYSTEM_PYTHON, "-s", "-P", "-c", read, str(clone)], env={"PYTHONPATH": str(code)},
        capture_output=True, text=True, user=nobody.pw_uid, group=nobody.pw_gid,
        extra_groups=[], cwd="/",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"commit {head}"
