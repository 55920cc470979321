"""Update files made member by member, good or hostile, for the tests of `updater.bundle.unpack`.

A real update file needs a release's git bundle (tests/update/test_update_file.py makes those,
against a cloned origin); unpacking never looks inside the parts, so here they are a few bytes,
signed with a maintainer's key (`helpers.keygen`) by the same code `pack` signs with.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.update.helpers import keygen
from updater import bundle

GIGABYTES_20 = 20 * 1024**3
WHEEL = "wheels/colorzero-2.0-py2.py3-none-any.whl"
PARTS = {"release.bundle": b"a git bundle stand-in\n" * 40, WHEEL: b"PK a wheel stand-in"}


@dataclass
class Maker:
    """A maintainer's key, the allowed-signers file trusting it, and a stranger's key."""

    folder: Path
    key: Path
    stranger: Path
    signers: Path

    def signed(
        self, parts: dict[str, bytes] | None = None, *, key: Path | None = None, sizes: bool = True
    ) -> tuple[bytes, bytes]:
        """(MANIFEST, MANIFEST.sig) for `parts`, as `pack` writes them (without "sizes": as an
        update file packed before they were declared)."""
        scratch = self.folder / "scratch"
        scratch.mkdir(exist_ok=True)
        paths = {}
        for name, data in (PARTS if parts is None else parts).items():
            path = scratch / name.replace("/", "_")
            path.write_bytes(data)
            paths[name] = path
        text = bundle.manifest_text("v1.1.0", "0123456789ab" * 3, paths)
        if not sizes:
            text = text.replace('"sizes"', '"sizes-unread"')
        manifest = scratch / "MANIFEST"
        manifest.write_text(text)
        signature = bundle.sign(manifest, key or self.key)
        return manifest.read_bytes(), signature.read_bytes()

    def members(self, parts: dict[str, bytes] | None = None, **how: object) -> list[Member]:
        """The members of a good update file: MANIFEST, MANIFEST.sig, then the parts."""
        parts = PARTS if parts is None else parts
        text, signature = self.signed(parts, **how)  # type: ignore[arg-type]
        named = {"MANIFEST": text, "MANIFEST.sig": signature, **parts}
        return [Member(name, data) for name, data in named.items()]


@dataclass
class Member:
    """One member to write: its header's fields, and the bytes that follow it."""

    name: str
    data: bytes = b""
    type: bytes = tarfile.REGTYPE
    size: int | None = None
    """The header's size when it is not the data's (a header that claims more than follows)."""
    link: str = ""
    pax: dict[str, str] | None = None

    def info(self) -> tarfile.TarInfo:
        info = tarfile.TarInfo(self.name)
        info.type, info.linkname = self.type, self.link
        info.size = len(self.data) if self.size is None else self.size
        info.pax_headers = dict(self.pax or {})
        return info


def write(out: Path, members: list[Member], *, keep: int | None = None) -> Path:
    """A tar of `members` (pax format, as Python writes them), cut after `keep` bytes."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:", format=tarfile.PAX_FORMAT) as tar:
        for member in members:
            info = member.info()
            if info.size == len(member.data):
                tar.addfile(info, io.BytesIO(member.data) if info.isreg() else None)
            else:  # the header's word, then only the bytes there are
                buffer.write(info.tobuf(tarfile.PAX_FORMAT, tar.encoding, tar.errors))
                buffer.write(member.data)
                tar.offset = buffer.tell()
    data = buffer.getvalue()
    out.write_bytes(data[:keep])
    return out


def make_maker(folder: Path) -> Maker:
    folder.mkdir(parents=True, exist_ok=True)
    key, stranger = keygen(folder / "maintainer"), keygen(folder / "stranger")
    signers = folder / "allowed_signers"
    signers.write_text(f"maintainer@example.org {(folder / 'maintainer.pub').read_text()}")
    return Maker(folder, key, stranger, signers)


def bytes_under(folder: Path) -> int:
    """What the files under `folder` take on the disk (blocks: a sparse file counts as written)."""
    total = 0
    for top, _, files in os.walk(folder):
        for name in files:
            total += os.lstat(os.path.join(top, name)).st_blocks * 512
    return total


def sparse_update_file(maker: Maker, out: Path, form: str = "gnu") -> Path:
    """The issue's file, made as `tar -S` makes it: a signed manifest, and a release.bundle of
    20 GB of holes in 10 KB (GNU's sparse type, or with form="pax" pax's GNU.sparse map)."""
    tar = shutil.which("tar")
    version = subprocess.run([tar or "tar", "--version"], capture_output=True, text=True)
    if tar is None or "GNU tar" not in version.stdout:
        pytest.skip("GNU tar makes the sparse members (tar -S)")
    folder = out.with_name(out.name + ".parts")
    folder.mkdir()
    text, signature = maker.signed()
    (folder / "MANIFEST").write_bytes(text)
    (folder / "MANIFEST.sig").write_bytes(signature)
    with open(folder / "release.bundle", "wb") as sparse:
        sparse.seek(GIGABYTES_20 - 1)
        sparse.write(b"\0")
    subprocess.run(
        [tar, f"--format={form}", "-S", "-cf", str(out), "-C", str(folder),
         "MANIFEST", "MANIFEST.sig", "release.bundle"],
        check=True,
    )  # fmt: skip
    shutil.rmtree(folder)
    return out
