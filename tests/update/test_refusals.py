"""Issue 48, item 7: a refused update says in its last line what was refused and why, so the
page (which shows the last line) and a family reading it over the phone need nothing more: the
release or the update file by name, and "not signed by a key this tray trusts" or the room it
needs against the room there is. Run in this process (`cli.main`), so they check this work
tree's updater, not the committed one a bench's tray is cloned from."""

from __future__ import annotations

import pytest

from cli.main import main
from tests.update.helpers import Bench, make_bench
from tests.update.test_update_file import packed
from updater import room

pytestmark = pytest.mark.slow


@pytest.fixture
def bench(tmp_path, monkeypatch) -> Bench:
    bench = make_bench(tmp_path)
    monkeypatch.setenv("TINKER_TRAY_HOME", str(bench.tray))
    monkeypatch.setenv("TINKER_TRAY_ALLOWED_SIGNERS", str(bench.signers))
    return bench


def last_line(capsys, *argv: str) -> str:
    assert main(["update", *argv]) == 1
    return capsys.readouterr().err.strip().splitlines()[-1]


def test_tags_signed_by_a_stranger_are_named_with_why_in_the_last_line(bench, capsys):
    bench.release("v1.1.0", key=bench.stranger)
    bench.release("v1.2.0", key=bench.stranger)
    running = bench.version().removeprefix("tinker-tray ")
    assert last_line(capsys) == (
        "tinker-tray update: no newer release could be trusted: v1.2.0 is not signed by a key "
        f"this tray trusts (the keys in {bench.signers}) (and 1 older refused, above); "
        f"still running the {running}"
    )


def test_an_update_file_signed_by_a_stranger_is_named_in_the_last_line(bench, capsys):
    bench.release("v1.1.0", key=bench.stranger)
    name, _ = packed(bench, "v1.1.0", key=bench.stranger)
    assert last_line(capsys, "--file", name) == (
        "tinker-tray update: tinker-tray-v1.1.0.update is not signed by a key this tray trusts "
        f"(the keys in {bench.signers}); nothing was unpacked"
    )
    assert not list((bench.tray / ".releases").glob("incoming-*"))


def test_a_card_without_room_names_the_release_and_the_figures(bench, capsys, mocker):
    commit = bench.release("v1.1.0")
    mocker.patch.object(room, "free", return_value=30_000_000)
    mocker.patch.object(room, "room_needed", return_value=120_000_000)
    assert last_line(capsys) == (
        f"tinker-tray update: not enough room on the card for v1.1.0 ({commit[:12]}): it needs "
        "about 120 MB, 30 MB free (nothing was changed)"
    )
    assert bench.slots() == []


def test_an_update_file_without_room_is_named_in_the_last_line(bench, capsys, mocker):
    bench.release("v1.1.0")
    name, out = packed(bench, "v1.1.0")
    mocker.patch.object(room, "free", return_value=30_000_000)
    line = last_line(capsys, "--file", name)
    assert line.startswith(
        f"tinker-tray update: not enough room on the card for {out.name}: it needs about "
    )
    assert line.endswith(", 30 MB free (nothing was changed)")


@pytest.mark.parametrize("argv", [["--check"], []], ids=["check", "install"])
def test_the_status_says_whether_a_check_or_an_install_stopped(bench, capsys, tmp_path, argv):
    """The page says "The check stopped" of a check, "The update stopped" of an install."""
    import json

    bench.release("v1.1.0", key=bench.stranger)
    status = tmp_path / "status.json"
    main(["update", *argv, "--status", str(status)])
    capsys.readouterr()
    written = json.loads(status.read_text())
    assert (written["state"], written["action"]) == (
        ("done", "check") if argv else ("failed", "install")
    )
