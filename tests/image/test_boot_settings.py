"""Wi-Fi and settings from the boot partition (bootfiles/settings.py), with the files a family
writes: a good one becomes a NetworkManager profile and the pin map; a bad one is one sentence
on the screen (the login banner) and in the journal, changes nothing, and the tray still
starts (the program exits 0; the settings the tray reads are still the last good ones)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bootfiles import settings as bs
from tests.helpers.boot_partition import make_card, read_profile
from tray import config as tray_config

ROOT = Path(__file__).resolve().parents[2]
GOOD_WIFI = 'country = "gb"\nssid = "Fairy Dell"\npassword = "pixie-dust-42"\n'


@pytest.fixture
def card(tmp_path: Path) -> tuple[Path, Path]:
    return make_card(tmp_path)


def test_the_shipped_wifi_file_names_no_network_and_makes_no_profile(card, capsys):
    boot, root = card
    (boot / bs.WIFI_FILE).write_text((ROOT / "image" / "bootfs" / bs.WIFI_FILE).read_text())
    assert bs.main([str(boot), str(root)]) == 0
    assert not (root / bs.PROFILE).exists() and not (root / bs.ISSUE).exists()
    assert "names no network" in capsys.readouterr().out


def test_a_wifi_file_becomes_a_networkmanager_profile_only_root_reads(card):
    boot, root = card
    (boot / bs.WIFI_FILE).write_text(GOOD_WIFI)
    assert bs.main([str(boot), str(root)]) == 0
    profile = read_profile(root)
    assert (
        profile["wifi"]["ssid"] == "Fairy Dell"
        and profile["wifi-security"]["psk"] == "pixie-dust-42"
    )
    assert (
        profile["connection"]["type"] == "wifi"
        and profile["wifi-security"]["key-mgmt"] == "wpa-psk"
    )
    assert (root / bs.PROFILE).stat().st_mode & 0o777 == 0o600  # NetworkManager ignores others
    assert (root / bs.REGULATORY).read_text() == "options cfg80211 ieee80211_regdom=GB\n"
    assert not (root / bs.ISSUE).exists()


def test_an_odd_ssid_is_written_as_bytes_an_open_network_without_security(card):
    boot, root = card
    (boot / bs.WIFI_FILE).write_text('ssid = " café;net"\npassword = ""\n')
    bs.main([str(boot), str(root)])
    profile = read_profile(root)
    assert bytes(int(b) for b in profile["wifi"]["ssid"].split(";") if b) == " café;net".encode()
    assert "wifi-security" not in profile


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("ssid = Fairy Dell\n", 'write each setting as name = "value"'),
        ('ssid = "Fairy"\npasword = "pixie-dust-42"\n', "'pasword' is not a Wi-Fi setting"),
        (
            'ssid = "Fairy"\npassword = "short"\n',
            "the password has 5 characters; a WPA password has 8 to 63",
        ),
        ('ssid = "' + "x" * 33 + '"\n', "the ssid has 33 bytes; a network's name has at most 32"),
        ('ssid = "Fairy"\npassword = 12345678\n', "password must be text in double quotes"),
        (
            'country = "Britain"\nssid = "Fairy"\npassword = "pixie-dust-42"\n',
            "country must be two letters",
        ),
    ],
)
def test_a_bad_wifi_file_is_one_sentence_and_keeps_the_last_good_profile(
    card, capsys, text, sentence
):
    boot, root = card
    (boot / bs.WIFI_FILE).write_text(GOOD_WIFI)
    bs.main([str(boot), str(root)])
    good = (root / bs.PROFILE).read_text()
    capsys.readouterr()
    (boot / bs.WIFI_FILE).write_text(text)
    assert bs.main([str(boot), str(root)]) == 0  # the tray's start is never held up
    out = capsys.readouterr().out
    assert sentence in out and out.count("\n") == 1 and "nothing was changed" in out
    assert "Traceback" not in out
    assert (root / bs.PROFILE).read_text() == good
    assert sentence in (root / bs.ISSUE).read_text()  # on the HDMI screen's login banner


def test_a_file_that_is_not_text_is_one_sentence(card, capsys):
    boot, root = card
    (boot / bs.WIFI_FILE).write_bytes(b"\xff\xfe\x00s\x00s")
    assert bs.main([str(boot), str(root)]) == 0
    assert "is not UTF-8 text" in capsys.readouterr().out


def test_settings_from_the_boot_partition_become_the_pin_map(card):
    boot, root = card
    text = (
        (ROOT / "hardware" / "pinmap.toml").read_text().replace("pull_up = true", "pull_up = false")
    )
    (boot / bs.SETTINGS_FILE).write_text(text)
    assert bs.main([str(boot), str(root)]) == 0
    assert tray_config.load(root / bs.PINMAP).button.pull_up is False


def test_bad_settings_keep_the_last_good_ones_and_the_tray_still_reads_them(card, capsys):
    boot, root = card
    before = (root / bs.PINMAP).read_text()
    (boot / bs.SETTINGS_FILE).write_text("[button]\npin = 99\n")
    assert bs.main([str(boot), str(root)]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and bs.SETTINGS_FILE in out and "keeps its previous settings" in out
    assert (root / bs.PINMAP).read_text() == before
    assert tray_config.load(root / bs.PINMAP).button.pin == 26  # what the tray starts with
    assert "keeps its previous settings" in (root / bs.ISSUE).read_text()
    (boot / bs.SETTINGS_FILE).write_text(before)
    bs.main([str(boot), str(root)])
    assert not (root / bs.ISSUE).exists()  # fixed: the banner's warning goes


def test_a_backslash_in_a_problem_cannot_become_a_banner_escape(card):
    assert "\\\\4" in bs.banner(["ssid = \\4"])


def test_a_settings_file_with_hundreds_of_mistakes_is_one_short_sentence_that_ends(card, capsys):
    boot, root = card
    (boot / bs.SETTINGS_FILE).write_text("".join(f"mistake_{n} = {n}\n" for n in range(500)))
    assert bs.main([str(boot), str(root)]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and len(out) <= 700
    assert "mistake_0" in out
    assert out.endswith("… (the tray keeps its previous settings): nothing was changed.\n")
