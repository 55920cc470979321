"""The update file: one signed file for a tray with no network to its origin. Verified whole
(signature, every part's hash) before anything in it is used; then the same slots and trial."""

from __future__ import annotations

import tarfile

import pytest

from tests.update.helpers import Bench, git, make_bench
from updater.bundle import BundleError, pack

pytestmark = pytest.mark.slow


@pytest.fixture
def bench(tmp_path) -> Bench:
    bench = make_bench(tmp_path)
    git(bench.tray, "remote", "set-url", "origin", str(tmp_path / "unreachable"))
    return bench


def packed(bench: Bench, tag: str, *, key=None) -> tuple[str, object]:
    wheels = bench.origin.parent / "wheels"
    wheels.mkdir(exist_ok=True)
    (wheels / "colorzero-2.0-py2.py3-none-any.whl").write_bytes(b"PK a wheel stand-in")
    out = bench.origin.parent / f"tinker-tray-{tag}.update"
    pack(bench.origin, tag, key or bench.key, wheels, out, lambda line: None)
    return str(out), out


def test_an_update_file_installs_with_no_network(bench):
    commit = bench.release("v1.1.0")
    name, _ = packed(bench, "v1.1.0")
    offline = bench.update()  # the origin cannot be reached: one sentence, nothing changed
    assert offline.returncode == 1 and "git fetch failed" in offline.stderr
    done = bench.update("--file", name)
    assert done.returncode == 0, done.stderr
    assert "the update file is signed and whole: v1.1.0" in done.stderr
    assert bench.version() == f"tinker-tray v1.1.0 ({commit[:12]})"
    assert bench.serves()
    assert not list((bench.tray / ".releases").glob("incoming-*"))  # unpacked, then removed


def test_an_update_file_with_one_changed_byte_is_refused(bench):
    bench.release("v1.1.0")
    _, out = packed(bench, "v1.1.0")
    data = bytearray(out.read_bytes())
    spot = data.index(b"a wheel stand-in")
    data[spot] ^= 0x01
    out.write_bytes(bytes(data))
    running = bench.version()
    done = bench.update("--file", str(out))
    assert done.returncode == 1
    assert "wheels/colorzero-2.0-py2.py3-none-any.whl" in done.stderr
    assert "is not the file that was signed" in done.stderr
    assert bench.slots() == [] and bench.version() == running


def test_an_update_file_signed_by_a_stranger_is_refused(bench):
    bench.release("v1.1.0", key=bench.stranger)
    _, out = packed(bench, "v1.1.0", key=bench.stranger)
    done = bench.update("--file", str(out))
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        f"tinker-tray update: tinker-tray-v1.1.0.update is not signed by a key this tray trusts "
        f"(the keys in {bench.signers}); nothing was unpacked"
    )
    assert bench.slots() == []


@pytest.mark.parametrize(
    "content",
    [b"", b"not a tar at all" * 100, b"\x1f\x8b\x08 a gzip header and nothing"],
)
def test_a_file_that_is_no_update_file_is_one_sentence(bench, tmp_path, content):
    wrong = tmp_path / "tinker-tray-v9.update"
    wrong.write_bytes(content)
    done = bench.update("--file", str(wrong))
    assert done.returncode == 1
    assert "is not an update file" in done.stderr and "Traceback" not in done.stderr


def test_an_update_file_with_a_path_outside_is_refused(bench, tmp_path):
    hostile = tmp_path / "hostile.update"
    evil = tmp_path / "evil"
    evil.write_text("x")
    with tarfile.open(hostile, "w:") as tar:
        tar.add(evil, arcname="../../etc/evil")
    done = bench.update("--file", str(hostile))
    assert done.returncode == 1 and "is not an update file" in done.stderr
    assert not (tmp_path.parent / "etc" / "evil").exists()


def test_packing_an_unsigned_or_missing_tag_is_one_sentence(bench, tmp_path):
    with pytest.raises(BundleError, match="git bundle failed"):
        pack(bench.origin, "v7.0.0", bench.key, tmp_path, tmp_path / "x.update", print)


def test_release_pack_takes_the_tag_from_the_repository_named(bench, tmp_path):
    """A maintainer packs in the clone that holds the signed tag (--repo; the image's check
    packs from its own origin)."""
    from cli.main import main

    bench.release("v1.1.0")
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    out = tmp_path / "v1.1.0.update"
    argv = ["release", "pack", "v1.1.0", "--key", str(bench.key), "--wheels", str(wheels),
            "--repo", str(bench.origin), "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    assert tarfile.is_tarfile(out)
    assert main([*argv[:-4], "--out", str(tmp_path / "x.update")]) == 1  # this checkout: no tag
