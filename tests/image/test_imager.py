"""Raspberry Pi Imager's OS customisation on the tray's card (bootfiles/imager and the units in
image/rootfs/etc/systemd/system), with Imager's firstrun.sh as Imager writes it: the scripts
are built here line for line from Imager's own generators (rpi-imager v1.6.2 and v1.8.5:
OptionsPopup.qml, applySettings(); v2.0.11.1: src/customization_generator.cpp,
generateSystemdScript()), on a boot partition and a root in tmp_path. The safe part (Wi-Fi, SSH
keys) becomes the tray's own files; the rest is one sentence each; the boot goes on."""

from __future__ import annotations

import configparser
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bootfiles import settings as bs
from bootfiles import wifi
from bootfiles.imager import honour as imager
from tests.helpers.boot_partition import make_card, read_profile

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "image" / "rootfs" / "etc" / "systemd" / "system"
KEYS = [
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFairyDellFairyDellFairyDellFairyDell00 wendy@laptop",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPixieDustPixieDustPixieDustPixieDu00 john@phone",
]
CRYPTED = "$5$Rr8pZ0Xx$e8Oa3bmDw1hYMKZ3u9a6xX2F4m3kzZ0A6Yk8Cq3o1Y/"
CMDLINE = "console=ttyS1,115200 console=tty0 root=LABEL=tray-root rw fsck.repair=yes rootwait"
IMAGER_CMDLINE = (
    " systemd.run=/boot/firstrun.sh systemd.run_success_action=reboot"
    " systemd.unit=kernel-command-line.target"
)
IF_CUSTOM = "if [ -f /usr/lib/raspberrypi-sys-mods/imager_custom ]; then"
CUSTOM = "   /usr/lib/raspberrypi-sys-mods/imager_custom"


def psk(password: str, ssid: str | bytes) -> str:
    """Imager's pbkdf2(): WPA's key from the passphrase and the name (what firstrun.sh holds)."""
    name = ssid.encode() if isinstance(ssid, str) else ssid
    return hashlib.pbkdf2_hmac("sha1", password.encode(), name, 4096, 32).hex()


def q(arg: str) -> str:
    """Imager's escapeshellarg() / CustomisationGenerator::shellQuote()."""
    return "'" + arg.replace("'", "'\"'\"'") + "'"


def _end(shebang: str, lines: list[str]) -> str:
    tail = ["rm -f /boot/firstrun.sh", "sed -i 's| systemd.run.*||g' /boot/cmdline.txt", "exit 0"]
    return f"{shebang}\n\nset +e\n\n" + "".join(f"{line}\n" for line in lines + tail)


def _userconf_1x(user: str) -> list[str]:
    return [
        "if [ -f /usr/lib/userconf-pi/userconf ]; then",
        f"   /usr/lib/userconf-pi/userconf {q(user)} {q(CRYPTED)}",
        "else",
        f'   echo "$FIRSTUSER:"{q(CRYPTED)} | chpasswd -e',
        f'   if [ "$FIRSTUSER" != "{user}" ]; then',
        f'      usermod -l "{user}" "$FIRSTUSER"',
        f'      usermod -m -d "/home/{user}" "{user}"',
        f'      groupmod -n "{user}" "$FIRSTUSER"',
        "   fi",
        "fi",
    ]


def firstrun_1_8_5(ssid: str, passphrase: str, hidden: bool = False) -> str:
    """v1.8.5's applySettings() with hostname, SSH keys, user 'wendy', Wi-Fi (GB), locale."""
    key = passphrase if not 8 <= len(passphrase) < 64 else psk(passphrase, ssid)
    wpa = "country=GB\nctrl_interface=DIR=/var/run/wpa_supplicant GROUP=netdev\nap_scan=1\n\n"
    wpa += "update_config=1\nnetwork={\n" + ("\tscan_ssid=1\n" if hidden else "")
    wpa += f'\tssid="{ssid}"\n\tpsk={key}\n}}\n'
    lines = [
        'CURRENT_HOSTNAME=`cat /etc/hostname | tr -d " \\t\\n\\r"`',
        IF_CUSTOM,
        f"{CUSTOM} set_hostname tinkerpi",
        "else",
        "   echo tinkerpi >/etc/hostname",
        '   sed -i "s/127.0.1.1.*$CURRENT_HOSTNAME/127.0.1.1\\ttinkerpi/g" /etc/hosts',
        "fi",
        "FIRSTUSER=`getent passwd 1000 | cut -d: -f1`",
        "FIRSTUSERHOME=`getent passwd 1000 | cut -d: -f6`",
        IF_CUSTOM,
        f"{CUSTOM} enable_ssh -k" + "".join(f" {q(k)}" for k in KEYS),
        "else",
        '   install -o "$FIRSTUSER" -m 700 -d "$FIRSTUSERHOME/.ssh"',
        '   install -o "$FIRSTUSER" -m 600 <(printf "'
        + "\\n".join(KEYS)
        + '") "$FIRSTUSERHOME/.ssh/authorized_keys"',
        "   echo 'PasswordAuthentication no' >>/etc/ssh/sshd_config",
        "   systemctl enable ssh",
        "fi",
        *_userconf_1x("wendy"),
        IF_CUSTOM,
        f"{CUSTOM} set_wlan " + (" -h " if hidden else "") + f"{q(ssid)} {q(key)} 'GB'",
        "else",
        "cat >/etc/wpa_supplicant/wpa_supplicant.conf <<'WPAEOF'",
        wpa,
        "WPAEOF",
        "   chmod 600 /etc/wpa_supplicant/wpa_supplicant.conf",
        "   rfkill unblock wifi",
        "   for filename in /var/lib/systemd/rfkill/*:wlan ; do",
        "       echo 0 > $filename",
        "   done",
        "fi",
        IF_CUSTOM,
        f"{CUSTOM} set_keymap 'gb'",
        f"{CUSTOM} set_timezone 'Europe/London'",
        "else",
        "   rm -f /etc/localtime",
        '   echo "Europe/London" >/etc/timezone',
        "   dpkg-reconfigure -f noninteractive tzdata",
        "cat >/etc/default/keyboard <<'KBEOF'",
        'XKBMODEL="pc105"\nXKBLAYOUT="gb"\nXKBVARIANT=""\nXKBOPTIONS=""\n',
        "KBEOF",
        "   dpkg-reconfigure -f noninteractive keyboard-configuration",
        "fi",
    ]
    return _end("#!/bin/bash", lines)


def _wpa_2_0(ssid: bytes, key: str, country: str) -> str:
    """v2.0.11.1's wpaSupplicantSsidField() and the conf around it."""
    if b"\\" in ssid or b'"' in ssid or any(b < 0x20 or b == 0x7F for b in ssid) or not _utf8(ssid):
        field = "\tssid=hex:" + ssid.hex()
    else:
        field = '\tssid="' + ssid.decode() + '"'
    conf = f"country={country}\n" if country else ""
    conf += "ctrl_interface=DIR=/var/run/wpa_supplicant GROUP=netdev\nap_scan=1\n\n"
    conf += "update_config=1\nnetwork={\n" + field + "\n"
    if key:
        conf += f"\tkey_mgmt=WPA-PSK SAE\n\tpsk={key}\n\tieee80211w=1\n}}\n"
    else:
        conf += "\tkey_mgmt=NONE\n}\n"
    return conf


def _utf8(data: bytes) -> bool:
    try:
        data.decode()
    except UnicodeDecodeError:
        return False
    return True


def firstrun_2_0(ssid: bytes, passphrase: str, country: str = "", keys: bool = True) -> str:
    """v2.0.11.1's generateSystemdScript() with SSH keys (user 'pi'), Wi-Fi, no hostname."""
    key = psk(passphrase, ssid) if passphrase else ""
    lines = [
        "FIRSTUSER=$(getent passwd 1000 | cut -d: -f1)",
        "FIRSTUSERHOME=$(getent passwd 1000 | cut -d: -f6)",
    ]
    if keys:
        lines += [
            IF_CUSTOM,
            f"{CUSTOM} enable_ssh -k" + "".join(f" {q(k)}" for k in KEYS),
            "else",
            '   install -o "$FIRSTUSER" -m 700 -d "$FIRSTUSERHOME/.ssh"',
            "cat > \"$FIRSTUSERHOME/.ssh/authorized_keys\" <<'EOF'",
            "\n".join(KEYS),
            "EOF",
            '   chown "$FIRSTUSER:$FIRSTUSER" "$FIRSTUSERHOME/.ssh/authorized_keys"',
            '   chmod 600 "$FIRSTUSERHOME/.ssh/authorized_keys"',
            "   echo 'PasswordAuthentication no' >>/etc/ssh/sshd_config",
            "   systemctl enable ssh",
            "fi",
            "if [ -f /usr/lib/userconf-pi/userconf ]; then",
            "   /usr/lib/userconf-pi/userconf 'pi' ''",
            "else",
            '   if [ "$FIRSTUSER" != "pi" ]; then',
            '      usermod -l "pi" "$FIRSTUSER"',
            "   fi",
            "fi",
        ]
    safe = _utf8(ssid) and b"\0" not in ssid
    lines.append(IF_CUSTOM.replace(" ]; then", f" ] && {'true' if safe else 'false'}; then"))
    if safe:
        lines.append(f"{CUSTOM} set_wlan {q(ssid.decode())} {q(key)} {q(country)}")
    lines += ["else", "cat >/etc/wpa_supplicant/wpa_supplicant.conf <<'WPAEOF'"]
    lines += [
        _wpa_2_0(ssid, key, country) + "WPAEOF",
        "   chmod 600 /etc/wpa_supplicant/wpa_supplicant.conf",
    ]
    lines += ["   rfkill unblock wifi", "fi"]
    return _end("#!/bin/sh", lines)


def firstrun_1_6_2() -> str:
    """v1.6.2's applySettings(): SSH with a password for the first user, Wi-Fi, no keys."""
    lines = [
        "FIRSTUSER=`getent passwd 1000 | cut -d: -f1`",
        "FIRSTUSERHOME=`getent passwd 1000 | cut -d: -f6`",
        f'echo "$FIRSTUSER:"{q(CRYPTED)} | chpasswd -e',
        "systemctl enable ssh",
        "cat >/etc/wpa_supplicant/wpa_supplicant.conf <<'WPAEOF'",
        "country=DE\nctrl_interface=DIR=/var/run/wpa_supplicant GROUP=netdev\nap_scan=1\n\n"
        'update_config=1\nnetwork={\n\tssid="Nimmerland"\n'
        f"\tpsk={psk('pixie-dust-42', 'Nimmerland')}\n}}\n",
        "WPAEOF",
        "chmod 600 /etc/wpa_supplicant/wpa_supplicant.conf",
    ]
    return _end("#!/bin/bash", lines)


def cloudinit_1_8_5(ssid: str, passphrase: str) -> tuple[str, str]:
    """v1.8.5's applySettings() for cloud-init (what it writes for this image: its boot
    partition has no issue.txt naming pi-gen): user-data and network-config."""
    keys = "".join(f"    - {k}\n" for k in KEYS)
    user_data = (
        "#cloud-config\nhostname: tinkerpi\nmanage_etc_hosts: true\npackages:\n- avahi-daemon\n"
        'apt:\n  conf: |\n    Acquire {\n      Check-Date "false";\n    };\n\n'
        "users:\n- name: wendy\n  groups: users,adm,dialout,audio,netdev,video,plugdev,cdrom,"
        "games,input,gpio,spi,i2c,render,sudo\n  shell: /bin/bash\n  lock_passwd: false\n"
        f"  passwd: {CRYPTED}\n  ssh_authorized_keys:\n{keys}  sudo: ALL=(ALL) NOPASSWD:ALL\n"
        '\n\ntimezone: Europe/London\nruncmd:\n- localectl set-x11-keymap "gb" pc105\n'
        "- setupcon -k --force || true\n\n"
    )
    network = (
        "version: 2\nwifis:\n  renderer: networkd\n  wlan0:\n    dhcp4: true\n"
        f'    optional: true\n    access-points:\n      "{ssid}":\n'
        f'        password: "{psk(passphrase, ssid)}"\n'
    )
    return user_data, network


def cloudinit_2_0(ssid: bytes, passphrase: str) -> tuple[str, str]:
    """v2.0.11.1's generateCloudInitUserData() (keys only, so user 'pi' with no password) and
    generateCloudInitNetworkConfig() (yamlEscapeSsidOctets: each byte not ASCII as \\xHH)."""
    escaped = "".join(
        {"\\": "\\\\", '"': '\\"'}.get(chr(b), chr(b)) if 0x20 <= b < 0x7F else f"\\x{b:02x}"
        for b in ssid
    )
    user_data = (
        "#cloud-config\nmanage_resolv_conf: false\n\nuser:\n  name: pi\n  shell: /bin/bash\n"
        "  lock_passwd: true\n  ssh_authorized_keys:\n"
        + "".join(f'    - "{k}"\n' for k in KEYS)
        + "  sudo: null\n\nssh_pwauth: false\n\nruncmd:\n  - [ systemctl, enable, --now, ssh ]\n"
    )
    network = (
        "network:\n  version: 2\n  ethernets:\n    eth0:\n      dhcp4: true\n      dhcp6: true\n"
        "      optional: true\n  wifis:\n    wlan0:\n      dhcp4: true\n"
        f'      regulatory-domain: "FR"\n      access-points:\n        "{escaped}":\n'
        f'          password: "{psk(passphrase, ssid)}"\n      optional: true\n'
    )
    return user_data, network


@pytest.fixture
def card(tmp_path: Path) -> tuple[Path, Path]:
    """The card as the image ships it: the boot partition's files, the root's pin map."""
    boot, root = make_card(tmp_path)
    shutil.copy(ROOT / "image" / "bootfs" / bs.WIFI_FILE, boot / bs.WIFI_FILE)
    (boot / "cmdline.txt").write_text(CMDLINE + "\n")
    return boot, root


def imager_writes(boot: Path, script: str | bytes, regdom: str = "GB") -> None:
    """What Imager does to the card (DownloadThread::_customizeImage): firstrun.sh, and its words
    after the trimmed cmdline.txt (the Wi-Fi country first)."""
    data = script.encode() if isinstance(script, str) else script
    (boot / "firstrun.sh").write_bytes(data)
    (boot / "cmdline.txt").write_text(
        CMDLINE + f" cfg80211.ieee80211_regdom={regdom}" + IMAGER_CMDLINE
    )


def boots(boot: Path, root: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """The units of one boot, in their order: Imager's settings, then the tray's settings."""
    assert imager.main([str(boot), str(root)]) == 0
    assert bs.main([str(boot), str(root)]) == 0
    return capsys.readouterr().out


def test_imager_1_8_5_wifi_and_keys_become_the_trays_files_the_rest_is_refused(card, capsys):
    boot, root = card
    script = firstrun_1_8_5("Fairy Dell", "pixie-dust-42")
    imager_writes(boot, script)
    out = boots(boot, root, capsys)
    profile = read_profile(root)
    assert profile["wifi"]["ssid"] == "Fairy Dell"
    assert profile["wifi-security"]["psk"] == psk("pixie-dust-42", "Fairy Dell")
    assert profile["wifi-security"]["key-mgmt"] == "wpa-psk"
    assert (root / bs.PROFILE).stat().st_mode & 0o777 == 0o600
    assert (root / bs.REGULATORY).read_text() == "options cfg80211 ieee80211_regdom=GB\n"
    assert (boot / "authorized_keys").read_text() == "".join(f"{k}\n" for k in KEYS)
    assert (boot / "cmdline.txt").read_text() == CMDLINE + " cfg80211.ieee80211_regdom=GB\n"
    assert not (boot / "firstrun.sh").exists()
    assert (boot / "firstrun.sh.done").read_text() == script
    assert "Imager's user 'wendy' and its password are not used on this tray:" in out
    assert "Imager's hostname 'tinkerpi' is not used" in out
    assert "Imager's time zone and keyboard are not used" in out
    assert "SSH with a password" not in out and "not be read" not in out
    assert not (root / bs.ISSUE).exists()  # nothing for the tray's own files to complain of


def test_a_second_boot_finds_nothing_to_do_and_changes_nothing(card, capsys):
    boot, root = card
    imager_writes(boot, firstrun_1_8_5("Fairy Dell", "pixie-dust-42"))
    boots(boot, root, capsys)
    before = {p.name: p.read_bytes() for p in boot.iterdir()}
    assert imager.main([str(boot), str(root)]) == 0
    assert capsys.readouterr().out == ""
    assert {p.name: p.read_bytes() for p in boot.iterdir()} == before


def test_imager_2_escaped_ssid_open_network_and_the_user_it_names_pi(card, capsys):
    boot, root = card
    ssid = b'Tink "Bell" \\ 5G'  # Imager 2 writes it as hex: in wpa_supplicant.conf
    imager_writes(boot, firstrun_2_0(ssid, ""))
    out = boots(boot, root, capsys)
    profile = read_profile(root)
    assert bytes(int(b) for b in profile["wifi"]["ssid"].split(";") if b) == ssid
    assert "wifi-security" not in profile
    assert "Imager's user 'pi' is not used on this tray: its SSH keys are root's." in out
    assert (boot / "authorized_keys").read_text().splitlines() == KEYS


def test_imager_2_plain_ssid_with_a_password_and_a_country(card, capsys):
    boot, root = card
    imager_writes(boot, firstrun_2_0(b"Neverland", "second-star-right", "fr", keys=False))
    out = boots(boot, root, capsys)
    assert read_profile(root)["wifi-security"]["psk"] == psk("second-star-right", "Neverland")
    assert (root / bs.REGULATORY).read_text() == "options cfg80211 ieee80211_regdom=FR\n"
    assert not (boot / "authorized_keys").exists() and "user" not in out


def test_imager_1_6_the_first_users_password_and_ssh_with_a_password_are_refused(card, capsys):
    boot, root = card
    imager_writes(boot, firstrun_1_6_2(), regdom="DE")
    out = boots(boot, root, capsys)
    assert read_profile(root)["wifi"]["ssid"] == "Nimmerland"
    assert "Imager's user and its password are not used on this tray:" in out
    assert "Imager's SSH with a password is not used: the tray's SSH takes keys only." in out
    assert not (boot / "authorized_keys").exists()


def test_the_wifi_file_a_family_filled_in_wins_over_imagers(card, capsys):
    boot, root = card
    family = 'country = "GB"\nssid = "Lost Boys"\npassword = "hook-is-a-cod"\n'
    (boot / bs.WIFI_FILE).write_text(family)
    imager_writes(boot, firstrun_1_8_5("Fairy Dell", "pixie-dust-42"))
    out = boots(boot, root, capsys)
    assert (boot / bs.WIFI_FILE).read_text() == family
    assert read_profile(root)["wifi"]["ssid"] == "Lost Boys"
    assert "Imager's Wi-Fi 'Fairy Dell' is not used: tinker-tray-wifi.txt names 'Lost Boys'" in out


def test_imagers_keys_join_the_keys_already_on_the_card_once(card, capsys):
    boot, root = card
    (boot / "authorized_keys").write_text(KEYS[1] + "\n")
    imager_writes(boot, firstrun_1_8_5("Fairy Dell", "pixie-dust-42"))
    boots(boot, root, capsys)
    assert (boot / "authorized_keys").read_text().splitlines() == [KEYS[1], KEYS[0]]


def test_a_hidden_network_is_named_and_its_flag_refused(card, capsys):
    boot, root = card
    imager_writes(boot, firstrun_1_8_5("Fairy Dell", "pixie-dust-42", hidden=True))
    out = boots(boot, root, capsys)
    assert read_profile(root)["wifi"]["ssid"] == "Fairy Dell"
    assert "Imager's 'hidden network' setting is not used" in out


@pytest.mark.parametrize(
    ("script", "sentence"),
    [
        (b"#!/bin/bash\n\xff\xfe garbage\n", "firstrun.sh: is not UTF-8 text"),
        (b"echo hello\n", "firstrun.sh: is not a script Raspberry Pi Imager writes"),
        (
            b"#!/bin/bash\ncat >/etc/wpa_supplicant/wpa_supplicant.conf <<'WPAEOF'\nssid=\"x\"\n",
            "firstrun.sh: its part <<'WPAEOF' has no end (WPAEOF)",
        ),
        (
            firstrun_1_8_5("Fairy Dell", "short").encode(),
            "firstrun.sh: the password has 5 characters; a WPA password has 8 to 63",
        ),
        (
            firstrun_2_0(b"Caf\xe9", "pixie-dust-42").encode(),
            "firstrun.sh: the network's name is not UTF-8 text",
        ),
        (
            b"#!/bin/sh\n/usr/lib/raspberrypi-sys-mods/imager_custom enable_ssh -k 'ssh-ed\n",
            "firstrun.sh: a line cannot be read (No closing quotation)",
        ),
    ],
)
def test_a_firstrun_sh_that_cannot_be_read_is_one_sentence_and_loses_nothing(
    card, capsys, script, sentence
):
    boot, root = card
    imager_writes(boot, script)
    wifi_before = (boot / bs.WIFI_FILE).read_text()
    out = boots(boot, root, capsys)
    said = [line for line in out.splitlines() if "Imager" in line or "firstrun" in line]
    assert said[0].startswith(f"tinker-tray: {sentence}"), said
    assert said[0].endswith(
        "Imager's settings were not used (the file is kept as firstrun.sh.done)."
    )
    assert (boot / "firstrun.sh.done").read_bytes() == script
    assert (boot / bs.WIFI_FILE).read_text() == wifi_before
    assert not (boot / "authorized_keys").exists() and not (root / bs.PROFILE).exists()
    assert (boot / "cmdline.txt").read_text() == CMDLINE + " cfg80211.ieee80211_regdom=GB\n"


def test_only_imagers_words_leave_cmdline_txt(card, capsys):
    boot, root = card
    (boot / "cmdline.txt").write_text(
        "systemd.unit=rescue.target quiet" + IMAGER_CMDLINE + " systemd.run_failure_action=none"
    )
    imager.main([str(boot), str(root)])
    assert (boot / "cmdline.txt").read_text() == "systemd.unit=rescue.target quiet\n"
    assert "Imager's systemd.run words are out of cmdline.txt." in capsys.readouterr().out


def test_the_wifi_file_keeps_the_familys_comments_and_reads_back(card):
    boot, _ = card
    network = wifi.Wifi('Tink "Bell" \\ café', "pixie-dust-42", "GB")
    text = imager.wifi_file_text((boot / bs.WIFI_FILE).read_text(), network)
    assert wifi.read_wifi(text) == network
    assert "# ssid: the network's name, exactly as phones show it." in text
    assert text.count("ssid = ") == 1


def _tool(path: str) -> str:
    if not os.access(path, os.X_OK):
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {path} is missing: .ci/run installs systemd")
        pytest.skip(f"no {path} here (apt-get install systemd)")
    return path


def _generated(tmp_path: Path) -> Path:
    """The units systemd's own generator makes of Imager's words on the kernel command line."""
    units = tmp_path / "units"
    units.mkdir()
    generator = _tool("/usr/lib/systemd/system-generators/systemd-run-generator")
    env = {**os.environ, "SYSTEMD_PROC_CMDLINE": CMDLINE + IMAGER_CMDLINE}
    subprocess.run([generator, units, units, units], env=env, check=True)
    return units


def _verify(unit: Path) -> subprocess.CompletedProcess[str]:
    analyze = shutil.which("systemd-analyze") or _tool("/usr/bin/systemd-analyze")
    return subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True)


def test_imagers_boot_would_run_a_missing_program_then_switch_the_pi_off(tmp_path):
    """Why the drop-ins: without them, Imager's command is no program on this image, and
    systemd's answer to its failure is FailureAction=exit (powered off), at a target that
    starts neither the network nor the tray."""
    units = _generated(tmp_path)
    service = (units / "kernel-command-line.service").read_text()
    assert "ExecStart=/boot/firstrun.sh" in service and "FailureAction=exit" in service
    done = _verify(units / "kernel-command-line.service")
    assert done.returncode != 0 and "/boot/firstrun.sh is not executable" in done.stderr


def test_the_images_drop_ins_make_imagers_boot_a_normal_one(tmp_path):
    units = _generated(tmp_path)
    for name in ("kernel-command-line.service.d", "kernel-command-line.target.d"):
        shutil.copytree(UNITS / name, units / name)
    for unit in ("kernel-command-line.service", "kernel-command-line.target"):
        done = _verify(units / unit)
        assert done.returncode == 0 and "firstrun" not in done.stderr, done.stderr
    service = configparser.ConfigParser(strict=False, interpolation=None)
    service.read(units / "kernel-command-line.service.d" / "tinker-tray.conf")
    assert service["Unit"]["SuccessAction"] == service["Unit"]["FailureAction"] == "none"
    target = (units / "kernel-command-line.target.d" / "tinker-tray.conf").read_text()
    assert "Wants=multi-user.target" in target


def test_imagers_settings_come_before_the_units_that_apply_them():
    unit = (UNITS / "tinker-tray-imager.service").read_text()
    assert "Before=tinker-tray-settings.service tinker-tray-ssh.service" in unit
    assert "StandardOutput=journal+console" in unit  # its sentences on the HDMI screen
    recipe = (ROOT / "image" / "steps" / "configure.sh").read_text()
    assert "tinker-tray-imager.service" in recipe.split("systemctl enable", 1)[1].split("\n\n")[0]


def test_imager_1_8_5_cloud_init_wifi_and_keys_the_country_from_cmdline_txt(card, capsys):
    boot, root = card
    user_data, network = cloudinit_1_8_5("Fairy Dell", "pixie-dust-42")
    (boot / "user-data").write_text(user_data)
    (boot / "network-config").write_text(network)
    (boot / "cmdline.txt").write_text(CMDLINE + " cfg80211.ieee80211_regdom=GB")
    out = boots(boot, root, capsys)
    profile = read_profile(root)
    assert profile["wifi"]["ssid"] == "Fairy Dell"
    assert profile["wifi-security"]["psk"] == psk("pixie-dust-42", "Fairy Dell")
    assert (root / bs.REGULATORY).read_text() == "options cfg80211 ieee80211_regdom=GB\n"
    assert (boot / "authorized_keys").read_text().splitlines() == KEYS
    assert (boot / "user-data.done").read_text() == user_data
    assert not (boot / "user-data").exists() and not (boot / "network-config").exists()
    assert (boot / "cmdline.txt").read_text() == CMDLINE + " cfg80211.ieee80211_regdom=GB"
    assert "Imager's user 'wendy' and its password are not used on this tray:" in out
    assert "Imager's hostname 'tinkerpi' is not used" in out
    assert "Imager's time zone and keyboard are not used" in out


def test_imager_2_cloud_init_a_name_in_escaped_bytes_and_its_country(card, capsys):
    boot, root = card
    ssid = 'Café "Tink"'.encode()
    user_data, network = cloudinit_2_0(ssid, "second-star-right")
    assert "\\xc3\\xa9" in network  # as Imager writes it
    (boot / "user-data").write_text(user_data)
    (boot / "network-config").write_text(network)
    (boot / "meta-data").write_text("instance-id: rpi-imager-1764201600000\n")
    out = boots(boot, root, capsys)
    profile = read_profile(root)
    assert bytes(int(b) for b in profile["wifi"]["ssid"].split(";") if b) == ssid
    assert profile["wifi-security"]["psk"] == psk("second-star-right", ssid)
    assert (root / bs.REGULATORY).read_text() == "options cfg80211 ieee80211_regdom=FR\n"
    assert (boot / "authorized_keys").read_text().splitlines() == KEYS
    assert "Imager's user 'pi' is not used on this tray: its SSH keys are root's." in out
    assert "password" not in out.replace("and its password", "")


@pytest.mark.parametrize(
    ("name", "text", "sentence"),
    [
        ("network-config", "wifis: [unclosed\n", "network-config: is not YAML at line 2"),
        ("user-data", "- just\n- a list\n", "user-data: holds no settings"),
        (
            "network-config",
            'version: 2\nwifis:\n  wlan0:\n    access-points:\n      "Fairy":\n'
            '        password: "short"\n',
            "network-config: the password has 5 characters",
        ),
    ],
)
def test_cloud_init_files_that_cannot_be_read_are_one_sentence_and_lose_nothing(
    card, capsys, name, text, sentence
):
    boot, root = card
    (boot / name).write_text(text)
    wifi_before = (boot / bs.WIFI_FILE).read_text()
    out = boots(boot, root, capsys)
    said = [line for line in out.splitlines() if "Imager" in line]
    assert len(said) == 1 and said[0].startswith(f"tinker-tray: {sentence}"), said
    assert said[0].endswith(f": Imager's settings were not used (the file is kept as {name}.done).")
    assert (boot / f"{name}.done").read_text() == text
    assert (boot / bs.WIFI_FILE).read_text() == wifi_before
    assert not (boot / "authorized_keys").exists() and not (root / bs.PROFILE).exists()


def test_a_card_without_python3_yaml_still_reads_firstrun_sh_and_says_what_it_lacks(card):
    """A card built before python3-yaml was in the image and updated since: `python -m
    bootfiles.imager`, as the unit runs it, with no YAML library to import."""
    boot, root = card
    imager_writes(boot, firstrun_1_8_5("Fairy Dell", "pixie-dust-42"))
    (boot / "user-data").write_text(cloudinit_1_8_5("Fairy Dell", "pixie-dust-42")[0])
    blocked = (
        "import runpy, sys; sys.modules['yaml'] = None; sys.argv[1:] = sys.argv[-2:]; "
        "runpy.run_module('bootfiles.imager', run_name='__main__')"
    )
    done = subprocess.run(
        [sys.executable, "-c", blocked, str(boot), str(root)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "Imager's Wi-Fi 'Fairy Dell' is now in tinker-tray-wifi.txt." in done.stdout
    assert (
        "user-data: cannot be read on this card (it lacks Debian's python3-yaml: apt install "
        "python3-yaml): Imager's settings were not used (the file is kept as user-data.done)."
    ) in done.stdout


def test_a_card_without_a_wifi_file_gets_the_shipped_one_with_imagers_network(card, capsys):
    boot, root = card
    (boot / bs.WIFI_FILE).unlink()
    imager_writes(boot, firstrun_1_8_5("Fairy Dell", "pixie-dust-42"))
    boots(boot, root, capsys)
    text = (boot / bs.WIFI_FILE).read_text()
    assert "# ssid: the network's name, exactly as phones show it." in text
    assert wifi.read_wifi(text) == wifi.Wifi("Fairy Dell", psk("pixie-dust-42", "Fairy Dell"), "GB")
