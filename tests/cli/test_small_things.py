"""Small things a new user met (issue 52, item 12): bench's scripted answers running out, the
simulation's title wrapping, `display --help` printing someone's home, `release --help` naming a
signing it does not do, and `release pack` downloading every wheel before it looked at the tag."""

from __future__ import annotations

import dataclasses
import re
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from cli import main as cli
from cli.commands import bench, release, simulate
from tests.helpers.maintainer import git, pack_argv, sign
from tests.helpers.maintainer import maintainer as release_set_up
from tray.config import load


def help_of(capsys, *argv: str) -> str:
    """The help's text on one line (argparse's wrapping undone; wide, so nothing is hyphenated)."""
    with pytest.MonkeyPatch.context() as wide:
        wide.setenv("COLUMNS", "400")
        status: object
        try:
            status = cli.main([*argv, "--help"])
        except SystemExit as ended:
            status = ended.code
    assert status == 0
    return " ".join(capsys.readouterr().out.split())


# 1. bench --answers


def test_bench_refuses_too_few_answers_before_a_pin_is_opened(capsys, mocker):
    opened = mocker.patch("tray.pins.make_pin_factory")
    assert cli.main(["bench", "--mock", "--answers", "yy", "--seconds", "0"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "tinker-tray bench: --answers gave 2 answers; the bench asks 8 questions "
        "(2 for each light): give one y or n for each\n"
    )
    opened.assert_not_called()


def test_bench_counts_the_buzzer_question_when_the_buzzer_is_enabled():
    config = load()
    buzzer = dataclasses.replace(config, buzzer=dataclasses.replace(config.buzzer, enabled=True))
    assert bench.questions(config) == 8 and bench.questions(buzzer) == 9
    assert "9 questions (2 for each light, 1 for the buzzer)" in str(
        bench.answers_problem("y" * 8, buzzer)
    )
    assert bench.answers_problem("y" * 9, buzzer) is None


@pytest.mark.parametrize("buzzer", [False, True])
def test_the_number_of_questions_is_the_number_the_bench_asks(buzzer):
    config = load()
    config = dataclasses.replace(config, buzzer=dataclasses.replace(config.buzzer, enabled=buzzer))
    asked: list[str] = []

    def ask(question: str) -> bool:
        asked.append(question)
        return True

    devices = SimpleNamespace(set_levels=lambda levels: None, sound=lambda value: None)
    bench.walk_lights(devices, config, ask, fade_seconds=0)
    bench.beep(devices, config, ask, sleep=lambda seconds: None)
    assert len(asked) == bench.questions(config)


def test_bench_answers_running_out_is_said_never_taken_for_a_no(capsys):
    ask = bench.asker("y", None)
    assert ask("Is the RED light on, and no other?") is True
    with pytest.raises(bench.NoAnswer) as said:
        ask("Did the RED light fade out smoothly and go off?")
    assert str(said.value) == (
        "--answers gave 1 answer, none for question 2: "
        "Did the RED light fade out smoothly and go off?"
    )


def test_bench_refuses_answers_that_are_not_y_or_n(capsys):
    with pytest.raises(SystemExit) as ended:
        cli.main(["bench", "--mock", "--answers", "yyyyyyyx"])
    assert ended.value.code == 2
    assert "argument --answers: takes y and n only" in capsys.readouterr().err


def test_bench_says_when_answers_are_left_over(capsys, mocker):
    mocker.patch.object(bench, "bench", return_value=0)
    assert cli.main(["bench", "--mock", "--answers", "y" * 9]) == 0
    assert capsys.readouterr().err == (
        "tinker-tray bench: --answers gave 9 answers; the bench asks 8 questions, so the last "
        "is not used\n"
    )


def test_bench_help_says_how_many_answers_and_what_too_few_do(capsys):
    text = help_of(capsys, "bench")
    assert "2 for each light" in text and "too few are refused before a light is lit" in text


# 2. simulate's title


def _stats(hands: int, games: int) -> dict:
    return {
        "hands": hands,
        "games": games,
        "players": 4,
        "seconds": 123.456,
        "bots": ["random"] * 4,
        "hand_wins_by_seat": [hands // 4] * 4,
        "game_wins_by_seat": [games // 4] * 4,
        "average_turns_per_hand": 77.1,
        "blocked_hands": 0,
    }


@pytest.mark.parametrize(("hands", "games"), [(1000, 0), (100000, 1000)])
def test_the_simulation_title_is_one_line_in_80_columns(capsys, monkeypatch, hands, games):
    monkeypatch.setenv("COLUMNS", "80")
    simulate._print_table(_stats(hands, games), frozenset(), [])
    lines = capsys.readouterr().out.splitlines()
    title = f"{hands} hands" + (f", {games} games" if games else "") + " · 4 players · 123.456 s"
    assert lines[0].strip() == title
    assert lines[1].startswith("┏")  # the table itself starts on the next line
    assert max(len(line) for line in lines) <= 80


def test_simulate_prints_its_title_on_one_line(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert cli.main(["simulate", "--hands", "20", "--workers", "1"]) == 0
    first, second = capsys.readouterr().out.splitlines()[:2]
    assert re.fullmatch(r" *20 hands · 4 players · [\d.]+ s *", first), first
    assert second.startswith("┏") and len(first) <= 80


# 3. display --help's journal


def test_display_help_names_the_journal_as_run_help_does(capsys, monkeypatch):
    monkeypatch.setenv("HOME", "/home/a-new-user")
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)

    def journal_default(text: str) -> str:
        found = re.search(r"--journal JOURNAL (?:the [^(]*)\(default: (.*?)\) --", text)
        assert found, text
        return found.group(1)

    display, run = help_of(capsys, "display"), help_of(capsys, "run")
    assert journal_default(display) == journal_default(run)
    assert "$STATE_DIRECTORY" in journal_default(display)
    assert "/home/a-new-user" not in display


def test_display_opens_the_default_journal_when_none_is_given(monkeypatch, mocker, tmp_path):
    from cli.commands import display

    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    started = mocker.patch.object(
        display, "start_display", side_effect=display.DisplayError("not served in this test")
    )
    assert cli.main(["display", "--port", "0", "--host", "127.0.0.1"]) == 1
    assert started.call_args.args[1] == tmp_path / "tinker-tray" / "journal.sqlite3"


# 4. release --help


def test_release_help_names_no_signing_of_a_tag(capsys):
    for argv in (["release"], []):
        text = help_of(capsys, *argv)
        assert "sign a tag" not in text
    assert "pack a signed tag into an update file" in help_of(capsys, "release")


# 5. release pack checks the tag and the key before downloading


@pytest.fixture
def maintainer(tmp_path, monkeypatch) -> SimpleNamespace:
    return release_set_up(tmp_path, monkeypatch)


def _pack(who: SimpleNamespace, tag: str, key: Path | None = None) -> list[str]:
    return pack_argv(who, tag, key)


def _refused(capsys, download, who: SimpleNamespace, argv: list[str]) -> str:
    assert cli.main(argv) == 1
    download.assert_not_called()
    assert not who.out.exists()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.endswith("; nothing was downloaded or packed\n"), err
    return err


def test_release_pack_refuses_a_missing_tag_before_any_download(capsys, mocker, maintainer):
    download = mocker.patch.object(release, "download_wheels")
    err = _refused(capsys, download, maintainer, _pack(maintainer, "v1.0.0"))
    assert f"{maintainer.repo} has no tag v1.0.0 (sign it first: git tag -s v1.0.0" in err


def test_release_pack_refuses_a_missing_key_before_any_download(capsys, mocker, maintainer):
    sign(maintainer.repo, maintainer.key, "v1.0.0")
    download = mocker.patch.object(release, "download_wheels")
    missing = maintainer.key.with_name("no-such-key")
    err = _refused(capsys, download, maintainer, _pack(maintainer, "v1.0.0", missing))
    assert f"there is no key file at {missing}" in err


def test_release_pack_refuses_an_unsigned_tag_before_any_download(capsys, mocker, maintainer):
    git(maintainer.repo, "tag", "-a", "v1.0.0", "-m", "not signed")
    download = mocker.patch.object(release, "download_wheels")
    err = _refused(capsys, download, maintainer, _pack(maintainer, "v1.0.0"))
    assert "the tag v1.0.0 is not signed with an SSH key" in err


def test_release_pack_refuses_a_tag_no_allowed_key_signed(capsys, mocker, maintainer, tmp_path):
    stranger = tmp_path / "stranger"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(stranger)], check=True)
    sign(maintainer.repo, stranger, "v1.0.0")
    download = mocker.patch.object(release, "download_wheels")
    err = _refused(capsys, download, maintainer, _pack(maintainer, "v1.0.0"))
    assert "trays would refuse the tag: v1.0.0 is not signed by a key this tray trusts" in err


def test_release_pack_refuses_a_key_others_can_read(capsys, mocker, maintainer):
    sign(maintainer.repo, maintainer.key, "v1.0.0")
    maintainer.key.chmod(0o644)
    download = mocker.patch.object(release, "download_wheels")
    err = _refused(capsys, download, maintainer, _pack(maintainer, "v1.0.0"))
    assert f"{maintainer.key} can be read by others (mode 644)" in err


def test_release_pack_downloads_once_the_tag_and_key_are_good(capsys, mocker, maintainer):
    sign(maintainer.repo, maintainer.key, "v1.0.0")
    download = mocker.patch.object(release, "download_wheels")
    assert cli.main(_pack(maintainer, "v1.0.0")) == 0
    download.assert_called_once()
    assert maintainer.out.is_file()
