"""The update file: one signed file with everything a release's set-up needs offline.

For a tray with no network to its origin. A plain tar (its parts are compressed already) of:

    MANIFEST        JSON: format, tag, commit, and the SHA-256 and size of every other part
    MANIFEST.sig    an SSH signature of MANIFEST (ssh-keygen -Y sign, namespace tinker-tray-update)
    release.bundle  a git bundle holding the signed release tag and its history
    wheels/*.whl    the wheels its set-up installs, for the tray's Python and architecture
    mypyc/...       the compiled engine, built from the tag's sources for the same (optional:
                    updater/compiled.py); a tray without it compiles the engine itself

Nobody's word is taken before the signature is checked, and nothing is written before the sizes
are: the tar's headers are read (only these names, plain files, no links, no sparse members,
each inside the file, bounded reads), the small MANIFEST and its signature are read into memory
and checked against the same allowed signers as the tags, the parts' sizes must be the signed
ones and fit in the card's free room; only then is each part copied, at most its signed size,
its hash checked as it is. Then the update goes on as from an origin (the tag verifies again,
by git). The parts are unpacked on the card (beside the slots), never into memory: a Zero 2 W
has 512 MB.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import shutil
import stat
import subprocess
import tarfile
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, BinaryIO, cast

from updater import compiled, releases, room

FORMAT = "tinker-tray-update"
NAMESPACE = "tinker-tray-update"
"""The signature's namespace: a tag's signature ("git") never passes for a manifest's."""
MAX_FILE = 512 * 1024 * 1024
MAX_PARTS = 400
MAX_SIGNED = 64 * 1024
"""MANIFEST and MANIFEST.sig are read into memory before anything is trusted: at most this."""
MAX_HEADER = 64 * 1024
"""The most one read of the tar's headers may take (a pax header or a long name): a header
claiming more would be read into memory, so the file is refused instead."""
MAX_HEADERS = 4 * 1024 * 1024
"""All the header reads of one file (400 parts take about 600 KB): a chain of sparse maps or
long names is refused before it costs the Pi its memory."""
BLOCK = 1 << 20
PART = re.compile(
    r"(MANIFEST|MANIFEST\.sig|release\.bundle|wheels/[A-Za-z0-9_.+-]{1,200}\.whl|"
    + compiled.NAME.pattern
    + ")"
)
"""The only names an update file holds: none has `..`, a leading `/` or a hidden name."""
SIGNED = ("MANIFEST", "MANIFEST.sig")
PLAIN = (tarfile.REGTYPE, tarfile.AREGTYPE)
KINDS = {
    tarfile.SYMTYPE: "a symbolic link",
    tarfile.LNKTYPE: "a hard link",
    tarfile.DIRTYPE: "a folder",
    tarfile.GNUTYPE_SPARSE: "a sparse file",
    tarfile.FIFOTYPE: "a pipe",
    tarfile.CHRTYPE: "a device",
    tarfile.BLKTYPE: "a device",
}
HOSTILE_HEADER = (tarfile.TarError, EOFError, ValueError, IndexError, OverflowError, RecursionError)
"""What tarfile raises on headers made to break it (a sparse map that ends early, a number that
is not one, a chain of long names), besides its own errors."""


class BundleError(Exception):
    """Why an update file is refused, in one sentence; nothing was changed."""


@dataclass(frozen=True)
class Part:
    """A member as its header says: its name, where its bytes start in the file, how many."""

    name: str
    offset: int
    size: int


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as data:
        for block in iter(lambda: data.read(BLOCK), b""):
            digest.update(block)
    return digest.hexdigest()


class _Headers(io.RawIOBase):
    """The update file as tarfile sees it while it reads headers: it may seek anywhere, but
    read only header-sized pieces, and a bounded total (tarfile reads a pax header, a long name
    or a sparse map whole, whatever size the header claims)."""

    def __init__(self, data: BinaryIO, shown: str) -> None:
        super().__init__()
        self._data = data
        self._shown = shown
        self._budget = MAX_HEADERS

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0 or size > min(MAX_HEADER, self._budget):
            raise BundleError(f"{self._shown} is not an update file (its headers are too large)")
        self._budget -= size
        return self._data.read(size)

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        return self._data.seek(offset, whence)

    def tell(self) -> int:
        return self._data.tell()


def _refused(shown: str, why: str) -> BundleError:
    return BundleError(f"{shown} is not an update file ({why})")


def _cut_short(shown: str, name: str) -> BundleError:
    return BundleError(f"{shown} is cut short: its {name} ends after the file does (copy it again)")


def read_parts(data: BinaryIO, length: int, shown: str) -> dict[str, Part]:
    """Every member's header, checked, without a byte of any member read or written."""
    parts: dict[str, Part] = {}
    try:
        with tarfile.open(fileobj=cast(IO[bytes], _Headers(data, shown)), mode="r:") as tar:
            for member in tar:
                if len(parts) >= MAX_PARTS:
                    raise _refused(shown, f"it has more than {MAX_PARTS} parts")
                part = _checked(member, length, shown)
                if part.name in parts:
                    raise _refused(shown, f"it holds {part.name} twice")
                parts[part.name] = part
    except tarfile.TarError as exc:
        raise _refused(shown, f"not a whole tar: {exc}") from None
    except HOSTILE_HEADER:
        raise _refused(shown, "not a whole tar: a header does not read") from None
    return parts


def _checked(member: tarfile.TarInfo, length: int, shown: str) -> Part:
    """The member as a part, if it is one: a known name, a plain file (no link, no sparse map,
    which would unpack to more than the file holds), its bytes inside the file."""
    if not PART.fullmatch(member.name):
        raise _refused(shown, f"it holds {member.name[:80]!r}")
    sparse = member.issparse() or any(key.startswith("GNU.sparse") for key in member.pax_headers)
    if sparse or member.type not in PLAIN:
        kind = "a sparse file" if sparse else KINDS.get(member.type, "not a plain file")
        raise _refused(shown, f"its {member.name} is {kind}")
    if member.size < 0 or member.offset_data + member.size > length:
        raise _cut_short(shown, member.name)
    return Part(member.name, member.offset_data, member.size)


def _small(data: BinaryIO, part: Part, shown: str) -> bytes:
    if part.size > MAX_SIGNED:
        raise _refused(shown, f"its {part.name} is {part.size} bytes, more than {MAX_SIGNED}")
    data.seek(part.offset)
    text = data.read(part.size)
    if len(text) != part.size:
        raise _cut_short(shown, part.name)
    return text


def verify_signature(manifest: bytes, signature: bytes, signers: Path, shown: str) -> str:
    """The principal who signed `manifest`, if an allowed one did; else BundleError. The
    signature is a scratch file (ssh-keygen reads it by name) of at most MAX_SIGNED bytes."""
    with tempfile.NamedTemporaryFile(prefix="tinker-tray-update-", suffix=".sig") as scratch:
        scratch.write(signature)
        scratch.flush()
        found = subprocess.run(
            ["ssh-keygen", "-Y", "find-principals", "-s", scratch.name, "-f", str(signers)],
            capture_output=True,
            text=True,
        )
        principals = found.stdout.split()
        if found.returncode != 0 or not principals:
            raise BundleError(
                f"{shown} is not signed by a key this tray trusts (the keys in {signers}); "
                "nothing was unpacked"
            )
        for principal in principals:
            checked = subprocess.run(
                ["ssh-keygen", "-Y", "verify", "-f", str(signers), "-I", principal,
                 "-n", NAMESPACE, "-s", scratch.name],
                input=manifest, capture_output=True,
            )  # fmt: skip
            if checked.returncode == 0:
                return principal
    raise BundleError(
        f"{shown} is not signed by a key this tray trusts: its signature does not verify "
        "(it was changed after signing); nothing was unpacked"
    )


def read_manifest(text: bytes, shown: str) -> dict[str, object]:
    """The signed manifest, if it is one this tray reads: every part with its SHA-256 and its
    size. One without sizes (packed before they were signed) is refused: its parts' sizes
    would be the tar's word, which nobody signed."""
    try:
        manifest = json.loads(text)
        files, sizes = manifest["files"], manifest.get("sizes")
        if manifest.get("format") != FORMAT or not isinstance(files, dict):
            raise ValueError
        for name, digest in files.items():
            if not (isinstance(name, str) and isinstance(digest, str)):
                raise ValueError
    except (ValueError, KeyError, TypeError, AttributeError):
        raise BundleError(f"{shown}'s manifest is not one this tray reads") from None
    if sizes is None:
        raise BundleError(
            f"{shown} was packed before update files declared their sizes: pack it again "
            "with this release's `tinker-tray release pack`"
        )
    if (
        not isinstance(sizes, dict)
        or set(sizes) != set(files)
        or not all(type(size) is int and size >= 0 for size in sizes.values())
    ):
        raise BundleError(f"{shown}'s manifest is not one this tray reads")
    return dict(manifest)


def _declared(manifest: dict[str, object], parts: dict[str, Part], shown: str) -> dict[str, int]:
    """The signed size of every part, each the size its header says, before a byte is copied."""
    sizes = cast(dict[str, int], manifest["sizes"])
    if set(parts) - set(SIGNED) != set(sizes):
        raise BundleError(f"{shown} does not hold exactly the files its manifest names")
    for name, size in sizes.items():
        if parts[name].size != size:
            raise BundleError(
                f"{name} in {shown} is not the file that was signed "
                f"(it is {parts[name].size} bytes; {size} were signed)"
            )
    return sizes


def _room_for(into: Path, sizes: dict[str, int], shown: str) -> None:
    needed = sum(sizes.values()) + room.MARGIN
    free = room.free(into)
    if free < needed:
        raise BundleError(room.shortage(shown, needed, free))


def _copy(data: BinaryIO, part: Part, path: Path, shown: str) -> str:
    """The part's bytes into `path` (made here, never through a link), at most its signed
    size; returns their SHA-256."""
    digest = hashlib.sha256()
    data.seek(part.offset)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
    with open(os.open(path, flags, 0o644), "wb") as out:
        left = part.size
        while left:
            block = data.read(min(BLOCK, left))
            if not block:
                raise _cut_short(shown, part.name)
            out.write(block)
            digest.update(block)
            left -= len(block)
    return digest.hexdigest()


def _unpack_parts(
    data: BinaryIO, parts: dict[str, Part], digests: dict[str, str], into: Path, shown: str
) -> None:
    """Every signed part into `into` (a folder of the update's own, empty: each part's folders
    are made here, each file created new), removed again on any refusal."""
    made: list[Path] = []
    try:
        for name, digest in sorted(digests.items()):
            path = into / name
            for folder in reversed(path.relative_to(into).parents[:-1]):
                if not (into / folder).is_dir():
                    (into / folder).mkdir()
                    made.append(into / folder)
            made.append(path)
            if _copy(data, parts[name], path, shown) != digest:
                raise BundleError(f"{name} in {shown} is not the file that was signed")
    except BaseException:
        for path in reversed(made):
            with contextlib.suppress(OSError):
                if path.is_dir():
                    path.rmdir()
                else:
                    path.unlink()
        raise


def unpack(file: Path, into: Path, name: str | None = None) -> dict[str, object]:
    """The update file's parts into `into`, checked; returns its manifest. `name`: what the
    sentences call it (an upload read through its descriptor has no name of its own)."""
    shown = name or file.name
    try:
        with open(os.open(file, os.O_RDONLY | os.O_NONBLOCK), "rb") as data:  # a pipe: no wait
            info = os.fstat(data.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise BundleError(f"{shown} is not an update file (not a plain file)")
            if info.st_size > MAX_FILE:
                raise BundleError(
                    f"{shown} is {info.st_size / 1e6:.0f} MB, more than an update file can be"
                )
            parts = read_parts(data, info.st_size, shown)
            for needed in (*SIGNED, "release.bundle"):
                if needed not in parts:
                    raise _refused(shown, f"no {needed} in it")
            text, signature = (_small(data, parts[one], shown) for one in SIGNED)
            verify_signature(text, signature, releases.allowed_signers(), shown)
            manifest = read_manifest(text, shown)
            sizes = _declared(manifest, parts, shown)
            _room_for(into, sizes, shown)
            _unpack_parts(data, parts, cast(dict[str, str], manifest["files"]), into, shown)
    except OSError as exc:
        raise BundleError(f"{shown} could not be unpacked: {exc.strerror or exc}") from None
    return manifest


@dataclass(frozen=True)
class Handed:
    """What an update file hands the release's set-up: its wheels (the environment pip runs
    with) and its compiled engine (None: the set-up compiles it, or reuses the running one)."""

    setup_env: dict[str, str]
    compiled: Path | None = None
    tag: str = ""
    commit: str = ""


@contextlib.contextmanager
def unpacked(
    file: Path, home: Path, say: Callable[[str], None], name: str | None = None
) -> Iterator[tuple[Path, Handed]]:
    """(the release bundle to fetch from, what its set-up is handed), from a verified update
    file; unpacked beside `home`'s slots (on the card), removed afterwards."""
    where = home / ".releases"
    where.mkdir(exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="incoming-", dir=where))
    try:
        folder.chmod(0o755)
        say(f"checking the update file {name or file.name} ...")
        manifest = unpack(file, folder, name)
        say(f"the update file is signed and whole: {manifest.get('tag', '?')}")
        wheels = folder / "wheels"
        wheels.mkdir(exist_ok=True)  # (a file of the release alone: pip finds nothing there)
        engine = folder / compiled.PREFIX
        env = {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheels)}
        yield (
            folder / "release.bundle",
            Handed(
                env,
                engine if engine.is_dir() else None,
                str(manifest.get("tag", "")),
                str(manifest.get("commit", "")),
            ),
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def manifest_text(tag: str, commit: str, parts: dict[str, Path]) -> str:
    """The manifest of `parts` (name in the file: its path here). "files" keeps the shape
    trays before "sizes" read, so their updaters still install a file packed today."""
    return json.dumps(
        {
            "format": FORMAT,
            "tag": tag,
            "commit": commit,
            "files": {name: _sha256(path) for name, path in parts.items()},
            "sizes": {name: path.stat().st_size for name, path in parts.items()},
        },
        indent=1,
    )


def sign(manifest: Path, key: Path) -> Path:
    """MANIFEST.sig beside `manifest`, made with the maintainer's key."""
    signed = subprocess.run(
        ["ssh-keygen", "-Y", "sign", "-q", "-f", str(key), "-n", NAMESPACE, str(manifest)],
        capture_output=True,
        text=True,
    )
    if signed.returncode != 0:
        raise BundleError(f"ssh-keygen could not sign: {signed.stderr.strip()[-300:]}")
    return manifest.with_name(manifest.name + ".sig")


def pack(
    home: Path,
    tag: str,
    key: Path,
    wheels: Path,
    out: Path,
    say: Callable[[str], None],
    engine: Path | None = None,
) -> None:
    """Write the update file for release `tag` (a maintainer's step: docs/release.md), with
    the compiled engine in `engine` (a `build/mypyc`, checked by the caller) if given."""
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
        parts = {"release.bundle": bundle}
        for wheel in sorted(wheels.glob("*.whl")):
            if not PART.fullmatch(f"wheels/{wheel.name}"):
                raise BundleError(f"{wheel.name} is not a name an update file can carry")
            parts[f"wheels/{wheel.name}"] = wheel
        wheel_count = len(parts) - 1
        if engine is not None:
            try:
                parts.update(compiled.parts(engine))
            except compiled.CompiledError as exc:
                raise BundleError(str(exc)) from None
        manifest = folder / "MANIFEST"
        manifest.write_text(manifest_text(tag, commit, parts))
        signature = sign(manifest, key)
        partial = out.with_name(out.name + ".part")
        with tarfile.open(partial, "w:", dereference=True) as tar:
            for name, path in {"MANIFEST": manifest, "MANIFEST.sig": signature, **parts}.items():
                tar.add(path, arcname=name)
        os.replace(partial, out)
        carried = ", the compiled engine" if engine is not None else ""
        say(
            f"{out}: {tag} ({commit[:12]}), {wheel_count} wheels{carried}, "
            f"{out.stat().st_size / 1e6:.1f} MB"
        )
