"""Every error a sentence: a mistake on the command line, a file that cannot be written, a busy
port or a missing device is one line naming the problem and a non-zero exit, never a traceback;
and a file that will be written is checked before the work starts."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from cli import main as cli
from cli import network
from cli.commands import simulate

ROOT = Path(__file__).resolve().parents[2]

QUICK_PINS = """\
[leds]
red = { pin = 5 }
blue = { pin = 6 }
green = { pin = 13 }
yellow = { pin = 19 }
"""


def one_line(text: str) -> str:
    """The single line of an error (asserting that it is one, and no traceback)."""
    assert "Traceback" not in text
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


def fails(capsys, *argv: str) -> tuple[int, str]:
    """Run `tinker-tray argv` in this process: (exit status, its one line on stderr)."""
    try:
        code = cli.main(list(argv))
    except SystemExit as exc:  # argparse's errors exit
        code = exc.code
    return code, one_line(capsys.readouterr().err)


def test_records_into_a_file_is_refused_before_any_hand_is_played(capsys, tmp_path):
    a_file = tmp_path / "passwd"
    a_file.write_text("root:x:0:0")
    code, line = fails(capsys, "simulate", "--hands", "2", "--records", str(a_file))
    assert code == 2
    assert line == f"tinker-tray simulate: --records: {a_file} is a file, not a folder"
    assert a_file.read_text() == "root:x:0:0"


def test_a_port_out_of_range_is_an_option_error(capsys):
    code, line = fails(capsys, "run", "--port", "99999")
    assert code == 2
    assert line == (
        "tinker-tray run: argument --port: a port is from 0 to 65535 (0: any free "
        "port), not 99999 (see tinker-tray run --help)"
    )


def test_a_journal_that_cannot_be_created_is_one_line(capsys, tmp_path):
    (tmp_path / "nope").write_text("a file, where the journal's folder should be")
    journal = tmp_path / "nope" / "j.sqlite3"
    code, line = fails(capsys, "display", "--journal", str(journal), "--port", "0")
    assert code == 1
    assert line.startswith(f"tinker-tray display: cannot open the journal {journal}: ")


def test_a_journal_on_a_path_that_cannot_hold_a_database_is_one_line(capsys):
    code, line = fails(capsys, "display", "--journal", "/proc/tinker.sqlite3", "--port", "0")
    assert code == 1
    assert line.startswith("tinker-tray display: cannot open the journal /proc/tinker.sqlite3")


def test_bench_without_a_terminal_asks_for_answers_instead_of_failing_on_eof(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", open("/dev/null"))  # noqa: SIM115 - closed by pytest
    code, line = fails(capsys, "bench", "--mock", "--seconds", "0")
    assert code == 2
    assert "run it in a terminal, or give the answers with --answers" in line


def test_bench_input_ending_half_way_is_a_sentence(monkeypatch):
    from cli.commands import bench

    def ended(_prompt: str) -> str:
        raise EOFError

    monkeypatch.setattr("builtins.input", ended)
    with pytest.raises(bench.NoAnswer, match="run it in a terminal"):
        bench.asker(None, sys.stdout)("Is the RED light on?")


def test_play_refuses_a_record_it_could_not_write_before_the_game(capsys, tmp_path):
    target = tmp_path / "missing" / "dir" / "x.jsonl"
    code, line = fails(capsys, "play", "--humans", "none", "--record", str(target))
    assert code == 2
    assert line == f"tinker-tray play: --record: the folder {target.parent} does not exist"
    code, line = fails(capsys, "play", "--humans", "none", "--record", str(tmp_path))
    assert line == f"tinker-tray play: --record: {tmp_path} is a directory, not a file"


def test_play_refuses_a_record_where_no_file_can_be_made_before_the_game(capsys):
    code, line = fails(capsys, "play", "--humans", "none", "--record", "/proc/tinker.jsonl")
    assert code == 2
    assert line.startswith("tinker-tray play: --record: cannot write /proc/tinker.jsonl: ")


def test_play_whose_record_cannot_be_written_at_the_end_fails(capsys, tmp_path, monkeypatch):
    from pathlib import Path

    record = tmp_path / "game.jsonl"

    def full_disk(self, *args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full_disk)
    code = cli.main(["play", "--humans", "none", "--hands", "1", "--record", str(record)])
    assert code == 1
    assert "Could not write the game record" in capsys.readouterr().out


def test_emulate_on_a_port_in_use_stops_with_a_message(capsys, tmp_path):
    pins = tmp_path / "pins.toml"
    pins.write_text(QUICK_PINS)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code = cli.main(
            [
                "emulate",
                "--config",
                str(pins),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--journal",
                str(tmp_path / "j.sqlite3"),
                "--presses",
                "1",
            ]
        )
    err = capsys.readouterr().err
    assert code == 1
    assert "Traceback" not in err
    assert (
        f"tinker-tray: the score display cannot start: cannot serve on 127.0.0.1:{port}: "
        "the port is in use"
    ) in err
    assert "emulator ready" not in capsys.readouterr().out


def test_an_explicit_serial_port_that_does_not_exist_is_refused(capsys):
    code, line = fails(capsys, "bridge", "monitor", "--port", "/dev/ttyNOPE")
    assert code == 2
    assert line.startswith("tinker-tray bridge: there is no port /dev/ttyNOPE ")


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("partners=maybe", 'option partners must be true or false, not "maybe"'),
        ("scoring=best", 'option scoring must be "standard", "lowest" or "challenge", not "best"'),
        ("target=0", "option target must be a whole number from 1 to 100000, not 0"),
    ],
)
def test_option_errors_are_in_the_users_words(capsys, option, message):
    code, line = fails(capsys, "simulate", "--hands", "1", "--option", option)
    assert code == 2
    assert line == f"tinker-tray simulate: {message}"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--hands", "x"], "argument --hands: takes a whole number, not 'x'"),
        (
            ["simulate", "--hands", "1", "--players", "four"],
            "argument --players: takes a whole number, not 'four'",
        ),
        (["bench", "--seconds", "-1"], "argument --seconds: takes a number of seconds from 0"),
        (["emulate", "--presses", "-2"], "argument --presses: must be at least 0, not -2"),
    ],
)
def test_bad_option_values_are_one_line(capsys, argv, message):
    code, line = fails(capsys, *argv)
    assert code == 2
    assert message in line and line.startswith(f"tinker-tray {argv[0]}: ")


def test_replay_of_a_missing_file_names_it(capsys, tmp_path):
    code, line = fails(capsys, "replay", str(tmp_path / "gone.jsonl"))
    assert code == 2
    assert (
        line == f"tinker-tray replay: cannot read {tmp_path / 'gone.jsonl'}: no such file or "
        "directory"
    )


def test_an_unexpected_os_error_is_one_line(capsys, monkeypatch):
    def broken(_args):
        raise PermissionError(13, "Permission denied", "/dev/gpiochip0")

    monkeypatch.setattr(simulate, "run", broken)
    code, line = fails(capsys, "simulate", "--hands", "1")
    assert code == 1
    assert line == "tinker-tray simulate: /dev/gpiochip0: Permission denied"


def test_version_names_the_commit_of_a_checkout_between_releases(capsys):
    """In a checkout, the release that runs is named by its tag, else its commit (a slot's
    RELEASE file names it there: tests/update)."""
    import subprocess
    from pathlib import Path

    root = Path(cli.__file__).resolve().parents[1]
    head = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    with pytest.raises(SystemExit) as stop:
        cli.main(["--version"])
    assert stop.value.code == 0
    said = capsys.readouterr().out.strip()
    assert said.startswith("tinker-tray ")
    assert said.startswith("tinker-tray v") or said.startswith(f"tinker-tray commit {head}")


def test_simulate_records_ends_with_what_was_written(capsys, tmp_path):
    folder = tmp_path / "records"
    assert cli.main(["simulate", "--hands", "2", "--records", str(folder)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1] == (
        f"Wrote 2 game records to {folder} (hand-00001.jsonl to hand-00002.jsonl); "
        f"replay one with: tinker-tray replay {folder / 'hand-00001.jsonl'}"
    )
    assert sorted(p.name for p in folder.iterdir()) == ["hand-00001.jsonl", "hand-00002.jsonl"]


def test_simulate_json_keeps_stdout_for_the_json(capsys, tmp_path):
    import json

    assert cli.main(["simulate", "--hands", "1", "--json", "--records", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["hands"] == 1
    assert captured.err.startswith("Wrote 1 game record to ")


# --- where phones find the display ------------------------------------------------------


def test_serving_every_interface_links_the_lan_address():
    found = network.addresses("0.0.0.0", 8080, find_lan=lambda: "192.168.1.20")
    assert found == network.Addresses("http://192.168.1.20:8080", "192.168.1.20", None)


def test_no_network_is_a_warning_and_links_this_machine():
    found = network.addresses("0.0.0.0", 8080, find_lan=lambda: None)
    assert found.url == "http://127.0.0.1:8080" and found.ip is None
    assert found.warning.startswith("no network found: only this machine can open the display")


def test_loopback_is_a_warning_naming_the_way_to_serve_the_table():
    found = network.addresses("127.0.0.1", 8080, find_lan=lambda: "192.168.1.20")
    assert found.url == "http://127.0.0.1:8080" and found.ip is None
    assert "phones cannot open the display (--host 0.0.0.0 serves the table)" in found.warning


def test_a_url_given_by_hand_goes_in_the_qr_code():
    found = network.addresses("0.0.0.0", 8080, "http://kitchen.lan", find_lan=lambda: "10.0.0.2")
    assert found.url == "http://kitchen.lan" and found.ip == "10.0.0.2"


def test_run_emulate_and_display_share_one_default_address_and_port(monkeypatch):
    import argparse

    from cli.commands import display, emulate, run

    monkeypatch.delenv("TINKER_TRAY_MDNS")  # the suite turns mDNS off; a user's default is on
    for module in (run, emulate, display):
        parser = argparse.ArgumentParser()
        module.add_arguments(parser)
        args = parser.parse_args([])
        assert (args.host, args.port, args.mdns) == ("0.0.0.0", 8080, True)


def test_the_test_suite_announces_nothing_on_the_lan():
    import argparse

    from cli.commands import display

    parser = argparse.ArgumentParser()
    display.add_arguments(parser)
    assert parser.parse_args([]).mdns is False


def test_the_display_is_announced_as_tinker_tray_local_and_withdrawn(monkeypatch):
    import types

    calls: list[tuple[str, object]] = []

    class FakeZeroconf:
        def register_service(self, info, allow_name_change=False):
            calls.append(("register", info))

        def unregister_service(self, info):
            calls.append(("unregister", info))

        def close(self):
            calls.append(("close", None))

    fake = types.SimpleNamespace(
        Zeroconf=FakeZeroconf, ServiceInfo=lambda *a, **kw: types.SimpleNamespace(args=a, **kw)
    )
    monkeypatch.setitem(sys.modules, "zeroconf", fake)
    withdraw = network.announce("192.168.1.20", 8080)
    withdraw()
    (_, info), (second, _), (third, _) = calls
    assert info.server == "tinker-tray.local." and info.port == 8080
    assert info.addresses == [socket.inet_aton("192.168.1.20")]
    assert (second, third) == ("unregister", "close")


def test_without_zeroconf_the_display_still_serves_with_a_warning(monkeypatch, caplog):
    monkeypatch.setitem(sys.modules, "zeroconf", None)  # as if it were not installed
    network.announce("192.168.1.20", 8080)()
    assert "not announced as tinker-tray.local" in caplog.text


def test_replay_plays_an_old_record_under_the_option_it_was_written_with(capsys):
    """A Disney record from before the book's reading became the default (a player holding
    Tinker Bell's colour took the four cards): refused as it stands, replayed with the option."""
    from pathlib import Path

    from cli import main as cli

    old = Path(__file__).parents[1] / "engine" / "records" / "disney-p4-s1-hand-00003.jsonl"
    assert cli.main(["replay", str(old)]) == 1
    assert json.loads(capsys.readouterr().out)["rule"] == "protect-must"
    assert cli.main(["replay", str(old), "--option", "villain_draw4_may_take=true"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True


def test_replay_refuses_an_option_without_a_value(capsys):
    from cli import main as cli

    with pytest.raises(SystemExit) as exit_:
        cli.main(["replay", "x.jsonl", "--option", "villain_draw4_may_take"])
    assert exit_.value.code == 2
    assert "NAME=VALUE" in capsys.readouterr().err


def test_bridge_monitor_takes_the_port_plainly_and_points_at_its_own_help(capsys):
    code, line = fails(capsys, "bridge", "monitor", "/dev/ttyACM9", "--seconds", "1")
    assert code != 0 and "there is no port /dev/ttyACM9" in line
    code, line = fails(capsys, "bridge", "monitor", "/dev/ttyACM9", "--bogus")
    assert code == 2
    assert line == (
        "tinker-tray bridge monitor: unrecognized arguments: --bogus "
        "(see tinker-tray bridge monitor --help)"
    )
    code, line = fails(capsys, "bridge", "monitor", "/dev/ttyACM9", "--port", "/dev/ttyACM8")
    assert code == 2 and "two ports given" in line


@pytest.mark.parametrize("command", ["simulate", "play"])
def test_an_unknown_ruleset_lists_every_ruleset_including_elite(capsys, command):
    args = ["--games", "1"] if command == "simulate" else []
    code, line = fails(capsys, command, "--ruleset", "uno", *args)
    assert code != 0
    assert line == (
        f"tinker-tray {command}: unknown ruleset 'uno' "
        "(this engine plays: disney, classic, official-2018, elvis and elite)"
    )


def test_a_reader_that_stops_early_is_a_quiet_end(tmp_path):
    """`simulate --json | head -c 50`: the reader has gone before the statistics are written (its
    end of the pipe is closed at once here, so the write always finds it closed); a command-line
    tool then ends quietly, as `cat` does, not with a sentence about a broken pipe."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", "simulate", "--hands", "5", "--players", "2", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdout is not None
    proc.stdout.close()
    _, err = proc.communicate(timeout=120)
    assert err == b""
    assert proc.returncode == 0


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "--hands", "5", "--players", "2"],  # the statistics as rich's table
        ["play", "--players", "Ann,Bo", "--humans", "none", "--pace", "0"],  # a bots' game
    ],
    ids=["simulate", "play"],
)
def test_a_reader_that_stops_early_ends_rich_output_quietly_too(command):
    """`simulate ... | head -2`, `play ... | head -3`: what rich's console writes (the table,
    the game) met a closed pipe with rich's own SystemExit(1) and no word; now the same quiet
    end, status 0, as the JSON above (issue 41.13)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        cwd=ROOT,
    )
    assert proc.stdout is not None
    proc.stdout.close()
    _, err = proc.communicate(timeout=120)
    assert err == b""
    assert proc.returncode == 0


def test_a_journal_that_cannot_be_opened_is_said_in_whole_sentences(capsys, tmp_path):
    """Issue 52, 12: the display's own sentences end with a full stop; what the service adds
    starts a sentence of its own after them, never ". ;"."""
    pins = tmp_path / "pins.toml"
    pins.write_text(QUICK_PINS)
    journal = tmp_path / "j.sqlite3"
    journal.write_bytes(b"this is not a database, but a photo " * 200)
    code = cli.main(
        ["emulate", "--config", str(pins), "--host", "127.0.0.1", "--port", "0",
         "--journal", str(journal), "--presses", "1"]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    line = next(x for x in err.splitlines() if "the score display cannot start" in x)
    assert ". ;" not in line and ".;" not in line
    assert line.endswith(". Or run without it: --no-web.") or line.endswith(
        "; or run without it: --no-web"
    ), line
