"""Broken and hostile files on the boot partition (issue 39's kinds: the Wi-Fi file, the settings
file, Imager's firstrun.sh, cloud-init's user-data and network-config, authorized_keys,
cmdline.txt), each read by the image's readers as their units run them (`python -m ...`, under
a 256 MB address-space cap and a 20 s limit): one sentence, exit status 0 (the boot goes on),
under 64 KB of output, nothing of the card's raw on the console or in the login banner (no
escape byte, no line of its own), nothing used, and at the next boot nothing said again."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bootfiles import settings as bs
from tests.helpers.boot_partition import boot_as_the_units_do, make_card
from tests.helpers.service import ROOT

CMDLINE = b"console=tty0 root=LABEL=tray-root rw fsck.repair=yes rootwait\n"
IMAGER_WORDS = b" systemd.run=/boot/firstrun.sh systemd.unit=kernel-command-line.target"
KEY = b"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFairyDellFairyDellFairyDellFairyDell00 wendy@laptop"
FIRSTRUN_WITH_A_KEY = (
    b"#!/bin/bash\n/usr/lib/raspberrypi-sys-mods/imager_custom enable_ssh -k '" + KEY + b"'\n"
)
FORGED = b"\x1b[2J\x1b[H\nDebian GNU/Linux 13 tinker-tray tty1\n\ntinker-tray login: "
"""Clear the screen and forge a login prompt, as a file's text would if shown raw."""
TOML_FORGED = b"\\u001b[2J\\u001b[H\\ntinker-tray login: "
YAML_FORGED = b'"\\e[2J\\e[H\\ntinker-tray login: "'


def alias_bomb(levels: int) -> bytes:
    """The billion laughs: each line nine aliases of the one before; 9 levels, 369 bytes, are a
    list of 387 million strings for whoever expands it."""
    lines = [b'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    names = b"abcdefghijklmnopqrstuvwxyz"
    for level in range(1, levels):
        name, before = names[level : level + 1], names[level - 1 : level]
        lines.append(name + b": &" + name + b" [" + b",".join([b"*" + before] * 9) + b"]")
    lines.append(b"hostname: *" + names[levels - 1 : levels])
    return b"#cloud-config\n" + b"\n".join(lines) + b"\n"


def nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


CASES: dict[str, tuple[dict[str, bytes], str]] = {
    # The Wi-Fi file.
    "wifi nested brackets": (
        {"tinker-tray-wifi.txt": b"ssid = " + nested(3000)},
        "tinker-tray-wifi.txt: has brackets or braces nested hundreds deep",
    ),
    "wifi key with escapes and a newline": (
        {"tinker-tray-wifi.txt": b'"' + TOML_FORGED + b'" = "x"\n'},
        "is not a Wi-Fi setting",
    ),
    "wifi password a list": (
        {"tinker-tray-wifi.txt": b'ssid = "Fairy"\npassword = ["a", "b"]\n'},
        "tinker-tray-wifi.txt: password must be text in double quotes",
    ),
    "wifi not UTF-8": (
        {"tinker-tray-wifi.txt": b'ssid = "Caf\xe9"\n'},
        "tinker-tray-wifi.txt: is not UTF-8 text",
    ),
    "wifi over 64 KB": (
        {"tinker-tray-wifi.txt": b"#" * 70_000 + b"\n"},
        "tinker-tray-wifi.txt: is over 64 KB",
    ),
    # The settings file.
    "settings nested brackets": (
        {"tinker-tray-settings.txt": b"[button]\npin = " + nested(3000) + b"\n"},
        "brackets or braces nested hundreds deep",
    ),
    "settings key with escapes and a newline": (
        {"tinker-tray-settings.txt": b'"' + TOML_FORGED + b'" = 1\n'},
        "tinker-tray-settings.txt",
    ),
    "settings not UTF-8": (
        {"tinker-tray-settings.txt": b"[button]\npin = 26 # \xff\n"},
        "tinker-tray-settings.txt: is not UTF-8 text",
    ),
    # Imager's firstrun.sh.
    "firstrun hostname with escapes": (
        {"firstrun.sh": b"#!/bin/bash\necho \x1b[2J\x1b[Hlogin: >/etc/hostname\n"},
        "Imager's hostname '\\x1b[2J\\x1b[Hlogin:' is not used",
    ),
    "firstrun 60 KB of empty lines": (
        {"firstrun.sh": b"#!/bin/bash\n" + b"\n" * 60_000},
        "Imager's settings held nothing the tray uses",
    ),
    "firstrun key with an escape": (
        {"firstrun.sh": FIRSTRUN_WITH_A_KEY.replace(b"wendy", b"\x1b[2Jwendy")},
        "firstrun.sh: an SSH key must be one line of plain text",
    ),
    "firstrun not UTF-8": (
        {"firstrun.sh": b"#!/bin/bash\n\xff\xfe\n"},
        "firstrun.sh: is not UTF-8 text",
    ),
    # cloud-init's user-data and network-config.
    "user-data alias bomb": (
        {"user-data": alias_bomb(9)},
        "user-data: uses a YAML alias (*a) at line 3, which Imager never writes",
    ),
    "user-data small alias bomb": (
        {"user-data": alias_bomb(6)},
        "user-data: uses a YAML alias",
    ),
    "user-data nested 3,000 deep": (
        {"user-data": b"#cloud-config\nhostname: " + nested(3000) + b"\n"},
        "user-data: nests deeper than 16 levels",
    ),
    "network-config nested 3,000 deep": (
        {"network-config": b"network: " + b"{a: " * 3000 + b"1" + b"}" * 3000 + b"\n"},
        "network-config: nests deeper than 16 levels",
    ),
    "ssh_authorized_keys a number": (
        {"user-data": b"#cloud-config\nssh_authorized_keys: 5\n"},
        "user-data: ssh_authorized_keys must be a list of keys, one line '- ssh-ed25519 "
        "AAAA...' each, not a number",
    ),
    "ssh_authorized_keys text, not a list": (
        {"user-data": b"#cloud-config\nssh_authorized_keys: " + KEY + b"\n"},
        "user-data: ssh_authorized_keys must be a list of keys, one line '- ssh-ed25519 "
        "AAAA...' each, not text",
    ),
    "a user's keys a list of numbers": (
        {"user-data": b"users:\n- name: wendy\n  ssh_authorized_keys: [1, 2]\n"},
        "not a list holding a number",
    ),
    "users a number": (
        {"user-data": b"users: 5\n"},
        "user-data: users must be a list, not a number",
    ),
    "password a list": (
        {
            "network-config": b"wifis:\n  wlan0:\n    access-points:\n      Fairy:\n"
            b"        password: [a, b]\n"
        },
        "network-config: password must be text, not a list",
    ),
    "ssid a number": (
        {"network-config": b"wifis:\n  wlan0:\n    access-points:\n      12345678: {}\n"},
        "network-config: a network's name under access-points must be text in quotes",
    ),
    "hostname with escapes and a newline": (
        {"user-data": b"#cloud-config\nhostname: " + YAML_FORGED + b"\n"},
        "Imager's hostname '\\x1b[2J\\x1b[H\\ntinker-tray login: ' is not used",
    ),
    "a raw escape byte in YAML": (
        {"user-data": b"#cloud-config\nhostname: " + FORGED + b"\n"},
        "user-data: is not YAML",
    ),
    "hostname a number of 5,000 digits": (
        {"user-data": b"#cloud-config\nhostname: " + b"9" * 5000 + b"\n"},
        "user-data: holds a date or a number that cannot be read",
    ),
    "hostname a date that is none": (
        {"user-data": b"#cloud-config\nhostname: 2001-13-45\n"},
        "user-data: holds a date or a number that cannot be read",
    ),
    # authorized_keys, when Imager's keys are to join it.
    "authorized_keys not UTF-8": (
        {"firstrun.sh": FIRSTRUN_WITH_A_KEY, "authorized_keys": b"ssh-rsa \xff\xfe\n"},
        "authorized_keys: is not UTF-8 text (save it as UTF-8): Imager's 1 SSH key(s) were "
        "not added to it.",
    ),
    "authorized_keys over 64 KB": (
        {"firstrun.sh": FIRSTRUN_WITH_A_KEY, "authorized_keys": (KEY + b"\n") * 1000},
        "authorized_keys: is over 64 KB",
    ),
    # cmdline.txt.
    "cmdline.txt not UTF-8": (
        {"cmdline.txt": CMDLINE.rstrip() + b" quiet=\xff" + IMAGER_WORDS + b"\n"},
        "cmdline.txt: is not UTF-8 text (save it as UTF-8): Imager's words, if any, were left",
    ),
    "cmdline.txt over 64 KB": (
        {"cmdline.txt": CMDLINE.rstrip() + b" x" * 40_000 + IMAGER_WORDS + b"\n"},
        "cmdline.txt: is over 64 KB",
    ),
}


def _card(tmp_path: Path, files: dict[str, bytes]) -> tuple[Path, Path]:
    boot, root = make_card(tmp_path)
    (boot / "cmdline.txt").write_bytes(CMDLINE)
    for name, data in files.items():
        (boot / name).write_bytes(data)
    return boot, root


def _check_the_console(out: bytes) -> list[str]:
    """The lines the readers printed: each one of theirs, escaped, bounded."""
    assert len(out) < 64 * 1024
    assert b"\x1b" not in out and b"\r" not in out and b"\x07" not in out
    lines = out.decode().splitlines()
    assert all(line.startswith("tinker-tray: ") for line in lines), lines
    return lines


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_a_hostile_file_is_one_sentence_once_and_the_boot_goes_on(tmp_path, case):
    files, sentence = CASES[case]
    boot, root = _card(tmp_path, files)
    first = boot_as_the_units_do(boot, root)
    for done in first:
        assert done.returncode == 0 and done.stderr == b"", done.stderr.decode()[-2000:]
    lines = _check_the_console(b"".join(done.stdout for done in first))
    assert [line for line in lines if sentence in line], (sentence, lines)
    issue = root / bs.ISSUE
    if issue.exists():  # the login banner: our lines only, the card's text escaped
        banner = issue.read_bytes()
        assert b"\x1b" not in banner and len(banner) < 64 * 1024
        assert all(line.startswith("  ") for line in banner.decode().splitlines() if line)
    assert not (root / bs.PROFILE).exists()  # nothing of a refused file is used
    assert (boot / "authorized_keys").exists() == ("authorized_keys" in files)
    if "authorized_keys" in files:
        assert (boot / "authorized_keys").read_bytes() == files["authorized_keys"]
    banner_before = issue.read_bytes() if issue.exists() else None
    second = boot_as_the_units_do(boot, root)
    assert [(done.returncode, done.stdout, done.stderr) for done in second] == [(0, b"", b"")] * 2
    assert (issue.read_bytes() if issue.exists() else None) == banner_before  # still shown


def test_a_fixed_file_is_read_again_and_a_new_mistake_said_again(tmp_path):
    boot, root = _card(tmp_path, {"tinker-tray-wifi.txt": b'ssid = "Fairy"\npassword = "short"\n'})
    assert bs.main([str(boot), str(root)]) == 0
    (boot / bs.WIFI_FILE).write_text('ssid = "Fairy"\npassword = "pixie-dust-42"\n')
    assert bs.main([str(boot), str(root)]) == 0
    assert (root / bs.PROFILE).exists() and not (root / bs.ISSUE).exists()
    (boot / bs.WIFI_FILE).write_text('ssid = "Fairy"\npassword = "short"\n')
    done = boot_as_the_units_do(boot, root)[1]
    assert b"the password has 5 characters" in done.stdout  # a new mistake is a new sentence


def test_the_units_old_names_still_run_for_cards_built_before(tmp_path):
    """A card built before bootfiles/ and updated since keeps its units (an update leaves /etc
    as it was): `python -m image.boot_settings` and `python -m image.imager` still work."""
    boot, root = _card(tmp_path, {"tinker-tray-wifi.txt": b'ssid = "Fairy"\npassword = ""\n'})
    (boot / "cmdline.txt").write_bytes(CMDLINE.rstrip() + IMAGER_WORDS + b"\n")
    for module, args in (("image.imager", [boot]), ("image.boot_settings", [boot, root])):
        done = subprocess.run(
            [sys.executable, "-m", module, *map(str, args)], capture_output=True, cwd=ROOT
        )
        assert done.returncode == 0 and done.stderr == b"", done.stderr
    assert (boot / "cmdline.txt").read_bytes() == CMDLINE
    assert (root / bs.PROFILE).exists()


@pytest.mark.parametrize(
    ("data", "sentence"),
    [
        (b"\xff\xfe not a key\n" + FORGED, "holds no SSH public key"),
        ((KEY + b"\n") * 1000, "is over 64 KB: not a list of keys"),
    ],
    ids=["no key, not UTF-8", "over 64 KB"],
)
def test_an_authorized_keys_that_starts_no_ssh_is_one_sentence_once(tmp_path, data, sentence):
    """image/onboard/ssh as tinker-tray-ssh.service runs it (where it is refused it stops before
    touching /root or sshd)."""
    keygen = shutil.which("ssh-keygen")
    if keygen is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but ssh-keygen is missing (openssh-client)")
        pytest.skip("no ssh-keygen here (apt-get install openssh-client)")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(data)
    env = {**os.environ, "TINKER_TRAY_BOOT_STATE": str(tmp_path / "state")}
    ssh = [str(ROOT / "image" / "onboard" / "ssh"), str(keys)]
    first, second = (subprocess.run(ssh, capture_output=True, env=env) for _ in range(2))
    assert first.returncode == 0 and first.stderr == b"", first.stderr
    said = first.stdout.decode()
    assert said.startswith(f"tinker-tray: {keys} {sentence}") and said.count("\n") == 1, said
    assert said.endswith(": SSH stays off.\n")
    assert (second.returncode, second.stdout, second.stderr) == (0, b"", b"")
