"""The name of the release that runs: its tag, else its commit (for --version and the page)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

TREE = Path(__file__).resolve().parents[1]
"""The tree this code runs from: a release slot (with its RELEASE file) or a checkout."""


def running_version(tree: Path = TREE) -> str | None:
    """'v1.2.0 (0123456789ab)' for a release slot or a checkout at a release tag, 'commit
    0123456789ab' for a checkout between releases; None where neither can be known. (The
    service's user reads a checkout root owns, as on the image: git would refuse that
    repository as not its own without the safe.directory given for this one read.)"""
    try:
        release = json.loads((tree / "RELEASE").read_text())
        return f"{release['tag']} ({str(release['commit'])[:12]})"
    except (OSError, ValueError, KeyError, TypeError):
        pass
    try:
        described = subprocess.run(
            ["git", "-c", f"safe.directory={tree}", "-C", str(tree), "describe", "--tags",
             "--always", "--abbrev=12", "--match", "v*", "--dirty"],
            capture_output=True, text=True, timeout=10,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    name = described.stdout.strip()
    if described.returncode != 0 or not name:
        return None
    return name if name.startswith("v") else f"commit {name}"
