"""`tinker-tray release pack TAG --key KEY`: a maintainer's update file for trays with no network.

The release itself is a signed tag (`git tag -s`, docs/release.md): this command signs no tag.
It packs that tag with the wheels its set-up needs on the trays' Python and architecture
(downloaded by pip for that target, or taken from --wheels DIR) and, with --engine DIR, the
compiled engine the image build made for the tag, into one file whose manifest it signs with
--key (`ssh-keygen -Y sign`, namespace tinker-tray-update). The tag, the key, the engine and
the free room are checked before a wheel is downloaded (`pack_problem`, `room_problem`,
`engine_problem`): a missing tag, key or megabyte is one sentence, not the end of a long
download. `--help` says what each is (NEEDS).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]
PI_PLATFORMS = ("manylinux_2_17_aarch64", "manylinux2014_aarch64", "manylinux_2_28_aarch64",
                "linux_aarch64")  # fmt: skip
BUILD_TOOLS = ("pip", "setuptools>=68,<85", "mypy>=1.13,<3")
"""What the set-up itself installs besides the release's requirements (the engine's compiler).
A file that carries the compiled engine leaves mypy out (13 MB of its 34: under emulation the
download alone took 130 s)."""
ROOM_MB = 100
"""Free megabytes pack needs where the file goes and in the temporary folder: the wheels (23 MB
for Python 3.13 on aarch64, 26 of them, measured for this checkout's requirements), the tag's
git bundle (8 MB for this repository's history) and the update file holding both (31 MB), with
room for the requirements to grow."""
NEEDS = f"""\
what it needs:
  a key      --key is an SSH private key (ssh-keygen -t ed25519 -f ~/.ssh/tinker-tray-release)
             whose public half is in the trays' allowed signers; without one pack refuses, as a
             tray installs only an update file whose manifest a key it trusts signed.
  a tag      TAG is the release's tag, vX.Y or vX.Y.Z, signed beforehand with an SSH key
             (git -c gpg.format=ssh -c user.signingkey=KEY tag -s vX.Y.Z); pack signs no tag,
             and refuses one that is missing, unsigned or named otherwise.
  free room  pack needs about {ROOM_MB} MB free where --out goes and in the temporary folder
             ($TMPDIR) for the wheels, the tag's bundle and the file, and checks it before any
             download.
docs/release.md says each step.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = NEEDS
    parser.formatter_class = argparse.RawDescriptionHelpFormatter  # NEEDS keeps its lines
    parser.add_argument(
        "action",
        choices=["pack"],
        help="pack: write an update file of a signed tag (the tag is signed beforehand, with "
        "git tag -s: docs/release.md)",
    )
    parser.add_argument(
        "tag",
        help="the signed release tag, vX.Y or vX.Y.Z, e.g. v1.2.0 (checked before any download; "
        "against $TINKER_TRAY_ALLOWED_SIGNERS or /etc/tinker-tray/allowed_signers when there is "
        "one)",
    )
    parser.add_argument(
        "--key",
        type=Path,
        required=True,
        help="the SSH private key that signs the update file's manifest (the tag's key, or one "
        "allowed for the tinker-tray-update namespace); required",
    )
    parser.add_argument("--out", type=Path, help="the file (default: tinker-tray-TAG.update)")
    parser.add_argument(
        "--wheels", type=Path, metavar="DIR", help="take the wheels from DIR instead of PyPI"
    )
    parser.add_argument(
        "--repo", type=Path, default=CHECKOUT, help="the repository holding TAG (default: this one)"
    )
    parser.add_argument(
        "--python", default="3.13", help="the trays' Python (default 3.13, Debian trixie's)"
    )
    parser.add_argument(
        "--engine",
        type=Path,
        metavar="DIR",
        help="the compiled engine for the tag on the trays (a build/mypyc folder: the image "
        "build writes one beside the image), so that their update compiles nothing",
    )
    parser.add_argument(
        "--machine", default="aarch64", help="the trays' machine, for --engine (default aarch64)"
    )


def download_wheels(python: str, into: Path, *, compiler: bool = True) -> None:
    """The project's requirements and the set-up's tools, as wheels for a Pi (aarch64)."""
    import tomllib

    project = tomllib.loads((CHECKOUT / "pyproject.toml").read_text())["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"].get("pi", []),
              *(t for t in BUILD_TOOLS if compiler or not t.startswith("mypy"))]  # fmt: skip
    platforms = [arg for name in PI_PLATFORMS for arg in ("--platform", name)]
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--only-binary=:all:",
         *platforms, "--python-version", python, "--implementation", "cp",
         "-d", str(into), *wanted],
        check=True,
    )  # fmt: skip


def pack_problem(repo: Path, tag: str, key: Path) -> str | None:
    """Why `pack` cannot make a file trays would take, as far as can be known before the wheels
    are downloaded: no such tag, a tag that is not SSH-signed (or, when this machine has an
    allowed-signers file, not by a key in it), a key ssh-keygen cannot sign with. None: go on."""
    from updater.releases import ReleaseError, Repository, allowed_signers, version_of

    repository = Repository(repo)
    if repository.git("rev-parse", "--git-dir", check=False).returncode != 0:
        return f"{repo} is not a git repository (--repo names the one holding the tag)"
    if version_of(tag) is None:
        return f"{tag} is not a release tag (vX.Y or vX.Y.Z): trays install only those"
    ref = f"refs/tags/{tag}"
    kind = repository.git("cat-file", "-t", ref, check=False).stdout.strip()
    if not kind:
        return f"{repo} has no tag {tag} (sign it first: git tag -s {tag}, docs/release.md)"
    body = repository.git("cat-file", "tag", ref, check=False).stdout if kind == "tag" else ""
    if "-----BEGIN SSH SIGNATURE-----" not in body:
        return (
            f"the tag {tag} is not signed with an SSH key (git tag -s, gpg.format=ssh): "
            "trays install only signed tags"
        )
    try:
        signers: Path | None = allowed_signers()
    except ReleaseError:
        signers = None  # a maintainer's machine need not have one: the trays check it
    if signers is not None:
        try:
            repository.verify(ref, signers)
        except ReleaseError as exc:
            return f"trays would refuse the tag: {exc}"
    return key_problem(key)


def key_problem(key: Path) -> str | None:
    """Why ssh-keygen could not sign with `key`, if it can be told without its passphrase."""
    if not key.is_file():
        return f"there is no key file at {key} (--key: the SSH key that signs the update file)"
    read = subprocess.run(["ssh-keygen", "-l", "-f", str(key)], capture_output=True, text=True)
    if read.returncode != 0:
        return f"{key} is not an SSH key ssh-keygen can read (--key)"
    with key.open("rb") as file:
        private = b"PRIVATE KEY-----" in file.readline()
    if private and key.stat().st_mode & 0o077:
        return (
            f"{key} can be read by others (mode {key.stat().st_mode & 0o777:o}), so ssh-keygen "
            f"will not sign with it: chmod 600 {key}"
        )
    return None


def engine_problem(
    repo: Path, tag: str, engine: Path | None, python: str, machine: str
) -> str | None:
    """Why the compiled engine named is not the tag's on the trays (None: none named, or it is)."""
    from updater import compiled

    if engine is None:
        return None
    try:
        compiled.parts(engine)
    except compiled.CompiledError as exc:
        return str(exc)
    return compiled.mismatch(repo, tag, engine, python, machine)


def free_mb(folder: Path) -> int:
    """Megabytes free on the file system of `folder` (one place to ask, so the tests can say)."""
    return shutil.disk_usage(folder).free // 1_000_000


def room_problem(out: Path) -> str | None:
    """Why pack has no room for its work, before anything is downloaded: ROOM_MB are needed
    where `out` goes and in the temporary folder (the wheels and the bundle are made there)."""
    folder = out.parent
    if not folder.is_dir():
        return f"there is no folder {folder} for the update file (--out)"
    for where in dict.fromkeys([folder.resolve(), Path(tempfile.gettempdir()).resolve()]):
        if (left := free_mb(where)) < ROOM_MB:
            return (
                f"not enough room for the update file: pack needs about {ROOM_MB} MB free in "
                f"{where}, and {left} MB are free"
            )
    return None


def run(args: argparse.Namespace) -> int:
    from updater.bundle import BundleError, pack

    out = args.out or Path(f"tinker-tray-{args.tag}.update")
    problem = (
        pack_problem(args.repo, args.tag, args.key)
        or room_problem(out)
        or engine_problem(args.repo, args.tag, args.engine, args.python, args.machine)
    )
    if problem:  # before any download
        print(f"tinker-tray release: {problem}; nothing was downloaded or packed", file=sys.stderr)
        return 1
    try:
        if args.wheels is not None:
            pack(args.repo, args.tag, args.key, args.wheels, out, print, args.engine)
            return 0
        with tempfile.TemporaryDirectory(prefix="tinker-wheels-") as folder:
            download_wheels(args.python, Path(folder), compiler=args.engine is None)
            pack(args.repo, args.tag, args.key, Path(folder), out, print, args.engine)
    except (BundleError, subprocess.CalledProcessError) as exc:
        print(f"tinker-tray release: {exc}", file=sys.stderr)
        return 1
    return 0
