"""`./tinker image build --trust FILE` (image/steps/trust.sh, image/signers.py): an SSH
allowed-signers file, each line checked, put at /etc/tinker-tray/allowed_signers (root's, 0644)
in a fake root; a line that is not a signer is one sentence and nothing is written; a build
without the option says that updates will be refused, and goes on."""

from __future__ import annotations

import base64
import os
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from tests.image.test_wifi_firmware import _build

ROOT = Path(__file__).resolve().parents[2]
STEP = ROOT / "image" / "steps" / "trust.sh"


def _key(key_type: str = "ssh-ed25519", size: int = 32) -> str:
    """A public key's base64, as ssh-keygen writes it (its type, then its bytes)."""
    blob = b"".join(struct.pack(">I", len(p)) + p for p in (key_type.encode(), b"k" * size))
    return base64.b64encode(blob).decode()


GOOD = (
    "# the maintainers of tinker-tray\n"
    f'wendy@example.org namespaces="git" ssh-ed25519 {_key()} wendy@laptop\n'
    "\n"
    f"peter@example.org,hook@example.org ssh-ed25519 {_key()}\n"
)


def _trust(dest: Path, text: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    signers = tmp_path / "allowed_signers"
    signers.write_text(text)
    return subprocess.run(["sh", STEP, dest, signers], capture_output=True, text=True)


def test_the_file_goes_to_etc_tinker_tray_readable_by_all(tmp_path):
    dest = tmp_path / "extra"
    done = _trust(dest, GOOD, tmp_path)
    assert done.returncode == 0, done.stderr
    placed = dest / "etc" / "tinker-tray" / "allowed_signers"
    assert placed.read_text() == GOOD
    assert placed.stat().st_mode & 0o777 == 0o644
    if os.getuid() == 0:
        assert (placed.stat().st_uid, placed.stat().st_gid) == (0, 0)
    assert "2 allowed signer(s)" in done.stderr


def test_the_file_is_one_git_itself_reads(tmp_path):
    """ssh-keygen, which git's verify-tag runs, finds the principal of a real key in it."""
    if not shutil.which("ssh-keygen"):
        pytest.skip("no ssh-keygen here (openssh-client)")
    key = tmp_path / "key"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key], check=True)
    public = " ".join(key.with_suffix(".pub").read_text().split()[:2])
    assert _trust(tmp_path / "extra", f"wendy@example.org {public}\n", tmp_path).returncode == 0
    (tmp_path / "tag").write_text("v1\n")
    subprocess.run(["ssh-keygen", "-q", "-Y", "sign", "-f", key, "-n", "git", tmp_path / "tag"],
                   check=True, capture_output=True)  # fmt: skip
    found = subprocess.run(
        ["ssh-keygen", "-Y", "find-principals", "-s", tmp_path / "tag.sig",
         "-f", tmp_path / "extra/etc/tinker-tray/allowed_signers"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert found.stdout.strip() == "wendy@example.org"


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("wendy@example.org", "fewer than three fields"),
        (f"wendy@example.org ssh-ed25519 {_key()[:-12]}", "not a base64 ssh-ed25519 public key"),
        (f"wendy@example.org ssh-rsa {_key()}", "not a base64 ssh-rsa public key"),
        (f"wendy@example.org ssh-dss {_key('ssh-dss')}", "neither a key type nor an option"),
        (f'wendy@example.org valid-until="2030" ssh-ed25519 {_key()}', "neither a key type"),
        ("-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAA", "neither a key type"),
        ("wendy@example.org cert-authority ssh-ed25519", "no key after its key type"),
    ],
)
def test_a_line_that_is_not_a_signer_is_one_sentence_and_nothing_is_written(tmp_path, line, why):
    dest = tmp_path / "extra"
    done = _trust(dest, GOOD + line + "\n", tmp_path)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and why in done.stderr
    assert "line 5 is not an allowed signer" in done.stderr
    assert not (dest / "etc").exists()


@pytest.mark.parametrize("text", ["", "# only a comment\n\n", "\udcff"])
def test_a_file_with_no_signer_or_not_text_is_refused(tmp_path, text):
    signers = tmp_path / "allowed_signers"
    signers.write_bytes(text.encode("utf-8", "surrogateescape"))
    done = subprocess.run(["sh", STEP, tmp_path / "extra", signers], capture_output=True,
                          text=True)  # fmt: skip
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert "no signer" in done.stderr or "not UTF-8" in done.stderr


def test_a_missing_file_or_a_folder_is_one_sentence(tmp_path):
    for path in (tmp_path / "nothing", tmp_path):
        done = subprocess.run(["sh", STEP, tmp_path / "extra", path], capture_output=True,
                              text=True)  # fmt: skip
        assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
        assert done.stderr.startswith(f"tinker image build: --trust {path}: ")


def test_a_build_without_trust_says_updates_will_be_refused_and_goes_on(tmp_path):
    done = _build(tmp_path)
    said = [line for line in done.stderr.splitlines() if "--trust" in line]
    assert len(said) == 1 and said[0].startswith(
        "tinker image build: no --trust FILE: updates will be refused: "
    )
    assert "missing host tools" in done.stderr  # it went on, to the host check


def test_a_build_with_a_bad_trust_file_stops_before_the_long_build(tmp_path):
    bad = tmp_path / "signers"
    bad.write_text("wendy@example.org\n")
    done = _build(tmp_path, "--trust", bad)
    assert done.returncode == 1
    assert "line 1 is not an allowed signer" in done.stderr
    assert "missing host tools" not in done.stderr
