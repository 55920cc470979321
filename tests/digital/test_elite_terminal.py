"""`tinker-tray play --ruleset elite`: the text and menu from a seat's view, the loop played
in-process from scripted input, and the command on a real pseudo-terminal."""

from __future__ import annotations

import io
import json
import sys
import threading

import pytest
from rich.console import Console

from cli import main as cli
from cli.inputs import shipped_inputs
from digital import play_menu
from digital import play_text as E
from digital.play_loop import TerminalPlay
from digital.session import DigitalSession
from tests.digital.test_play_terminal import ANSI, Pty
from tests.engine.elite.helpers import DYNASTY_ROWS
from tray.bus import Bus

INPUTS = shipped_inputs()
NO_TINKER_BELL = "UNO Elite has no Tinker Bell"


def setup_game(humans=(0,), seed=4, mode="quick", players=("You", "Ann", "Bob")):
    changed = threading.Event()
    session = DigitalSession(Bus(), on_change=changed.set, pace=0, inputs=INPUTS)
    keys = session.new_game(
        list(players), list(humans), "greedy", options={"mode": mode}, ruleset="elite", seed=seed
    )
    return session, keys, changed


class Script:
    """The person at the keyboard: `answer(prompt, printed since the last prompt, n)`."""

    def __init__(self, answer, buf):
        self.answer, self.buf = answer, buf
        self.prompts: list[str] = []
        self.seen = 0

    def __call__(self, prompt):
        self.prompts.append(prompt)
        out = self.buf.getvalue()
        since, self.seen = ANSI.sub("", out[self.seen :]), len(out)
        return self.answer(prompt, since, len(self.prompts))


def make_play(answer, humans=(0,), **kw):
    session, keys, changed = setup_game(humans=humans, **kw)
    buf = io.StringIO()
    console = Console(file=buf, width=120, color_system=None)
    script = Script(answer, buf)
    play = TerminalPlay(session, keys, changed, read=script, console=console)
    return play, session, script, buf


def plain(lines):
    return "\n".join(line.plain for line in lines)


def test_the_table_shows_every_lineup_deck_and_discards_and_only_my_hand():
    session, keys, _ = setup_game()
    try:
        game = session.link.game
        while not any(s["elite_discard"] for s in game.observation(None)["seats"]):
            session.act(0, keys[0], game.hints.act(game))  # on to an activation
        view = session.view(0, keys[0])
        text = plain(E.table(view))
        for seat in view["seats"]:
            assert f"{seat['name']}: {seat['hand_count']} card" in text
            assert f"Player Deck {seat['player_deck']}" in text
            for card in seat["lineup"]:
                assert card["words"] in text
            for card in seat["elite_discard"]:
                assert card["words"].partition(": ")[0] in text
        mine = plain(E.hand(view, 200) + E.seen(view, 200))
        assert f"Your hand ({len(view['hand'])}):" in mine
        for card in view["hand"]:
            assert card["words"] in mine
        assert (
            plain(E.hand(session.view(), 200) + E.seen(session.view(), 200)) == ""
        )  # a spectator: no hand at all
        menu = play_menu.menu(view)
        assert [c.action for c in menu] == [m["action"] for m in view["legal"]]
        for choice, move in zip(menu, view["legal"], strict=True):
            hint = view["hints"].get(str(move["action"]))
            assert choice.label == (f"{move['words']} · {hint}" if hint else move["words"])
    finally:
        session.close()


@pytest.mark.parametrize("mode", ["quick", "draft"])
def test_a_person_plays_a_whole_game_from_the_menu(mode):
    play, session, script, buf = make_play(lambda *_: "1", mode=mode)
    try:
        assert play.run() == 0
        out = ANSI.sub("", buf.getvalue())
        winner = session.view()["winner"]
        assert f"Game over: {winner} won UNO Elite." in out
        assert "UNO Elite wins: " in out and "(1 game)." in out
        assert "Lineup" in out and "Player Deck" in out
        assert all(p.startswith("Your move (") for p in script.prompts)
        if mode == "draft":
            assert "Draft: the cards showing" in out
    finally:
        session.close()


def test_bad_input_and_the_tinker_bell_keys_change_nothing_and_ask_again():
    answers = iter(["t", "", "xyz", "999", "?", "q"])
    play, session, _script, buf = make_play(lambda *_: next(answers))
    try:
        before = session.view(0, play.keys[0])
        assert play.run() == 0
        out = ANSI.sub("", buf.getvalue())
        assert f"{NO_TINKER_BELL}: type the number of a move." in out
        assert "'xyz' is not a move." in out
        assert "There is no move 999." in out
        assert "Every choice of an activation" in out  # the help
        assert "You left the game." in out
        assert session.view(0, play.keys[0]) == before
    finally:
        session.close()


def test_hot_seat_shows_each_hand_only_after_its_player_presses_enter():
    def answer(prompt, since, n):
        if "press Enter to see your hand" in prompt:
            assert "Your hand" not in since
            return ""
        return "q" if n > 12 else "1"

    play, session, script, _buf = make_play(answer, humans=(0, 1))
    try:
        assert play.run() == 0
        handovers = [p for p in script.prompts if "press Enter to see your hand" in p]
        assert handovers and {p.split(",")[0] for p in handovers} <= {"You", "Ann"}
    finally:
        session.close()


def test_the_command_plays_elite_to_the_end_from_piped_input(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 3000))
    args = ["play", "--ruleset", "elite", "--option", "mode=draft", "--seed", "2", "--pace", "0"]
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    assert "UNO Elite (no Tinker Bell)" in out and "won UNO Elite." in out


def test_the_command_plays_dynasty_with_each_players_own_deck(monkeypatch, capsys, tmp_path):
    ann, ben = tmp_path / "ann.tsv", tmp_path / "ben.tsv"
    ann.write_text("\n".join(DYNASTY_ROWS) + "\n")
    ben.write_text("\n".join(reversed(DYNASTY_ROWS)) + "\n")
    record = tmp_path / "dynasty.jsonl"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 3000))
    args = ["play", "--ruleset", "elite", "--players", "Ann,Ben", "--seed", "3", "--pace", "0"]
    args += ["--option", "mode=dynasty", "--option", f"decks={ann},{ben}"]
    assert cli.main([*args, "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "UNO Elite (dynasty)" in out and "won UNO Elite." in out
    assert "Max Verstappen (yellow)" in out  # the decks' own cards in the Lineups
    assert cli.main(["replay", str(record)]) == 0


def test_the_command_refuses_what_elite_cannot_play_with_exit_2(capsys, tmp_path):
    assert cli.main(["play", "--ruleset", "elite", "--option", "mode=dynasty"]) == 2
    assert "dynasty needs each player's own Player Deck" in capsys.readouterr().err
    short = tmp_path / "short.tsv"
    short.write_text("\n".join(DYNASTY_ROWS[:7]) + "\n")
    decks = f"decks={short},{short}"
    argv = ["play", "--ruleset", "elite", "--option", "mode=dynasty", "--option", decks]
    assert cli.main(argv) == 2  # four players by default
    assert "one Player Deck per player (4)" in capsys.readouterr().err
    argv[1:1] = ["--players", "Ann,Ben"]
    assert cli.main(argv) == 2
    assert "construction rule 1" in capsys.readouterr().err
    argv[-1] = f"decks={tmp_path / 'missing.tsv'},{short}"
    assert cli.main(argv) == 2
    assert "missing.tsv" in capsys.readouterr().err
    assert cli.main(["play", "--ruleset", "elite", "--bots", "smart"]) == 2
    assert "bots are random, greedy and search" in capsys.readouterr().err


@pytest.mark.slow
def test_elite_on_a_real_terminal():
    term = Pty(
        [sys.executable, "-m", "cli", "play", "--ruleset", "elite", "--seed", "3", "--pace", "0"]
    )
    try:
        at = term.wait_for(r"Your move \((1|1-\d+), \? help, q quit\): ")
        assert "UNO Elite (no Tinker Bell)" in term.text
        assert "Lineup" in term.text and "Your hand (" in term.text
        term.send("t")
        at = term.wait_for(r"UNO Elite has no Tinker Bell: type the number of a move\.", at)
        term.send("1")
        at = term.wait_for(r"\? help, q quit\): ", at)
        term.send("q")
        term.wait_for(r"You left the game\.\nNothing was saved", at)
        assert term.proc.wait(30) == 0
        assert "Traceback" not in term.text
    finally:
        term.close()


def test_the_command_keeps_a_replayable_elite_record_when_asked(tmp_path, monkeypatch, capsys):
    path = tmp_path / "elite.jsonl"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\nq\n"))
    args = ["play", "--ruleset", "elite", "--seed", "3", "--pace", "0", "--record", str(path)]
    assert cli.main(args) == 0
    assert f"The game record is in {path}" in capsys.readouterr().out
    assert cli.main(["replay", str(path)]) == 0
    replayed = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert replayed["ok"] is True and replayed["ruleset"] == "elite"
    assert replayed["events"] == len(path.read_text().splitlines()) - 1
