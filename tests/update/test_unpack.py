"""Issue 48, item 4: an update file is judged by its headers and its signature before a byte of
it is written, and what is written is at most what was signed and what the card has room for.
A 10 KB tar with a 20 GB sparse member once filled a 300 MB card; each case here leaves the
folder it was unpacked into empty."""

from __future__ import annotations

import os
import tarfile
from pathlib import Path

import pytest

from tests.update.update_files import (
    GIGABYTES_20,
    PARTS,
    WHEEL,
    Maker,
    Member,
    bytes_under,
    make_maker,
    sparse_update_file,
    write,
)
from updater import bundle, room
from updater.bundle import BundleError, unpack

NAME = "tinker-tray-v1.1.0.update"


@pytest.fixture
def maker(tmp_path, monkeypatch) -> Maker:
    made = make_maker(tmp_path / "keys")
    monkeypatch.setenv("TINKER_TRAY_ALLOWED_SIGNERS", str(made.signers))
    return made


@pytest.fixture
def into(tmp_path) -> Path:
    folder = tmp_path / "incoming"
    folder.mkdir()
    return folder


def refused(file: Path, into: Path) -> str:
    """The one sentence `file` is refused with; nothing may be left in `into`."""
    with pytest.raises(BundleError) as caught:
        unpack(file, into)
    said = str(caught.value)
    assert said and "\n" not in said
    assert sorted(into.rglob("*")) == [] and bytes_under(into) == 0
    return said


def test_a_good_update_file_gives_its_signed_parts_and_nothing_else(maker, into, tmp_path):
    file = write(tmp_path / NAME, maker.members())
    manifest = unpack(file, into)
    assert manifest["tag"] == "v1.1.0" and manifest["sizes"] == {
        name: len(data) for name, data in PARTS.items()
    }
    assert {str(p.relative_to(into)) for p in into.rglob("*") if p.is_file()} == set(PARTS)
    for name, data in PARTS.items():
        assert (into / name).read_bytes() == data


ENGINE = {
    "mypyc/engine/SOURCES": b"errors.py 00 1 1\n",
    "mypyc/engine/disney/game.cpython-313-aarch64-linux-gnu.so": b"\x7fELF a module",
    "mypyc/0123__mypyc.cpython-313-aarch64-linux-gnu.so": b"\x7fELF the group",
}


def test_a_compiled_engine_unpacks_into_its_own_folders(maker, into, tmp_path):
    parts = {**PARTS, **ENGINE}
    unpack(write(tmp_path / NAME, maker.members(parts)), into)
    for name, data in parts.items():
        assert (into / name).read_bytes() == data


def test_a_refused_engine_part_takes_its_folders_with_it(maker, into, tmp_path):
    parts = {**PARTS, **ENGINE}
    members = maker.members(parts)
    changed = next(m for m in members if m.name.endswith("game.cpython-313-aarch64-linux-gnu.so"))
    changed.data = changed.data.replace(b"module", b"MODULE")
    said = refused(write(tmp_path / NAME, members), into)
    assert "mypyc/engine/disney/game.cpython-313-aarch64-linux-gnu.so" in said
    assert "is not the file that was signed" in said


@pytest.mark.parametrize("form", ["gnu", "pax"])
def test_a_20_gb_sparse_member_in_a_10_kb_file_writes_nothing(maker, into, tmp_path, form):
    """The issue's case, made as tar -S makes it: GNU's sparse type, or pax's GNU.sparse map."""
    file = sparse_update_file(maker, tmp_path / NAME, form)
    assert file.stat().st_size < 64 * 1024
    said = refused(file, into)
    assert said == f"{NAME} is not an update file (its release.bundle is a sparse file)"


@pytest.mark.parametrize(
    "pax",
    [
        {"GNU.sparse.map": "0,10", "GNU.sparse.size": str(GIGABYTES_20)},
        {"GNU.sparse.size": str(GIGABYTES_20), "GNU.sparse.numblocks": "1"},
        {"GNU.sparse.major": "1", "GNU.sparse.minor": "0", "GNU.sparse.realsize": "9"},
    ],
    ids=["pax-0.1", "pax-0.0", "pax-1.0-broken"],
)
def test_a_member_with_any_sparse_map_is_refused(maker, into, tmp_path, pax):
    members = maker.members()
    members[2] = Member("release.bundle", PARTS["release.bundle"], pax=pax)
    said = refused(write(tmp_path / NAME, members), into)
    assert said.startswith(f"{NAME} is not an update file (")


def test_an_unsigned_file_is_refused_before_any_part_is_unpacked(maker, into, tmp_path, mocker):
    copy = mocker.spy(bundle, "_copy")
    file = write(tmp_path / NAME, maker.members(key=maker.stranger))
    said = refused(file, into)
    assert said == (
        f"{NAME} is not signed by a key this tray trusts (the keys in {maker.signers}); "
        "nothing was unpacked"
    )
    assert copy.call_count == 0


def test_a_manifest_changed_after_signing_is_refused_before_any_part(maker, into, tmp_path, mocker):
    copy = mocker.spy(bundle, "_copy")
    members = maker.members()
    members[0].data = members[0].data.replace(b"v1.1.0", b"v9.9.9")
    said = refused(write(tmp_path / NAME, members), into)
    assert said.startswith(f"{NAME} is not signed by a key this tray trusts: its signature")
    assert copy.call_count == 0


def test_a_file_without_its_signature_is_refused(maker, into, tmp_path):
    members = [m for m in maker.members() if m.name != "MANIFEST.sig"]
    said = refused(write(tmp_path / NAME, members), into)
    assert said == f"{NAME} is not an update file (no MANIFEST.sig in it)"


@pytest.mark.parametrize(
    ("member", "why"),
    [
        (Member(WHEEL, type=tarfile.SYMTYPE, link="/etc/x"), f"its {WHEEL} is a symbolic link"),
        (Member(WHEEL, type=tarfile.LNKTYPE, link="MANIFEST"), f"its {WHEEL} is a hard link"),
        (Member("wheels", type=tarfile.DIRTYPE), "it holds 'wheels'"),
        (Member(WHEEL, type=tarfile.FIFOTYPE), f"its {WHEEL} is a pipe"),
        (Member(WHEEL, b"x", type=tarfile.CONTTYPE), f"its {WHEEL} is not a plain file"),
        (Member("../../etc/evil", b"x"), "it holds '../../etc/evil'"),
        (Member("wheels/../../evil.whl", b"x"), "it holds 'wheels/../../evil.whl'"),
        (Member("/etc/evil", b"x"), "it holds '/etc/evil'"),
        (Member("/MANIFEST", b"x"), "it holds '/MANIFEST'"),
        (Member("release.bundle", b"again"), "it holds release.bundle twice"),
        (Member("MANIFEST", b"{}"), "it holds MANIFEST twice"),
        (Member("x", pax={"path": "../x"}), "it holds '../x'"),
        (Member("mypyc/../../evil.so", b"x"), "it holds 'mypyc/../../evil.so'"),
        (Member("mypyc/engine/.hidden", b"x"), "it holds 'mypyc/engine/.hidden'"),
        (Member("mypyc/a/b/c/d/deep.so", b"x"), "it holds 'mypyc/a/b/c/d/deep.so'"),
    ],
    ids=["symlink", "hardlink", "folder", "fifo", "contiguous", "dotdot", "dotdot-wheel",
         "absolute", "absolute-manifest", "duplicate", "duplicate-manifest", "pax-path",
         "dotdot-engine", "hidden-engine", "deep-engine"],
)  # fmt: skip
def test_a_member_that_is_no_plain_part_is_refused(maker, into, tmp_path, member, why):
    said = refused(write(tmp_path / NAME, [*maker.members(), member]), into)
    assert said == f"{NAME} is not an update file ({why})"
    assert not (tmp_path / "etc").exists() and not (tmp_path / "evil.whl").exists()


def test_a_member_larger_than_signed_is_refused_before_a_byte(maker, into, tmp_path, mocker):
    copy = mocker.spy(bundle, "_copy")
    members = maker.members()
    members[2].data += b"more than was signed" * 1000
    said = refused(write(tmp_path / NAME, members), into)
    signed = len(PARTS["release.bundle"])
    assert said == (
        f"release.bundle in {NAME} is not the file that was signed "
        f"(it is {signed + 20_000} bytes; {signed} were signed)"
    )
    assert copy.call_count == 0


def test_a_part_changed_but_not_resized_is_refused_and_removed(maker, into, tmp_path):
    members = maker.members()
    members[3].data = members[3].data.upper()
    said = refused(write(tmp_path / NAME, members), into)
    assert said == f"{WHEEL} in {NAME} is not the file that was signed"


@pytest.mark.parametrize("short", [1, 500, 880, 880 + 100])
def test_a_truncated_file_is_refused(maker, into, tmp_path, short):
    """Cut inside the last part (880 bytes) or inside its header: refused, whatever was cut."""
    members = maker.members()
    members.append(members.pop(2))
    whole = write(tmp_path / "whole", members)
    with tarfile.open(whole) as tar:
        last = tar.getmembers()[-1]
    file = write(tmp_path / NAME, members, keep=last.offset_data + last.size - short)
    said = refused(file, into)
    assert said.startswith(f"{NAME} is ")
    if short <= 880:
        assert said == (
            f"{NAME} is cut short: its release.bundle ends after the file does (copy it again)"
        )


def test_a_header_claiming_20_gb_in_a_10_kb_file_is_cut_short(maker, into, tmp_path):
    members = maker.members()
    members[2] = Member("release.bundle", PARTS["release.bundle"], size=GIGABYTES_20)
    file = write(tmp_path / NAME, members)
    assert file.stat().st_size < 16 * 1024
    said = refused(file, into)
    assert said == (
        f"{NAME} is cut short: its release.bundle ends after the file does (copy it again)"
    )


def test_a_file_that_does_not_fit_in_the_free_room_writes_nothing(maker, into, tmp_path, mocker):
    mocker.patch.object(room, "free", return_value=30_000_000)
    said = refused(write(tmp_path / NAME, maker.members()), into)
    needed = room.megabytes(sum(len(data) for data in PARTS.values()) + room.MARGIN)
    assert said == (
        f"not enough room on the card for {NAME}: it needs about {needed}, 30 MB free "
        "(nothing was changed)"
    )


def test_a_manifest_without_sizes_is_refused_with_what_to_do(maker, into, tmp_path):
    """Packed before sizes were signed: the tar's own sizes are nobody's word, so such a file
    is refused, and the sentence says how to make one this tray takes."""
    said = refused(write(tmp_path / NAME, maker.members(sizes=False)), into)
    assert said.startswith(f"{NAME} was packed before update files declared their sizes")


def test_a_manifest_larger_than_a_manifest_can_be_is_not_read(maker, into, tmp_path):
    members = maker.members()
    members[0].data += b" " * bundle.MAX_SIGNED
    said = refused(write(tmp_path / NAME, members), into)
    assert said.startswith(f"{NAME} is not an update file (its MANIFEST is ")


def test_a_pax_header_claiming_a_gigabyte_is_not_read_into_memory(maker, into, tmp_path):
    members = maker.members()
    members.insert(0, Member("MANIFEST", type=tarfile.XHDTYPE, size=1 << 30))
    said = refused(write(tmp_path / NAME, members), into)
    assert said == f"{NAME} is not an update file (its headers are too large)"


@pytest.mark.parametrize("content", [b"", b"\0" * 10240, b"not a tar at all" * 100])
def test_what_is_no_tar_is_one_sentence(maker, into, tmp_path, content):
    (tmp_path / NAME).write_bytes(content)
    assert refused(tmp_path / NAME, into).startswith(f"{NAME} is not an update file (")


def test_a_folder_or_a_pipe_is_not_read(maker, into, tmp_path):
    os.mkfifo(tmp_path / "pipe.update")
    assert "is not an update file (not a plain file)" in refused(tmp_path / "pipe.update", into)


def test_pack_signs_every_size_and_follows_a_linked_wheel(maker, tmp_path):
    """`pack`'s file is what `unpack` takes (with a wheel that is a link, as pip's cache
    leaves them, packed as the file it names)."""
    from tests.update.helpers import git

    origin = tmp_path / "origin"
    origin.mkdir()
    git(origin, "init", "-q")
    (origin / "NEWS").write_text("v1.1.0\n")
    git(origin, "add", "NEWS")
    git(origin, "commit", "-qm", "Release")
    git(origin, "tag", "-a", "v1.1.0", "-m", "tinker-tray v1.1.0")
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    (tmp_path / "real.whl").write_bytes(b"PK a wheel")
    (wheels / "colorzero-2.0-py2.py3-none-any.whl").symlink_to(tmp_path / "real.whl")
    out = tmp_path / NAME
    bundle.pack(origin, "v1.1.0", maker.key, wheels, out, lambda line: None)
    into = tmp_path / "into"
    into.mkdir()
    manifest = unpack(out, into)
    assert manifest["sizes"][WHEEL] == len(b"PK a wheel")  # type: ignore[index]
    assert (into / WHEEL).read_bytes() == b"PK a wheel" and not (into / WHEEL).is_symlink()
