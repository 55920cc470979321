"""`./tinker image check` (image/check.py, once bench/image_boot.py) without qemu: its command
line (--help, a missing image, a bad --cuts: one sentence each), and the tray's share of the boot
(image/boot_share.py) read from systemd's answers in the guest. The samples are in the format
systemd 257 (trixie's) prints: `systemd-analyze`, `systemd-analyze critical-chain`, and the unit's
*TimestampMonotonic properties, microseconds since the kernel started."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from image.boot_share import (
    BootShareError,
    ChainLink,
    boot_share,
    parse_chain,
    parse_span,
    parse_startup,
)
from image.check import parser, tray_in_boot

ROOT = Path(__file__).resolve().parents[2]

STARTUP = (
    "Startup finished in 6.212s (kernel) + 21.480s (initrd) + 1min 47.302s (userspace)"
    " = 2min 14.995s"
)
CHAIN = """The time when unit became active or started is printed after the "@" character.
The time the unit took to start is printed after the "+" character.

tinker-tray.service @1min 41.204s +31.879s
└─network.target @1min 40.998s
  └─NetworkManager.service @1min 30.512s +10.463s
    └─dbus.service @1min 29.804s
      └─basic.target @1min 29.512s
"""


def _tinker(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """`./tinker image ...` run from another folder, as a maintainer may (cwd "/")."""
    return subprocess.run(
        [ROOT / "tinker", "image", *args], capture_output=True, text=True, env=dict(os.environ),
        cwd="/",
    )  # fmt: skip


def test_help_names_the_image_and_the_cuts():
    done = _tinker("check", "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: ./tinker image check ")
    assert "--cuts" in done.stdout and "image" in done.stdout


def test_a_missing_image_is_one_sentence(tmp_path):
    done = _tinker("check", tmp_path / "tray.img")
    assert done.returncode == 1
    assert done.stderr == (
        f"tinker image check: there is no image at {tmp_path / 'tray.img'}"
        " (sudo ./tinker image build makes one: docs/image.md).\n"
    )


def test_a_negative_number_of_cuts_is_one_sentence(tmp_path):
    image = tmp_path / "tray.img"
    image.write_bytes(b"\0" * 512)
    done = _tinker("check", image, "--cuts", "-1")
    assert done.returncode == 2 and done.stderr.count("\n") == 1


def test_the_options_and_their_defaults():
    args = parser().parse_args(["tray.img"])
    assert (args.cuts, args.port, args.update, args.git_port) == (10, 18080, False, 18090)
    args = parser().parse_args(["tray.img", "--cuts", "3", "--update", "--git-port", "18100"])
    assert (args.cuts, args.update, args.git_port) == (3, True, 18100)


def test_tinker_image_without_a_known_word_names_both():
    done = _tinker("boot")
    assert done.returncode == 2
    assert "./tinker image build" in done.stderr and "./tinker image check" in done.stderr


@pytest.mark.parametrize(
    ("span", "seconds"),
    [("2min 14.995s", 134.995), ("345ms", 0.345), ("1h 2min", 3720.0), ("12us", 12e-6),
     ("6.212s", 6.212)],
)  # fmt: skip
def test_systemd_time_spans(span, seconds):
    assert parse_span(span) == pytest.approx(seconds)


def test_a_span_with_words_it_does_not_know_is_refused():
    with pytest.raises(BootShareError):
        parse_span("2 fortnights")


def test_systemd_analyze_stages():
    assert parse_startup(STARTUP) == pytest.approx(
        {"kernel": 6.212, "initrd": 21.48, "userspace": 107.302, "total": 134.995}
    )
    with pytest.raises(BootShareError, match="Startup finished"):
        parse_startup("Bootup is not yet finished (org.freedesktop.systemd1.Manager.Finish...)")


def test_the_critical_chain_tray_first_then_what_it_waited_for():
    chain = parse_chain(CHAIN)
    assert [link.unit for link in chain] == [
        "tinker-tray.service",
        "network.target",
        "NetworkManager.service",
        "dbus.service",
        "basic.target",
    ]
    assert chain[0] == ChainLink("tinker-tray.service", pytest.approx(101.204), 31.879)
    assert chain[1].took is None and chain[2].took == pytest.approx(10.463)


def test_the_trays_share_of_the_boot():
    share = boot_share(unit_start_us="101204113", ready_us="133083250")
    assert share.to_ready == pytest.approx(133.08325)
    assert share.tray == pytest.approx(31.879137)
    assert share.share == pytest.approx(0.2395, abs=1e-4)
    assert share.sentence() == (
        "133.1 s from the kernel's start to the tray's READY=1, of it the tray's own start"
        " 31.9 s = 24% (OVER the aim of 15%)"
    )
    assert "(within the aim of 15%)" in boot_share("120000000", "133000000").sentence()


@pytest.mark.parametrize(("start", "ready"), [("", ""), ("[not set]", "5"), ("0", "0"),
                                              ("9000", "8000")])  # fmt: skip
def test_a_tray_that_never_said_ready_is_a_sentence_not_a_number(start, ready):
    with pytest.raises(BootShareError):
        boot_share(start, ready)


def test_the_checks_line_from_the_guests_answers():
    facts = {
        "unit_start_us": "101204113",
        "ready_us": "133083250",
        "startup": STARTUP,
        "chain": CHAIN.replace("\n", "|"),  # as the guest's script sends it, one line
    }
    line = tray_in_boot(facts)
    assert line.startswith("133.1 s from the kernel's start to the tray's READY=1")
    assert "systemd-analyze: total 135.0 s, kernel 6.2 s, initrd 21.5 s, userspace 107.3 s" in line
    assert line.endswith("it waited last for network.target (active at 101.0 s)")
    assert tray_in_boot({}).startswith("not measured: ")
