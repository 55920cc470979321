"""`tinker-tray install --root DIR` and `uninstall --root DIR`: what they write, what they keep,
and that the unit they write passes systemd's own check (`systemd-analyze verify`)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cli.commands import install
from cli.main import main


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every path under root, with each file's bytes (folders: None)."""
    return {
        str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None)
        for p in sorted(root.rglob("*"))
    }


@pytest.fixture
def root(tmp_path):
    """A system's root with something of its own already in /etc (which must stay as it is)."""
    root = tmp_path / "root"
    (root / "etc" / "udev" / "rules.d").mkdir(parents=True)
    (root / "etc" / "udev" / "rules.d" / "10-local.rules").write_text("# the owner's\n")
    (root / "etc" / "hostname").write_text("raspberrypi\n")
    return root


def test_install_then_uninstall_leaves_the_root_as_it_was(root, capsys):
    before = snapshot(root)
    assert main(["install", "--root", str(root)]) == 0
    out = capsys.readouterr().out
    assert "The phones at the table open http://" in out and ":8080" in out
    made = set(snapshot(root)) - set(before)
    assert {
        "etc/systemd/system/tinker-tray.service",
        "etc/sysusers.d/tinker-tray.conf",
        "etc/tinker-tray/pinmap.toml",
        "etc/udev/rules.d/99-tinker-tray-gpio.rules",
        "etc/udev/rules.d/99-tinker-tray-usb.rules",
    } <= made
    assert main(["uninstall", "--root", str(root)]) == 0
    assert snapshot(root) == before


def test_the_journal_is_kept_unless_purged(root, capsys):
    before = snapshot(root)
    assert main(["install", "--root", str(root)]) == 0
    journal = root / "var" / "lib" / "tinker-tray" / "journal.sqlite3"
    journal.parent.mkdir(parents=True)  # what the service's StateDirectory= holds
    journal.write_bytes(b"games")
    assert main(["uninstall", "--root", str(root)]) == 0
    assert journal.read_bytes() == b"games"
    assert "the journal of games" in capsys.readouterr().out
    assert main(["uninstall", "--root", str(root), "--purge"]) == 0
    assert not journal.parent.exists()
    shutil.rmtree(root / "var")  # (the test made var/lib; a real system has it)
    assert snapshot(root) == before


def test_settings_already_there_are_kept_by_install_and_uninstall(root):
    settings = root / "etc" / "tinker-tray" / "pinmap.toml"
    settings.parent.mkdir(parents=True)
    settings.write_text("[button]\npin = 5\n")
    before = snapshot(root)
    assert main(["install", "--root", str(root)]) == 0
    assert settings.read_text() == "[button]\npin = 5\n"
    assert main(["uninstall", "--root", str(root)]) == 0
    assert snapshot(root) == before


def test_settings_changed_after_the_install_stay_until_purged(root, capsys):
    before = snapshot(root)
    assert main(["install", "--root", str(root)]) == 0
    settings = root / "etc" / "tinker-tray" / "pinmap.toml"
    settings.write_text(settings.read_text().replace("pin = 26", "pin = 25"))
    assert main(["install", "--root", str(root)]) == 0  # run again: still the family's file
    assert "pin = 25" in settings.read_text()
    assert main(["uninstall", "--root", str(root)]) == 0
    assert "pin = 25" in settings.read_text()
    assert "changed since the install" in capsys.readouterr().out
    assert main(["uninstall", "--root", str(root), "--purge"]) == 0
    assert snapshot(root) == before


def test_the_unit_runs_this_checkouts_venv(root):
    assert main(["install", "--root", str(root)]) == 0
    unit = (root / install.UNIT).read_text()
    exec_start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    assert exec_start.split()[0] == f"ExecStart={sys.prefix}/bin/tinker-tray"
    assert "/opt/tinker-tray" not in unit
    assert "LimitNOFILE=1024" in unit
    users = (root / install.SYSUSERS).read_text()
    assert "m tinker-tray gpio" in users and "m tinker-tray dialout" in users


def test_the_unit_passes_systemd_analyze_verify(root):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but systemd-analyze is missing: .ci/run installs systemd")
        pytest.skip("no systemd-analyze here (apt-get install systemd): the unit is not verified")
    assert main(["install", "--root", str(root)]) == 0
    if not Path(sys.prefix, "bin", "tinker-tray").exists():
        pytest.skip("tinker-tray is not installed in this venv: the unit's ExecStart is missing")
    done = subprocess.run(
        [analyze, "verify", str(root / install.UNIT)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "tinker-tray.service" not in done.stderr, done.stderr  # no warning about our unit


def test_install_without_root_says_sudo_in_one_line(monkeypatch, capsys):
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert main(["install"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "sudo ./tinker install" in err
    assert main(["uninstall"]) == 1
    assert "sudo ./tinker uninstall" in capsys.readouterr().err


def test_a_checkout_the_service_cannot_read_is_refused(tmp_path, monkeypatch, capsys):
    private = tmp_path / "home" / "pi"
    (private / "tinker-tray").mkdir(parents=True)
    private.chmod(0o700)
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(install, "CHECKOUT", private / "tinker-tray")
    assert main(["install"]) == 1
    err = capsys.readouterr().err
    assert "cannot read" in err and "/opt/tinker-tray" in err and err.count("\n") == 1
