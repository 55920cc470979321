"""A backup on the boot partition (issue 39, item 3): taken once at the next start by the
image's tinker-tray-restore.service (`python -m scoreboard.backup_boot BOOT JOURNAL`, run
here as a real process on a folder standing for the boot partition), renamed .done; a damaged,
foreign or unwanted one renamed .refused with its sentence, exit 0, nothing changed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from scoreboard import backup as backup_module
from scoreboard import backup_boot
from tests.helpers.backup import Tray, play_a_digital_game, play_a_table_game, records
from tests.helpers.service import ROOT

NAME = "tinker-tray-backup-20261128-0800.ttb"


@pytest.fixture(scope="module")
def taken(tmp_path_factory):
    """A backup of a tray that played a table game and a digital game, and its records."""
    folder = tmp_path_factory.mktemp("old")
    tray = Tray(folder / "journal.sqlite3").start()
    try:
        play_a_table_game(tray)
        play_a_digital_game(tray)
        res = tray.call("GET", "/api/backup")
        assert res.status_code == 200
        return res.content, records(tray), tray.token
    finally:
        tray.stop()


@pytest.fixture
def boot(tmp_path):
    folder = tmp_path / "boot"
    folder.mkdir()
    return folder


def started(boot: Path, journal: Path) -> tuple[int, str]:
    """The unit's program, as the image runs it: (exit status, what it printed)."""
    done = subprocess.run(
        [sys.executable, "-m", "scoreboard.backup_boot", str(boot), str(journal)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.returncode, done.stdout + done.stderr


def test_a_backup_on_the_boot_partition_is_restored_once_with_the_old_token(taken, boot, tmp_path):
    data, before, token = taken
    (boot / NAME).write_bytes(data)
    journal = tmp_path / "state" / "tinker-tray" / "journal.sqlite3"  # not there yet: a new card
    code, said = started(boot, journal)
    assert code == 0
    assert said == (
        f"tinker-tray: {NAME}: restored: 2 games, and the table's token (phones stay "
        f"paired). It was renamed {NAME}.done.\n"
    )
    assert sorted(p.name for p in boot.iterdir()) == [f"{NAME}.done"]
    tray = Tray(journal).start()  # the tray starts on it
    try:
        assert tray.token == token
        assert records(tray, token) == before
    finally:
        tray.stop()
    assert started(boot, journal) == (0, "")  # taken once: the next start finds nothing to do


def test_a_changed_byte_is_refused_once_and_changes_nothing(taken, boot, tmp_path):
    data = bytearray(taken[0])
    data[len(data) // 3] ^= 0x40
    (boot / NAME).write_bytes(bytes(data))
    journal = tmp_path / "state" / "journal.sqlite3"
    code, said = started(boot, journal)
    assert code == 0 and said.count("\n") == 1
    assert said.startswith(f"tinker-tray: {NAME}: not restored: the backup is damaged")
    assert said.endswith(f"It was renamed {NAME}.refused.\n")
    assert not journal.exists()  # checked before the journal was opened
    assert sorted(p.name for p in boot.iterdir()) == [f"{NAME}.refused", f"{NAME}.refused.txt"]
    assert (boot / f"{NAME}.refused.txt").read_text() == said.removeprefix("tinker-tray: ")
    assert not journal.parent.exists()  # refused before anything was written
    assert started(boot, journal) == (0, "")  # not tried again at every boot


def test_a_journal_with_games_is_never_replaced_from_the_card(taken, boot, tmp_path):
    tray = Tray(tmp_path / "journal.sqlite3").start()
    play_a_table_game(tray)
    before = records(tray)
    tray.stop()
    (boot / NAME).write_bytes(taken[0])
    code, said = started(boot, tray.path)
    assert code == 0 and "holds games already" in said and "host's page" in said
    tray.start()
    try:
        assert records(tray) == before
    finally:
        tray.stop()
    assert (boot / f"{NAME}.refused").exists()


def test_the_newest_is_taken_and_a_name_from_the_card_is_shown_escaped(taken, boot, tmp_path):
    older = "tinker-tray-backup-\x1b[2J\nlogin: root.ttb"
    (boot / older).write_bytes(b"not a backup")
    (boot / NAME).write_bytes(taken[0])
    code, said = started(boot, tmp_path / "journal.sqlite3")
    assert code == 0 and "\x1b" not in said and said.count("\n") == 2
    assert "tinker-tray-backup-\\x1b[2J\\x0alogin: root.ttb: not taken" in said
    assert f"{NAME}: restored: 2 games" in said
    assert (boot / f"{older}.refused").exists() and (boot / f"{NAME}.done").exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="the unit runs as root; this test must too")
def test_run_as_root_the_journal_is_left_to_the_trays_user(taken, boot, tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    os.chown(state, 4321, 4321)  # the tray's user owns its StateDirectory
    (boot / NAME).write_bytes(taken[0])
    journal = state / "tinker-tray" / "journal.sqlite3"
    assert started(boot, journal)[0] == 0
    made = [journal.parent, *journal.parent.iterdir()]
    assert {(p.stat().st_uid, p.stat().st_gid) for p in made} == {(4321, 4321)}, made


def test_a_hostile_backup_on_the_card_is_refused_once_and_the_tray_starts(taken, boot, tmp_path):
    """A journal whose games are a view that never ends (its sum right: anyone can make one)
    ended the boot's restore never; now it is refused at once, with its sentence beside it."""
    from tests.scoreboard.test_backup_hostile import NEVER_ENDS, hostile

    old = tmp_path / "old.sqlite3"
    with (boot / "x.ttb").open("wb") as out:
        out.write(taken[0])
    with backup_module.checked(boot / "x.ttb", tmp_path) as kept:
        old.write_bytes(kept.database.read_bytes())
    (boot / "x.ttb").unlink()
    endless = ["ALTER TABLE games RENAME TO kept", f"CREATE VIEW games AS {NEVER_ENDS}"]
    (boot / NAME).write_bytes(hostile(old, tmp_path, *endless, games=2))
    journal = tmp_path / "state" / "journal.sqlite3"
    code, said = started(boot, journal)
    assert code == 0 and "its journal's games is a view, not a table" in said, said
    assert (boot / f"{NAME}.refused.txt").read_text() == said.removeprefix("tinker-tray: ")
    assert started(boot, journal) == (0, "")


def test_a_restore_cut_short_is_not_tried_again_and_says_so(taken, boot, tmp_path, mocker):
    """The file is set aside as refused before it is tried: a power cut (or the unit's time
    limit) mid-restore leaves it tried once, with the sentence that says so."""
    (boot / NAME).write_bytes(taken[0])
    mocker.patch.object(backup_boot, "restore_file", side_effect=KeyboardInterrupt)
    with pytest.raises(KeyboardInterrupt):
        backup_boot.take(boot, tmp_path / "journal.sqlite3")
    assert sorted(p.name for p in boot.iterdir()) == [f"{NAME}.refused", f"{NAME}.refused.txt"]
    assert "the restore was cut short" in (boot / f"{NAME}.refused.txt").read_text()
    mocker.stopall()
    assert backup_boot.take(boot, tmp_path / "journal.sqlite3") == []  # not tried again


def test_the_older_backups_not_taken_say_why_beside_them(taken, boot, tmp_path):
    older = "tinker-tray-backup-20250101-0800.ttb"
    (boot / older).write_bytes(taken[0])
    (boot / NAME).write_bytes(taken[0])
    code, _ = started(boot, tmp_path / "journal.sqlite3")
    assert code == 0
    assert (boot / f"{older}.refused.txt").read_text().startswith(f"{older}: not taken: {NAME}")
    assert not (boot / f"{NAME}.done.txt").exists() and (boot / f"{NAME}.done").exists()
