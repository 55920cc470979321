"""Hostile update files, made at random from a good one: whatever the file, `unpack` ends with its
verified manifest or one sentence (BundleError, never another exception), and leaves nothing
behind but the signed parts."""

from __future__ import annotations

import tarfile
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.helpers import examples
from tests.update.update_files import PARTS, Maker, Member, bytes_under, make_maker, write
from updater.bundle import BundleError, unpack

TYPES = [tarfile.REGTYPE, tarfile.AREGTYPE, tarfile.SYMTYPE, tarfile.LNKTYPE, tarfile.DIRTYPE,
         tarfile.FIFOTYPE, tarfile.CONTTYPE, tarfile.GNUTYPE_SPARSE, tarfile.XHDTYPE,
         tarfile.XGLTYPE, tarfile.GNUTYPE_LONGNAME, b"Z"]  # fmt: skip
NAMES = ["MANIFEST", "MANIFEST.sig", "release.bundle", "wheels/x-1-py3-none-any.whl", "../x",
         "/MANIFEST", "wheels/../../x.whl", "wheels", "./MANIFEST", "MANIFEST/"]  # fmt: skip
PAX = st.dictionaries(
    st.sampled_from(["size", "path", "linkpath", "GNU.sparse.map", "GNU.sparse.size",
                     "GNU.sparse.major", "GNU.sparse.minor", "GNU.sparse.realsize", "mtime"]),
    st.sampled_from(["0", "1", "10", "-1", str(20 * 1024**3), "0,10", "../x", "x", "1e9"]),
    max_size=3,
)  # fmt: skip
SIGNED_BYTES = sum(len(data) for data in PARTS.values())


@pytest.fixture(scope="module")
def maker(tmp_path_factory):
    made = make_maker(tmp_path_factory.mktemp("keys"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TINKER_TRAY_ALLOWED_SIGNERS", str(made.signers))
        made.good = made.members()  # type: ignore[attr-defined]
        yield made


def changed(member: Member, how: dict) -> Member:
    return Member(
        how.get("name", member.name),
        how.get("data", member.data),
        how.get("type", member.type),
        how.get("size"),
        how.get("link", ""),
        how.get("pax"),
    )


CHANGE = st.fixed_dictionaries(
    {},
    optional={
        "name": st.sampled_from(NAMES),
        "data": st.binary(max_size=600),
        "type": st.sampled_from(TYPES),
        "size": st.sampled_from([0, 1, 511, 513, 10**6, 20 * 1024**3, 8**11]),
        "link": st.sampled_from(["MANIFEST", "/etc/shadow", "../x"]),
        "pax": PAX,
    },
)
HEADER = st.tuples(st.binary(min_size=512, max_size=512), st.sampled_from(TYPES),
                   st.sampled_from([b"0", b"1000", b"77777777777", b"x"]))  # fmt: skip
"""A header block of random bytes with a type, a size and a checksum tarfile takes: what
reaches its parsers of pax records, long names and sparse maps."""
HOSTILE = st.tuples(
    st.lists(st.tuples(st.integers(0, 8), CHANGE), max_size=3),  # members changed or added
    st.lists(HEADER, max_size=3),  # raw headers after the members
    st.lists(st.tuples(st.integers(0, 12000), st.integers(0, 255)), max_size=2),  # bytes flipped
    st.one_of(st.none(), st.integers(0, 12000)),  # cut after
)


def block(raw: bytes, kind: bytes, size: bytes) -> bytes:
    """`raw` as a header tarfile reads: its type, its size, its checksum right."""
    header = bytearray(raw)
    header[156:157] = kind
    header[124:136] = size.rjust(11, b"0")[:11] + b"\0"
    header[148:156] = b" " * 8
    header[148:156] = b"%06o\0 " % sum(header)
    return bytes(header)


def hostile(maker: Maker, folder: Path, changes, headers, flips, keep) -> Path:
    members = list(maker.good)  # type: ignore[attr-defined]
    for where, how in changes:
        if where < len(members):
            members[where] = changed(members[where], how)
        else:
            members.append(changed(Member("wheels/x-1-py3-none-any.whl", b"PK"), how))
    file = write(folder / "hostile.update", members)
    data = bytearray(file.read_bytes())
    end = -(-len(data.rstrip(b"\0")) // 512) * 512  # where the end-of-archive blocks begin
    data[end:end] = b"".join(block(*header) for header in headers)
    data = data[:keep]
    for spot, value in flips:
        if spot < len(data):
            data[spot] = value
    file.write_bytes(bytes(data))
    return file


@settings(
    max_examples=examples(80),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(HOSTILE)
def test_every_hostile_file_is_a_manifest_or_one_sentence(maker, case):
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        file = hostile(maker, folder, *case)
        into = folder / "incoming"
        into.mkdir()
        try:
            manifest = unpack(file, into)
        except BundleError as exc:
            said = str(exc)
            event(said.replace(str(file), "FILE")[:60])
            assert said.strip() and "\n" not in said and len(said) < 600, said
            assert not [p for p in into.rglob("*") if not p.is_dir()], said
            assert bytes_under(into) == 0
        else:
            event("unpacked")
            assert manifest["format"] == "tinker-tray-update"
            written = {str(p.relative_to(into)) for p in into.rglob("*") if p.is_file()}
            assert written == set(manifest["files"])  # type: ignore[arg-type]
            assert bytes_under(into) <= SIGNED_BYTES + 4096 * len(written)
