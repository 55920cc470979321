"""The update file: one signed file with everything a release's set-up needs offline.

For a tray with no network to its origin. A plain tar (its parts are compressed already) of:

    MANIFEST        JSON: format, tag, commit, and the SHA-256 of every other part
    MANIFEST.sig    an SSH signature of MANIFEST (ssh-keygen -Y sign, namespace tinker-tray-update)
    release.bundle  a git bundle holding the signed release tag and its history
    wheels/*.whl    the wheels its set-up installs, for the tray's Python and architecture

Verified in that order before anything in it is used: the file's size and shape (only these
names, plain files, bounded), the manifest's signature against the same allowed signers as the
tags, every part's hash; then the update goes on as from an origin (the tag verifies again, by
git). The file is unpacked on the card (beside the slots), never into memory: a Zero 2 W has
512 MB.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from updater import releases

FORMAT = "tinker-tray-update"
NAMESPACE = "tinker-tray-update"
"""The signature's namespace: a tag's signature ("git") never passes for a manifest's."""
MAX_FILE = 512 * 1024 * 1024
MAX_PARTS = 400
PART = re.compile(r"(MANIFEST|MANIFEST\.sig|release\.bundle|wheels/[A-Za-z0-9_.+-]{1,200}\.whl)")


class BundleError(Exception):
    """Why an update file is refused, in one sentence; nothing was changed."""


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as data:
        for block in iter(lambda: data.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify_signature(manifest: Path, signature: Path, signers: Path) -> str:
    """The principal who signed `manifest`, if an allowed one did; else BundleError."""
    found = subprocess.run(
        ["ssh-keygen", "-Y", "find-principals", "-s", str(signature), "-f", str(signers)],
        capture_output=True,
        text=True,
    )
    principals = found.stdout.split()
    if found.returncode != 0 or not principals:
        raise BundleError(f"the update file is not signed by a key in {signers}")
    for principal in principals:
        with open(manifest, "rb") as text:
            checked = subprocess.run(
                ["ssh-keygen", "-Y", "verify", "-f", str(signers), "-I", principal,
                 "-n", NAMESPACE, "-s", str(signature)],
                stdin=text, capture_output=True,
            )  # fmt: skip
        if checked.returncode == 0:
            return principal
    raise BundleError("the update file's signature does not verify (it was changed after signing)")


def unpack(file: Path, into: Path, name: str | None = None) -> dict[str, object]:
    """The update file's parts into `into`, checked; returns its manifest. `name`: what the
    sentences call it (an upload read through its descriptor has no name of its own)."""
    shown = name or file.name
    try:
        size = file.stat().st_size
    except OSError as exc:
        raise BundleError(f"{file}: {exc.strerror or exc}") from None
    if size > MAX_FILE:
        raise BundleError(f"{shown} is {size / 1e6:.0f} MB, more than an update file can be")
    try:
        with tarfile.open(file, "r:") as tar:
            members = []
            for count, member in enumerate(tar):
                if count >= MAX_PARTS or not member.isfile() or not PART.fullmatch(member.name):
                    raise BundleError(
                        f"{shown} is not an update file (it holds {member.name[:80]!r})"
                    )
                members.append(member)
            (into / "wheels").mkdir(parents=True, exist_ok=True)
            for member in members:
                source = tar.extractfile(member)
                assert source is not None
                with source, open(into / member.name, "wb") as out:
                    shutil.copyfileobj(source, out)
    except (tarfile.TarError, EOFError) as exc:
        raise BundleError(f"{shown} is not an update file (not a whole tar: {exc})") from None
    except OSError as exc:
        raise BundleError(f"the update file could not be unpacked: {exc.strerror or exc}") from None
    for needed in ("MANIFEST", "MANIFEST.sig", "release.bundle"):
        if not (into / needed).is_file():
            raise BundleError(f"{shown} is not an update file (no {needed} in it)")
    verify_signature(into / "MANIFEST", into / "MANIFEST.sig", releases.allowed_signers())
    try:
        manifest = json.loads((into / "MANIFEST").read_text())
        parts = dict(manifest["files"])
        if manifest.get("format") != FORMAT:
            raise ValueError
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        raise BundleError(f"{shown}'s manifest is not one this tray reads") from None
    present = {
        str(path.relative_to(into))
        for path in into.rglob("*")
        if path.is_file() and path.name not in ("MANIFEST", "MANIFEST.sig")
    }
    if present != set(parts):
        raise BundleError(f"{shown} does not hold exactly the files its manifest names")
    for name, digest in parts.items():
        if _sha256(into / name) != digest:
            raise BundleError(f"{name} in {shown} is not the file that was signed")
    return dict(manifest)


@contextlib.contextmanager
def unpacked(
    file: Path, home: Path, say: Callable[[str], None], name: str | None = None
) -> Iterator[tuple[Path, dict[str, str]]]:
    """(the release bundle to fetch from, the environment its set-up runs with), from a
    verified update file; unpacked beside `home`'s slots (on the card), removed afterwards."""
    where = home / ".releases"
    where.mkdir(exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="incoming-", dir=where))
    try:
        folder.chmod(0o755)
        say(f"checking the update file {name or file.name} ...")
        manifest = unpack(file, folder, name)
        say(f"the update file is signed and whole: {manifest.get('tag', '?')}")
        wheels = folder / "wheels"
        yield (
            folder / "release.bundle",
            {
                "PIP_NO_INDEX": "1",
                "PIP_FIND_LINKS": str(wheels),
            },
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def pack(
    home: Path, tag: str, key: Path, wheels: Path, out: Path, say: Callable[[str], None]
) -> None:
    """Write the update file for release `tag` (a maintainer's step: docs/release.md)."""
    with tempfile.TemporaryDirectory(prefix="tinker-pack-") as folder_name:
        folder = Path(folder_name)
        bundle = folder / "release.bundle"
        made = subprocess.run(
            ["git", "-C", str(home), "bundle", "create", str(bundle), f"refs/tags/{tag}"],
            capture_output=True,
            text=True,
        )
        if made.returncode != 0:
            raise BundleError(f"git bundle failed: {made.stderr.strip()[-300:]}")
        commit = subprocess.run(
            ["git", "-C", str(home), "rev-parse", f"{tag}^{{commit}}"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
        files = {"release.bundle": _sha256(bundle)}
        for wheel in sorted(wheels.glob("*.whl")):
            files[f"wheels/{wheel.name}"] = _sha256(wheel)
        manifest = folder / "MANIFEST"
        manifest.write_text(
            json.dumps({"format": FORMAT, "tag": tag, "commit": commit, "files": files}, indent=1)
        )
        signed = subprocess.run(
            ["ssh-keygen", "-Y", "sign", "-q", "-f", str(key), "-n", NAMESPACE, str(manifest)],
            capture_output=True,
            text=True,
        )
        if signed.returncode != 0:
            raise BundleError(f"ssh-keygen could not sign: {signed.stderr.strip()[-300:]}")
        partial = out.with_name(out.name + ".part")
        with tarfile.open(partial, "w:") as tar:
            for name in ("MANIFEST", "MANIFEST.sig", "release.bundle"):
                tar.add(folder / name, arcname=name)
            for wheel in sorted(wheels.glob("*.whl")):
                tar.add(wheel, arcname=f"wheels/{wheel.name}")
        os.replace(partial, out)
        say(
            f"{out}: {tag} ({commit[:12]}), {len(files) - 1} wheels, "
            f"{out.stat().st_size / 1e6:.1f} MB"
        )
