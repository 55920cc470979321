"""A maintainer's release set-up for the tests of `tinker-tray release`: a repository with one
commit, the maintainer's SSH key, and the trays' allowed-signers file of it (which
TINKER_TRAY_ALLOWED_SIGNERS names while the test runs)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

IDENTITY = ("-c", "user.name=Maintainer", "-c", "user.email=maintainer@example.org")


def git(where: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *IDENTITY, "-C", str(where), *args], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def maintainer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> SimpleNamespace:
    """`repo` (one commit, no tag), `key`, `signers` and `out` (where pack writes)."""
    key = tmp_path / "maintainer"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    signers = tmp_path / "allowed_signers"
    signers.write_text(f"maintainer@example.org {key.with_suffix('.pub').read_text()}")
    monkeypatch.setenv("TINKER_TRAY_ALLOWED_SIGNERS", str(signers))
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "NEWS").write_text("release 1.0.0\n")
    git(repo, "add", "NEWS")
    git(repo, "commit", "-qm", "Release 1.0.0")
    return SimpleNamespace(repo=repo, key=key, signers=signers, out=tmp_path / "x.update")


def sign(repo: Path, key: Path, tag: str) -> None:
    git(repo, "-c", "gpg.format=ssh", "-c", f"user.signingkey={key}", "tag", "-s", tag, "-m", tag)


def pack_argv(who: SimpleNamespace, tag: str, key: Path | None = None) -> list[str]:
    return ["release", "pack", tag, "--key", str(key or who.key), "--repo", str(who.repo),
            "--out", str(who.out)]  # fmt: skip
