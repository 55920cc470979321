"""Issue 50: `./tinker release --help` (and `tinker-tray release pack --help`) says in one
sentence each what pack needs (a key, a signed tag, free room), and each refusal of one that is
missing is one sentence naming it, said before any wheel is downloaded."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from cli import main as cli
from cli.commands import release
from tests.helpers.maintainer import maintainer as release_set_up
from tests.helpers.maintainer import pack_argv, sign

ROOT = Path(__file__).resolve().parents[2]
SENTENCES = {
    "key": "a key --key is an SSH private key (ssh-keygen -t ed25519 -f "
    "~/.ssh/tinker-tray-release) whose public half is in the trays' allowed signers; without "
    "one pack refuses, as a tray installs only an update file whose manifest a key it trusts "
    "signed.",
    "tag": "a tag TAG is the release's tag, vX.Y or vX.Y.Z, signed beforehand with an SSH key "
    "(git -c gpg.format=ssh -c user.signingkey=KEY tag -s vX.Y.Z); pack signs no tag, and "
    "refuses one that is missing, unsigned or named otherwise.",
    "room": f"free room pack needs about {release.ROOM_MB} MB free where --out goes and in the "
    "temporary folder ($TMPDIR) for the wheels, the tag's bundle and the file, and checks it "
    "before any download.",
}


def one_line(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("argv", [["release"], ["release", "pack"]])
def test_the_help_says_what_pack_needs_in_one_sentence_each(capsys, argv):
    with pytest.MonkeyPatch.context() as wide:
        wide.setenv("COLUMNS", "400")
        with pytest.raises(SystemExit) as ended:
            cli.main([*argv, "--help"])
    assert ended.value.code == 0
    text = one_line(capsys.readouterr().out)
    for sentence in SENTENCES.values():
        assert sentence in text


def test_tinker_release_help_is_the_commands_own():
    """`./tinker release --help` as a maintainer types it: routed to the same parser."""
    done = subprocess.run(
        [ROOT / "tinker", "release", "--help"],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "400"},
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    text = one_line(done.stdout)
    assert all(sentence in text for sentence in SENTENCES.values())


# ---------------------------------------------------------------------- the refusals
@pytest.fixture
def maintainer(tmp_path, monkeypatch) -> SimpleNamespace:
    """A repository with one commit signed as v1.0.0, the key, and trays' allowed signers of it."""
    who = release_set_up(tmp_path, monkeypatch)
    sign(who.repo, who.key, "v1.0.0")
    return who


def _pack(who: SimpleNamespace, *, tag: str = "v1.0.0", key: Path | None = None) -> list[str]:
    return pack_argv(who, tag, key)


def _one_sentence(capsys, mocker, argv: list[str]) -> str:
    download = mocker.patch.object(release, "download_wheels")
    assert cli.main(argv) == 1
    download.assert_not_called()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.endswith("; nothing was downloaded or packed\n"), err
    assert err.startswith("tinker-tray release: ") and err.count(". ") == 0, err
    return err


def test_no_key_file_is_one_sentence_naming_the_key(capsys, mocker, maintainer):
    missing = maintainer.key.with_name("no-such-key")
    err = _one_sentence(capsys, mocker, _pack(maintainer, key=missing))
    assert f"there is no key file at {missing} (--key: the SSH key that signs" in err


def test_no_key_option_is_one_line_naming_key(capsys):
    with pytest.raises(SystemExit) as ended:
        cli.main(["release", "pack", "v1.0.0"])
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert err == (
        "tinker-tray release: the following arguments are required: --key "
        "(see tinker-tray release --help)\n"
    )


def test_no_such_tag_is_one_sentence_saying_how_to_make_it(capsys, mocker, maintainer):
    err = _one_sentence(capsys, mocker, _pack(maintainer, tag="v2.0.0"))
    assert "has no tag v2.0.0 (sign it first: git tag -s v2.0.0, docs/release.md)" in err


def test_a_tag_not_named_as_a_release_is_one_sentence(capsys, mocker, maintainer):
    sign(maintainer.repo, maintainer.key, "latest")
    err = _one_sentence(capsys, mocker, _pack(maintainer, tag="latest"))
    assert "latest is not a release tag (vX.Y or vX.Y.Z): trays install only those" in err


def test_too_little_room_is_one_sentence_with_both_figures(capsys, mocker, maintainer):
    mocker.patch.object(release, "free_mb", return_value=42)
    err = _one_sentence(capsys, mocker, _pack(maintainer))
    assert (
        f"not enough room for the update file: pack needs about {release.ROOM_MB} MB free in "
        f"{maintainer.out.parent.resolve()}, and 42 MB are free" in err
    )
    assert not maintainer.out.exists()


def test_the_room_of_the_temporary_folder_is_asked_too(capsys, mocker, maintainer, tmp_path):
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    mocker.patch.object(release.tempfile, "gettempdir", return_value=str(temporary))
    mocker.patch.object(release, "free_mb", side_effect=lambda where: 10**6 * (where != temporary))
    err = _one_sentence(capsys, mocker, _pack(maintainer))
    assert f"pack needs about {release.ROOM_MB} MB free in {temporary}, and 0 MB are free" in err


def test_no_folder_for_the_file_is_one_sentence(capsys, mocker, maintainer, tmp_path):
    maintainer.out = tmp_path / "no-such-folder" / "x.update"
    err = _one_sentence(capsys, mocker, _pack(maintainer))
    assert f"there is no folder {maintainer.out.parent} for the update file (--out)" in err


def test_with_the_key_the_tag_and_the_room_pack_goes_on(capsys, mocker, maintainer):
    download = mocker.patch.object(release, "download_wheels")
    mocker.patch.object(release, "free_mb", return_value=release.ROOM_MB)
    assert cli.main(_pack(maintainer)) == 0, capsys.readouterr().err
    download.assert_called_once()
    assert maintainer.out.is_file()


def test_the_figure_of_the_help_is_the_one_checked():
    assert f"about {release.ROOM_MB} MB free" in one_line(release.NEEDS)
