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

ROOT = Path(__file__).resolve().parents[2]


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


def test_the_unit_runs_this_checkouts_current_release(root):
    """The service starts whichever release slot is current (the checkout until an update),
    and the checkout's own slot logic finishes or undoes a switch around each start."""
    assert main(["install", "--root", str(root)]) == 0
    unit = (root / install.UNIT).read_text()

    def setting(name: str) -> list[str]:
        return next(line for line in unit.splitlines() if line.startswith(f"{name}=")).split()

    checkout = install.CHECKOUT
    assert (
        setting("ExecStart")[0] == f"ExecStart={checkout}/.releases/current/.venv/bin/tinker-tray"
    )
    assert (checkout / ".releases" / "current").resolve() == checkout.resolve()
    pre, post = setting("ExecStartPre"), setting("ExecStartPost")
    assert pre == [f"ExecStartPre=+{checkout}/updater/start.sh", str(checkout)]
    assert post[1:4] == [f"{checkout}/updater/slots.py", "confirm", str(checkout)]
    settings = [line for line in unit.splitlines() if not line.startswith("#")]
    assert not [line for line in settings if "/opt/tinker-tray" in line]
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
    units = [str(root / install.UNIT), *(str(root / unit) for unit in install.UPDATE_UNITS)]
    done = subprocess.run([analyze, "verify", *units], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "tinker-tray" not in done.stderr, done.stderr  # no warning about our units


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
    monkeypatch.setattr(install, "HIDDEN", {})  # (tmp_path is in /tmp: the test below)
    assert main(["install"]) == 1
    err = capsys.readouterr().err
    assert "cannot read" in err and "/opt/tinker-tray" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("checkout", "setting"),
    [("/home/pi/tinker-tray", "ProtectHome=yes"), ("/tmp/tinker-tray", "PrivateTmp=yes")],
)
def test_a_checkout_the_unit_hides_is_refused(checkout, setting, monkeypatch, capsys):
    """Readable by all or not, /home and /tmp are not there for the service (its unit's
    ProtectHome= and PrivateTmp=): the install says so rather than a service that cannot start."""
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(install, "CHECKOUT", Path(checkout))
    monkeypatch.setattr(install, "readable_by_all", lambda path: True)
    assert main(["install"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cannot see {checkout}" in err
    assert setting in err and "/opt/tinker-tray" in err
    template = (ROOT / "hardware" / "tinker-tray.service").read_text()
    assert f"\n{setting}\n" in template


def test_the_installed_units_comments_are_the_templates(root):
    """The path is replaced in the unit's settings; its comments, which say what is replaced
    where, stay as written."""
    assert main(["install", "--root", str(root)]) == 0
    template = (ROOT / "hardware" / "tinker-tray.service").read_text()
    unit = (root / install.UNIT).read_text()

    def comments(text: str) -> list[str]:
        return [line for line in text.splitlines() if line.startswith("#")]

    assert comments(unit) == comments(template)


def test_an_uninstall_that_keeps_changed_settings_keeps_nothing_else(root, capsys):
    assert main(["install", "--root", str(root)]) == 0
    settings = root / "etc" / "tinker-tray" / "pinmap.toml"
    settings.write_text(settings.read_text() + "# ours\n")
    assert main(["uninstall", "--root", str(root)]) == 0
    assert sorted(p.name for p in settings.parent.iterdir()) == ["pinmap.toml"]


def test_uninstall_where_nothing_is_installed_says_so(root, capsys):
    before = snapshot(root)
    assert main(["uninstall", "--root", str(root)]) == 0
    out = capsys.readouterr().out
    assert out == f"Nothing to uninstall: tinker-tray is not installed under {root}.\n"
    assert snapshot(root) == before


@pytest.mark.parametrize("command", ["install", "uninstall"])
def test_a_root_that_is_no_folder_is_one_sentence(command, tmp_path, capsys):
    a_file = tmp_path / "hostname"
    a_file.write_text("raspberrypi\n")
    for where, why in (("/proc/nope", "no such folder"), (str(a_file), "not a folder")):
        assert main([command, "--root", where]) == 1
        err = capsys.readouterr().err
        assert err == f"tinker-tray {command}: --root {where}: {why}\n"


def test_a_root_that_cannot_be_written_names_the_file(capsys):
    assert main(["install", "--root", "/proc"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("tinker-tray install: cannot write /proc/") and "Errno" not in err


def test_a_checkout_whose_name_starts_like_the_templates_gets_its_own_path():
    """Issue 41, 11: /opt/tinker-tray2 was replaced twice (ExecStart=/opt/tinker-tray22/...)."""
    checkout = Path("/opt/tinker-tray2")
    unit = install.unit_text(checkout / ".venv", checkout)
    settings = [line for line in unit.splitlines() if not line.startswith("#")]
    exec_start = next(line for line in settings if line.startswith("ExecStart="))
    service = "/opt/tinker-tray2/.releases/current/.venv/bin/tinker-tray"
    assert exec_start.split()[0] == f"ExecStart={service}"
    assert "Documentation=file:///opt/tinker-tray2/docs/install.md" in settings
    assert not [line for line in settings if "tinker-tray22" in line]


@pytest.mark.parametrize(
    ("line", "placed"),
    [
        ("ExecStart=/opt/tinker-tray/tinker run --host 0.0.0.0",
         "ExecStart=/srv/t2/tinker run --host 0.0.0.0"),
        ("ExecStartPre=/opt/tinker-tray/.venv/bin/python -m cli check /opt/tinker-tray",
         "ExecStartPre=/venvs/t2/bin/python -m cli check /srv/t2"),
        ("Environment=PATH=/opt/tinker-tray/.venv/bin:/usr/bin",
         "Environment=PATH=/venvs/t2/bin:/usr/bin"),
        ("ReadOnlyPaths=/opt/tinker-tray", "ReadOnlyPaths=/srv/t2"),
        ("ExecStart=/bin/sh -c 'exec /opt/tinker-tray/tinker run'",
         "ExecStart=/bin/sh -c 'exec /srv/t2/tinker run'"),
        ("ExecStart=/opt/tinker-tray/.venvs/x", "ExecStart=/srv/t2/.venvs/x"),
        # not the template's path: a longer name, or a folder of that name elsewhere
        ("ExecStart=/opt/tinker-tray2/tinker run", None),
        ("ReadOnlyPaths=/opt/tinker-tray.old /opt/tinker-tray-dev", None),
        ("ReadOnlyPaths=/srv/opt/tinker-tray ~/opt/tinker-tray", None),
    ],
)  # fmt: skip
def test_only_the_whole_path_of_the_template_is_replaced(line, placed):
    """Any setting that names /opt/tinker-tray as a whole path, so a unit that changes its
    ExecStart lines is installed right too; a longer name is left alone."""
    got = install.home_replaced(line, Path("/venvs/t2"), Path("/srv/t2"))
    assert got == (line if placed is None else placed)


def test_the_settings_line_names_the_root_it_installed_under(root, capsys):
    assert main(["install", "--root", str(root)]) == 0
    out = capsys.readouterr().out
    assert f"Settings: {root}/etc/tinker-tray/pinmap.toml (edit it" in out
    assert (root / "etc" / "tinker-tray" / "pinmap.toml").is_file()


def test_the_update_units_watch_where_the_service_leaves_its_requests(root, monkeypatch):
    """The page leaves its request beside the journal (its state folder); the path unit must
    watch that very file, and the update unit read that folder (under qemu they named
    /var/lib/tinker-tray while the journal is in /var/lib/tinker-tray/tinker-tray)."""
    from cli.commands.display import default_journal
    from updater import requests

    assert main(["install", "--root", str(root)]) == 0
    monkeypatch.setenv("STATE_DIRECTORY", "/var/lib/tinker-tray")  # the unit's StateDirectory=
    state = default_journal().parent
    watch = (root / "etc/systemd/system/tinker-tray-update.path").read_text()
    update = (root / "etc/systemd/system/tinker-tray-update.service").read_text()
    assert f"\nPathExists={requests.folder(state) / 'request'}\n" in watch
    exec_start = next(line for line in update.splitlines() if line.startswith("ExecStart="))
    assert f" --requests {state} " in exec_start
    service = (root / install.UNIT).read_text()
    assert "\nStateDirectory=tinker-tray\n" in service
