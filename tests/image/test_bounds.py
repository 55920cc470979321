"""The bounds every boot-partition reader shares (bootfiles/shown.py, refusals.py, deadline.py):
what the screen shows of the card's text, how much is printed at most, what is remembered of a
refusal, and the reader that stops itself."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bootfiles import settings
from bootfiles.card import CardFile
from bootfiles.deadline import TooLong, deadline
from bootfiles.imager import honour
from bootfiles.refusals import PATH, Refusals
from bootfiles.shown import OUTPUT, SENTENCE, say, shown
from tests.helpers.boot_partition import make_card

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "image" / "rootfs" / "etc" / "systemd" / "system"


def test_the_cards_control_characters_are_shown_as_escapes():
    forged = "Fairy\x1b[2J\x1b[H\r\ntinker-tray login: \u202e\x07\t"
    assert shown(forged) == "Fairy\\x1b[2J\\x1b[H\\r\\ntinker-tray login: \\u202e\\x07\\t"
    assert shown("Café “Tink” 🧚") == "Café “Tink” 🧚"  # printable text stays as it is


def test_a_sentence_is_cut_after_its_escapes_are_counted():
    assert shown("x" * 10_000) == "x" * (SENTENCE - 1) + "…"
    escaped = shown("\x1b" * 10_000)
    assert len(escaped) == SENTENCE and escaped.endswith("…") and "\x1b" not in escaped


def test_everything_printed_stays_under_the_output_bound():
    stream = io.StringIO()
    say(["a very long sentence " * 100] * 1000, stream)
    out = stream.getvalue()
    assert len(out.encode()) < 64 * 1024 and OUTPUT < 64 * 1024
    assert out.splitlines()[-1].endswith("more sentences were left out.")
    assert all(line.startswith("tinker-tray: ") for line in out.splitlines())


def test_a_console_without_utf_8_gets_escapes_not_a_crash():
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="ascii")
    say(["Wi-Fi: 'Café'."], stream)
    assert raw.getvalue() == b"tinker-tray: Wi-Fi: 'Caf\\xe9'.\n"


def test_a_refusal_is_remembered_by_the_files_bytes(tmp_path):
    bad, fixed = CardFile("x.txt", b"bad"), CardFile("x.txt", b"fixed")
    refusals = Refusals(tmp_path)
    refusals.remember(bad, "x.txt: bad.")
    refusals.save()
    again = Refusals(tmp_path)
    assert again.said(bad) == "x.txt: bad." and again.said(fixed) is None
    again.forget("x.txt")
    again.save()
    assert Refusals(tmp_path).said(bad) is None


@pytest.mark.parametrize(
    "record", [b"{not json", b"[1, 2]", b'{"x.txt": 5}', b"\xff" * 70_000, b"[" * 60_000]
)
def test_a_damaged_record_only_means_a_sentence_said_again(tmp_path, record):
    (tmp_path / PATH).parent.mkdir(parents=True)
    (tmp_path / PATH).write_bytes(record)
    assert Refusals(tmp_path).said(CardFile("x.txt", b"bad")) is None


def test_the_deadline_stops_a_reader_that_never_ends():
    with pytest.raises(TooLong), deadline(0.05):
        while True:
            pass


@pytest.mark.parametrize("program", [settings, honour], ids=["settings", "imager"])
def test_a_reader_past_its_deadline_says_so_and_the_boot_goes_on(
    tmp_path, monkeypatch, capsys, program
):
    def endless(*_: object) -> None:
        raise TooLong

    monkeypatch.setattr(program, "run", endless)
    boot, root = make_card(tmp_path)
    assert program.main([str(boot), str(root)]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "s to read: stopped" in out


def test_the_units_give_their_readers_a_time_limit():
    for name in ("tinker-tray-settings.service", "tinker-tray-imager.service"):
        assert "\nTimeoutStartSec=1min\n" in (UNITS / name).read_text(), name
