"""UNO Elite on the command line: simulate (quick, draft, dynasty), records, replay, files."""

from __future__ import annotations

import json

import pytest

from cli.inputs import InputFileError, game_inputs, load
from cli.main import main
from engine import registry
from tests.cli.test_errors import fails
from tests.engine.elite.helpers import DYNASTY_ROWS


def _simulate(capsys, *args: str) -> dict:
    assert main(["simulate", "--ruleset", "elite", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_simulate_quick_reports_activations_and_icons(capsys):
    stats = _simulate(capsys, "--games", "6", "--players", "3", "--bots", "greedy,random")
    assert stats["ruleset"] == "elite" and stats["games"] == 6
    assert sum(stats["game_wins_by_seat"]) + stats["blocked_hands"] == 6
    assert stats["elite_activations"] > 0
    assert sum(stats["elite_icons"].values()) >= stats["elite_activations"]


def test_simulate_draft_with_records_that_replay(capsys, tmp_path):
    out = tmp_path / "records"
    stats = _simulate(
        capsys, "--games", "3", "--option", "mode=draft", "--records", str(out), "--seed", "2"
    )
    assert stats["elite_activations"] > 0
    files = sorted(out.glob("*.jsonl"))
    assert len(files) == 3
    for path in files:
        assert main(["replay", str(path)]) == 0
        result = json.loads(capsys.readouterr().out)
        assert result["ok"] and result["ruleset"] == "elite" and result["mode"] == "draft"
        assert result["awaiting"]["kind"] == "over"


def test_simulate_is_the_same_on_one_or_two_workers(capsys):
    args = ("--games", "9", "--players", "4", "--seed", "5", "--bots", "random,greedy")
    one = _simulate(capsys, *args, "--workers", "1")
    two = _simulate(capsys, *args, "--workers", "2")
    one.pop("seconds"), two.pop("seconds")
    assert one == two


def test_a_deck_file_replaces_the_default(capsys, tmp_path):
    deck = tmp_path / "deck.tsv"
    deck.write_text("red\t3\tyes\tno\t40\nblue\t3\tyes\tno\t40\nwild\telite-wild\tyes\tno\t8\n")
    stats = _simulate(capsys, "--games", "2", "--option", f"deck={deck}", "--bots", "greedy")
    assert stats["games"] == 2 and stats["elite_activations"] > 0


def test_a_broken_deck_file_is_one_line_naming_the_file_and_line(capsys, tmp_path):
    deck = tmp_path / "deck.tsv"
    deck.write_text("# my deck\nred\t3\tyes\tno\t40\npurple\t3\tno\tno\t1\n")
    code, line = fails(
        capsys, "simulate", "--ruleset", "elite", "--games", "1", "--option", f"deck={deck}"
    )
    assert code == 2
    assert (
        line == f"tinker-tray simulate: {deck}, line 3: unknown colour 'purple' (red, blue, "
        "green, yellow)"
    )


def test_a_bad_elite_option_is_one_line(capsys):
    code, line = fails(
        capsys, "simulate", "--ruleset", "elite", "--games", "1", "--option", "mode=sealed"
    )
    assert code == 2 and "option mode must be one of quick, draft, dynasty" in line


def test_dynasty_decks_from_files_and_the_broken_rule_named(capsys, tmp_path):
    rows = DYNASTY_ROWS
    good, bad = tmp_path / "ann.tsv", tmp_path / "ben.tsv"
    good.write_text("\n".join(rows) + "\n")
    bad.write_text("\n".join(rows[:7]) + "\n")
    stats = _simulate(
        capsys,
        "--games",
        "2",
        "--players",
        "2",
        "--option",
        "mode=dynasty",
        "--option",
        f"decks={good},{good}",
    )
    assert stats["games"] == 2
    code, line = fails(
        capsys,
        "simulate",
        "--ruleset",
        "elite",
        "--games",
        "1",
        "--players",
        "2",
        "--option",
        "mode=dynasty",
        "--option",
        f"decks={good},{bad}",
    )
    assert code == 2 and "p1's Player Deck breaks construction rule 1" in line


def test_replay_of_a_broken_elite_record_says_which_event(capsys, tmp_path):
    out = tmp_path / "r"
    _simulate(capsys, "--games", "1", "--records", str(out))
    path = next(out.glob("*.jsonl"))
    lines = path.read_text().splitlines()
    lines.insert(3, json.dumps({"seat": 0, "act": "pass"}))
    path.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(path)]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["ok"] is False and result["line"] == 4 and result["ruleset"] == "elite"


def test_the_files_load_and_name_themselves_in_errors(tmp_path):
    cards, deck, _ = registry.get("elite").inputs
    assert len(load(cards)) == len(load(cards, cards.default)) and len(load(deck)) == 112
    missing = tmp_path / "none.tsv"
    try:
        load(cards, missing)
    except InputFileError as exc:
        assert str(exc).startswith(f"cannot read {missing}: no such file")
    else:
        raise AssertionError("a missing card file was read")
    options, inputs = game_inputs("elite", {"mode": "quick"})
    assert options == {"mode": "quick"} and len(inputs["deck"]) == 112
    assert set(inputs) == {"cards", "deck"}  # dynasty's decks: only when given


@pytest.mark.parametrize("ruleset", ["elite", "disney"])
def test_a_bot_there_is_not_is_the_same_line_in_every_ruleset(capsys, ruleset):
    code, line = fails(capsys, "simulate", "--ruleset", ruleset, "--games", "1", "--bots", "pixie")
    assert (
        code == 2 and line == "tinker-tray simulate: the bots are random, greedy, search, not pixie"
    )
