"""Releases are signed tags: found on the origin, verified against the allowed signers, exported.

A release is a tag `vX.Y.Z` signed with git's SSH signatures (`git tag -s`, gpg.format=ssh) by a
key in the allowed-signers file the tray trusts. Branch heads are never installed. Tags are
fetched into a namespace of their own (refs/tinker-releases/), so nothing of the checkout's own
refs changes, and a tag is judged by the name signed inside it, not by the ref it came under (an
old signed release served under a newer name is still the old release). Nothing fetched is set
up, imported or run before its tag verifies: this module only reads git objects.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

NAMESPACE = "refs/tinker-releases"
TAG = re.compile(r"v(\d{1,6})\.(\d{1,6})(?:\.(\d{1,6}))?")
"""A release's name: v1.2 or v1.2.3 (a tag of any other shape is not a release)."""
SYSTEM_SIGNERS = Path("/etc/tinker-tray/allowed_signers")
"""Where an image built with `--trust FILE` keeps the maintainers' keys."""


class ReleaseError(Exception):
    """Why no release can be had or trusted, in one sentence."""


@dataclass(frozen=True)
class Release:
    tag: str
    commit: str

    @property
    def version(self) -> tuple[int, ...]:
        return version_of(self.tag) or ()

    def describe(self) -> str:
        return f"{self.tag} ({self.commit[:12]})"


def version_of(tag: str) -> tuple[int, ...] | None:
    match = TAG.fullmatch(tag)
    return None if match is None else tuple(int(part or 0) for part in match.groups())


def allowed_signers() -> Path:
    """The allowed-signers file: $TINKER_TRAY_ALLOWED_SIGNERS, else the image's. Raises
    ReleaseError naming what is missing."""
    named = os.environ.get("TINKER_TRAY_ALLOWED_SIGNERS")
    path = Path(named) if named else SYSTEM_SIGNERS
    if not path.is_file():
        where = (
            f"TINKER_TRAY_ALLOWED_SIGNERS names {path}, which is not a file"
            if named
            else f"this tray has no allowed-signers file ({SYSTEM_SIGNERS}: an image built "
            "without --trust FILE, or a checkout without TINKER_TRAY_ALLOWED_SIGNERS)"
        )
        raise ReleaseError(f"no release can be verified: {where} (docs/release.md)")
    return path


class Repository:
    """The checkout's git, run as the checkout's owner (`as_owner`: a prefix such as runuser)."""

    def __init__(self, home: Path, as_owner: list[str] | None = None) -> None:
        self.home = home
        self.as_owner = as_owner or []

    def git(self, *args: str, check: bool = True, **kwargs: object) -> subprocess.CompletedProcess:
        done = subprocess.run(
            [*self.as_owner, "git", "-C", str(self.home), *args],
            capture_output=True,
            text=True,
            **kwargs,  # type: ignore[call-overload]
        )
        if check and done.returncode != 0:
            said = (done.stderr.strip().splitlines() or ["(nothing said)"])[-1]
            raise ReleaseError(f"git {args[0]} failed: {said}")
        return done

    def fetch(self, source: str = "origin") -> None:
        """The origin's release tags (objects only: nothing is checked out or run)."""
        self.git(
            "fetch", "--quiet", "--no-tags", "--prune", source, f"+refs/tags/v*:{NAMESPACE}/v*"
        )

    def origin(self) -> str:
        """Where the checkout's releases come from (empty: it has no origin)."""
        return self.git("remote", "get-url", "origin", check=False).stdout.strip()

    def candidates(self) -> list[str]:
        """Fetched release refs, newest name first."""
        listed = self.git("for-each-ref", "--format=%(refname)", f"{NAMESPACE}/").stdout.split()
        named = [(version_of(ref.rsplit("/", 1)[-1]), ref) for ref in listed]
        return [ref for v, ref in sorted((p for p in named if p[0]), reverse=True)]

    def verify(self, ref: str, signers: Path) -> Release:
        """The release a ref names, if its tag is signed by an allowed key; else ReleaseError
        saying why (not a tag, not signed, signed by a key not allowed)."""
        name = ref.rsplit("/", 1)[-1]
        kind = self.git("cat-file", "-t", ref, check=False).stdout.strip()
        if kind != "tag":
            raise ReleaseError(f"{name} is not a signed tag (a {kind or 'missing'} object)")
        body = self.git("cat-file", "tag", ref).stdout
        signed_name = re.search(r"^tag (.+)$", body, re.M)
        if "-----BEGIN SSH SIGNATURE-----" not in body:
            raise ReleaseError(f"{name} is not signed with an SSH key (git tag -s, gpg.format=ssh)")
        done = self.git(
            "-c", "gpg.format=ssh",
            "-c", f"gpg.ssh.allowedSignersFile={signers}",
            "verify-tag", "--raw", ref,
            check=False,
        )  # fmt: skip
        if done.returncode != 0 or 'Good "git" signature for ' not in done.stderr:
            raise ReleaseError(
                f"{name} is not signed by a key this tray trusts (the keys in {signers})"
                if "No principal matched" in done.stderr or "Good" in done.stderr
                else f"{name}'s signature does not verify"
            )
        tag = signed_name.group(1).strip() if signed_name else name
        if version_of(tag) is None:
            raise ReleaseError(f"{name} is signed as {tag!r}, which is not a release name")
        commit = self.git("rev-parse", f"{ref}^{{commit}}").stdout.strip()
        return Release(tag, commit)

    def is_ancestor(self, commit: str, of: str) -> bool:
        return self.git("merge-base", "--is-ancestor", commit, of, check=False).returncode == 0

    def head(self) -> str:
        return self.git("rev-parse", "HEAD").stdout.strip()

    def tag_at(self, commit: str) -> str | None:
        """The release tag the checkout itself is at, if any."""
        done = self.git("describe", "--tags", "--exact-match", "--match", "v*", commit, check=False)
        tag = done.stdout.strip()
        return tag if done.returncode == 0 and version_of(tag) else None

    def show(self, commit: str, path: str) -> bytes | None:
        """A file of the commit's tree, as its bytes (None: the tree has no such file)."""
        done = subprocess.run(
            [*self.as_owner, "git", "-C", str(self.home), "show", f"{commit}:{path}"],
            capture_output=True,
        )
        return done.stdout if done.returncode == 0 else None

    def export(self, release: Release, folder: Path) -> None:
        """The release's tree into `folder` (git archive: no .git, nothing run), each file
        dated now (tar -m), not at its commit: a tray's clock may run behind the maintainer's
        (a Pi has no clock of its own; offline it keeps the last time it saved), and ./tinker
        would take a pyproject.toml from the future for one newer than its set-up and set the
        venv up again on every start (pip: minutes on a Pi)."""
        folder.mkdir(parents=True, exist_ok=True)
        archive = subprocess.Popen(
            [
                *self.as_owner,
                "git",
                "-C",
                str(self.home),
                "archive",
                "--format=tar",
                release.commit,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        unpack = subprocess.run(
            [*self.as_owner, "tar", "-x", "-m", "-C", str(folder)],
            stdin=archive.stdout,
            capture_output=True,
            text=True,
        )
        assert archive.stdout is not None
        archive.stdout.close()
        archive.wait()
        if archive.returncode != 0 or unpack.returncode != 0:
            said = unpack.stderr.strip() or (
                archive.stderr.read().decode() if archive.stderr else ""
            )
            raise ReleaseError(f"the release's files could not be written: {said.strip()}")


def newest(
    repository: Repository, signers: Path, running: Release | None, running_commit: str
) -> tuple[Release | None, list[str]]:
    """The newest verified release newer than what runs, and a sentence for each newer tag that
    was refused. Newer: a greater version than the running release, and not already part of
    the running commit's history (an image built from main after a release is not 'older')."""
    refused: list[str] = []
    for ref in repository.candidates():
        version = version_of(ref.rsplit("/", 1)[-1])
        if running is not None and version is not None and version <= running.version:
            break
        try:
            release = repository.verify(ref, signers)
        except ReleaseError as exc:
            refused.append(str(exc))
            continue
        if running is not None and release.version <= running.version:
            refused.append(f"{ref.rsplit('/', 1)[-1]} is signed as the older {release.tag}")
            continue
        if repository.is_ancestor(release.commit, running_commit):
            continue
        return release, refused
    return None, refused
