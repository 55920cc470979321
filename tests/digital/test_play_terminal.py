"""`tinker-tray play`: the menu and text as pure functions of a seat's view, the loop played
in-process from scripted input, and one run on a real pseudo-terminal."""

from __future__ import annotations

import fcntl
import io
import os
import re
import sys
import termios
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from cli import main as cli
from digital import play_text as T
from digital.play_loop import TERMINAL_SHOW, TerminalPlay, text_show
from digital.play_menu import (
    Act,
    Choice,
    Confirm,
    Help,
    Press,
    Quit,
    Redraw,
    Refuse,
    calls_menu,
    menu,
    parse,
)
from digital.session import DigitalSession
from engine import record
from engine.disney import actions as A
from engine.disney import cards as C
from engine.disney.hand import RuleError
from engine.observation import move
from tests.helpers import children
from tray.bus import Bus
from tray.events import Pick
from tray.pick import Picker
from tray.show import frames

ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|\][^\x07]*\x07|[()][A-Z0-9])")

R7, W, B2 = C.card("R7"), C.card("W"), C.card("B2")


# ---------------------------------------------------------------------- a view to read
def a_view(**over):
    """A seat's view as the observation and `digital.view` make it: seat 0 to move, holding
    Red 7, Wild and Blue 2."""
    view = {
        "game": True,
        "features": ["points", "tinker_bell"],
        "seat": 0,
        "hand_no": 2,
        "version": 7,
        "players": [
            {
                "seat": 0,
                "name": "You",
                "cards": 3,
                "score": 40,
                "person": True,
                "out": False,
                "deals": False,
            },
            {
                "seat": 1,
                "name": "Ann",
                "cards": 1,
                "score": 95,
                "person": False,
                "out": False,
                "deals": True,
            },
        ],
        "top": {"code": "R3", "name": "Red 3", "colour": "red"},
        "colour": "red",
        "direction": "left",
        "draw_pile": 50,
        "awaiting": {"kind": "play", "seat": 0},
        "prompt": "Your move: play a card (or draw).",
        "log": ["Ann plays Red 3."],
        "hands": [{"hand": 1, "winner": "Ann", "points": 95}],
        "target": 500,
        "winner": None,
        "hand": [
            {"code": "R7", "name": "Red 7", "colour": "red"},
            {"code": "W", "name": "Wild", "colour": "wild"},
            {"code": "B2", "name": "Blue 2", "colour": "blue"},
        ],
        "calls": [{"a": A.CATCH + 1, "text": "Catch Ann: no UNO!"}],
        "legal": [
            move(A.play(R7), "play", "Play Red 7", card="R7"),
            move(A.play(R7, 0, True), "play", "Play Red 7 and UNO!", card="R7", uno=True),
            *[
                move(
                    A.play(W, c),
                    "play",
                    f"Play Wild, calling {C.COLOURS[c]}",
                    card="W",
                    call=C.COLOURS[c],
                )
                for c in range(4)
            ],
            move(A.DRAW, "draw", "Draw a card"),
            move(A.CATCH + 1, "catch", "Catch Ann: no UNO!", out_of_turn=True),
        ],
        "uno_call": False,
    }
    view.update(over)
    return view


# ---------------------------------------------------------------------- the menu
def test_the_menu_lists_card_moves_then_other_moves_then_calls():
    choices = menu(a_view())
    assert [c.label for c in choices] == [
        "Play Red 7",
        "Play Wild, calling red",
        "Play Wild, calling blue",
        "Play Wild, calling green",
        "Play Wild, calling yellow",
        "Draw a card",
        "Catch Ann: no UNO!",
    ]
    assert choices[0].action == A.play(R7) and choices[0].uno == A.play(R7, 0, True)
    assert choices[2].colour == "blue" and choices[2].action == A.play(W, 1)
    assert choices[5].alias == "d" and choices[5].kind == "move"
    assert choices[6].kind == "call" and choices[6].seat == 0
    assert all(c.uno is None for c in choices[1:])


def test_a_card_with_no_move_is_not_on_the_menu_and_an_empty_view_has_no_menu():
    assert "Blue 2" not in " ".join(c.label for c in menu(a_view()))
    assert menu({"game": None, "seat": None, "version": 0}) == []


def test_hot_seat_calls_are_named_after_their_person_and_have_no_letters():
    ann = a_view(seat=1, calls=[{"a": A.CHALLENGE, "text": "Challenge the Villain Draw 4"}])
    you = a_view(calls=[{"a": A.CHALLENGE, "text": "Challenge the Villain Draw 4"}])
    choices = calls_menu([you, ann])
    assert [(c.label, c.seat, c.alias) for c in choices] == [
        ("You: Challenge the Villain Draw 4", 0, None),
        ("Ann: Challenge the Villain Draw 4", 1, None),
    ]


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("1", Act(A.play(R7), "Play Red 7", 0)),
        (" 1u ", Act(A.play(R7, 0, True), "Play Red 7 and UNO!", 0)),
        ("1 uno!", Act(A.play(R7, 0, True), "Play Red 7 and UNO!", 0)),
        ("3", Act(A.play(W, 1), "Play Wild, calling blue", 0)),
        ("d", Act(A.DRAW, "Draw a card", 0)),
        ("D", Act(A.DRAW, "Draw a card", 0)),
        ("7", Act(A.CATCH + 1, "Catch Ann: no UNO!", 0)),
        ("q", Quit()),
        ("QUIT", Quit()),
        ("?", Help()),
        ("help", Help()),
        ("r", Redraw()),
    ],
)
def test_parse_turns_a_typed_line_into_a_move(typed, expected):
    assert parse(typed, menu(a_view())) == expected


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("", "Type a number from 1 to 7 (or d), or ? for help."),
        ("xyz", "'xyz' is not a move. Type a number from 1 to 7"),
        ("0", "There is no move 0."),
        ("8", "There is no move 8."),
        ("-1", "'-1' is not a move."),
        ("2u", "Move 2 cannot be made with UNO!"),
        ("p", "'p' is not a move you can make now."),
        ("t", "The game is not waiting for the Tinker Bell button."),
    ],
)
def test_parse_refuses_what_is_not_a_move_in_one_clear_line(typed, says):
    command = parse(typed, menu(a_view()))
    assert isinstance(command, Refuse)
    assert command.message.startswith(says) and "\n" not in command.message


def test_enter_or_t_presses_the_button_only_while_the_game_waits_for_it():
    choices = [Choice("Challenge the Villain Draw 4", A.CHALLENGE, "call", alias="c")]
    assert parse("", choices, tinker_bell=True) == Press()
    assert parse("t", choices, tinker_bell=True) == Press()
    assert parse("c", choices, tinker_bell=True) == Act(A.CHALLENGE, "Challenge the Villain Draw 4")
    assert parse("1", [], tinker_bell=True) == Refuse("There is no move to choose now.")


@given(st.text(max_size=12))
def test_parse_never_raises_and_acts_only_on_offered_moves(typed):
    choices = menu(a_view())
    command = parse(typed, choices)
    offered = {c.action for c in choices} | {c.uno for c in choices if c.uno is not None}
    assert isinstance(command, Act | Quit | Help | Redraw | Refuse)
    if isinstance(command, Act):
        assert command.action in offered


# ---------------------------------------------------------------------- the text
def test_the_table_names_every_colour_and_marks_whose_move_it_is():
    text = T.plain(T.table(a_view()) + T.hand(a_view()))
    assert "Top card  ▲ Red 3    Colour in play  ▲ red" in text
    assert "▶ You    3 cards    40 points  (you)" in text
    assert "  Ann     1 card    95 points  (deals)" in text
    assert "  Play goes left · 50 cards to draw · target 500 points" in text
    assert "Your hand (3):  ▲ Red 7   ◆ Wild   ■ Blue 2" in text


def test_the_hand_breaks_between_cards_never_inside_one():
    lines = [line.plain for line in T.hand(a_view(), width=30)]
    assert lines == ["Your hand (3):  ▲ Red 7 ", "    ◆ Wild   ■ Blue 2 "]
    assert all(len(line) <= 30 for line in lines)


def test_the_menu_text_numbers_each_choice_with_its_colour_symbol_and_letters():
    text = T.plain(T.choices(menu(a_view())))
    assert text.splitlines()[:3] == [
        "  1) ▲ Play Red 7   [1u with UNO!]",
        "  2) ▲ Play Wild, calling red",
        "  3) ■ Play Wild, calling blue",
    ]
    assert "  6) Draw a card   [d]" in text and "  7) Catch Ann: no UNO!" in text


def test_new_log_lines_continue_where_the_last_look_left_off():
    assert T.new_lines([], ["a", "b"]) == ["a", "b"]
    assert T.new_lines(["a", "b"], ["a", "b"]) == []
    assert T.new_lines(["a", "b", "c"], ["b", "c", "d", "e"]) == ["d", "e"]
    assert T.new_lines(["x", "y"], ["p", "q"]) == ["p", "q"]  # more than a window apart
    # a repeated line is matched by the longest overlap, not the first equal line
    assert T.new_lines(["d", "d", "e"], ["d", "e", "d"]) == ["d"]


def test_a_hands_result_and_the_game_over_banner():
    view = a_view(winner="Ann")
    assert T.plain(T.hand_result(view, view["hands"][0])) == (
        "Hand 1: Ann won it and scores 95 points.\nScores: You 40, Ann 95."
    )
    assert T.plain(T.game_over(view)).splitlines() == [
        "Game over: Ann won after 1 hands.",
        "  You: 40 points",
        "  Ann: 95 points",
    ]


def test_each_frame_of_the_show_names_all_four_colours_and_capitalises_the_lit_one():
    last = frames("green", TERMINAL_SHOW)[-1]
    assert T.lights(last.levels).plain == " ▲ red    ■ blue    ● GREEN    ★ yellow "


def test_the_text_show_scans_then_settles_and_a_key_skips_it():
    console = Console(file=io.StringIO(), width=80)
    waits: list[float] = []
    text_show(console, lambda s: waits.append(s) or False)("blue")
    assert len(waits) == sum(1 for f in frames("blue", TERMINAL_SHOW) if f.seconds)
    waits.clear()
    text_show(console, lambda s: waits.append(s) or True)("blue")
    assert len(waits) == 1


# ---------------------------------------------------------------------- the loop in-process
class Script:
    """The person at the keyboard: answers each prompt from a function of the prompt, and
    keeps every prompt and the output printed before it."""

    def __init__(self, answer, console_file):
        self.answer, self.file = answer, console_file
        self.prompts: list[str] = []
        self.seen = 0

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        out = self.file.getvalue()
        since, self.seen = ANSI.sub("", out[self.seen :]), len(out)
        return self.answer(prompt, since, len(self.prompts))


def first_choice(prompt, _since, _n):
    """Always the first legal move; Enter (the button) when the game waits for Tinker Bell."""
    return "" if prompt.startswith(("Press Enter", "Enter: ", "You, press", "Ann, press")) else "1"


def setup_game(
    players=("You", "Ann", "Bob", "Cy"),
    humans=(0,),
    seed=3,
    target=200,
    pace=0,
    bots_press=True,
    **options,
):
    changed = threading.Event()
    session = DigitalSession(Bus(), on_change=changed.set, pace=pace)
    keys = session.new_game(
        list(players),
        list(humans),
        "greedy",
        options={"target": target, **options},
        seed=seed,
        bots_press=bots_press,
    )
    return session, keys, changed


def make_play(answer, humans=(0,), terminal=False, **kw):
    session, keys, changed = setup_game(
        humans=humans,
        **{k: v for k, v in kw.items() if k in ("seed", "target", "pace", "bots_press")},
    )
    buf = io.StringIO()
    console = Console(file=buf, width=400, color_system=None, force_terminal=terminal)
    script = Script(answer, buf)
    play = TerminalPlay(
        session,
        keys,
        changed,
        Picker(kw.get("seed", 3)),
        read=script,
        console=console,
        show=kw.get("show"),
        hands=kw.get("hands"),
    )
    return play, session, script, buf


def test_a_person_plays_a_seeded_game_to_the_end_from_the_menu():
    play, session, script, buf = make_play(first_choice)
    try:
        assert play.run() == 0
        game = session.link.game
        assert game.is_terminal()
        out = buf.getvalue()
        assert f"Game over: {session.view()['winner']} won after {len(game.history)} hands." in out
        for h in game.history[:-1]:  # every hand's result and the scores, before the next deal
            assert re.search(
                rf"Hand {h['hand']}: {game.players[h['winner']]} won it and scores "
                rf"\d+ points\.\nScores: [^\n]*\.\n  · Hand \d+ is dealt: the card "
                "turned up",
                out,
            )
        assert len(game.history) > 1 and out.count("Scores: ") == len(game.history)
        assert any(p.startswith("Press Enter for the Tinker Bell button") for p in script.prompts)
        assert any(p.startswith("Your move") for p in script.prompts)
    finally:
        session.close()


def test_every_press_is_a_fair_pick_from_the_picker_published_on_the_bus():
    shown: list[tuple[str, str | None]] = []
    play, session, _script, buf = make_play(
        first_choice, show=lambda colour, lead: shown.append((colour, lead)), hands=1
    )
    picks: list[Pick] = []
    session.bus.subscribe(picks.append, Pick)
    try:
        assert play.run() == 0
        assert picks, "the seeded first hand has a Tinker Bell card"
        assert [p.seq for p in picks] == list(range(1, len(picks) + 1))
        assert {p.source for p in picks} == {"terminal"}
        assert shown == [(p.colour, p.lead) for p in picks]  # each show is its pick's
        expected = Picker(3)
        assert [p.colour for p in picks] == [expected.pick().colour for _ in picks]
        assert session.link.consumed == [p.seq for p in picks]
        assert f"Tinker Bell's pick #1:  {T.SYMBOL[picks[0].colour]} " in buf.getvalue()
    finally:
        session.close()


def test_bad_input_says_why_and_asks_again_with_nothing_lost():
    bad = iter(["xyz", "99", "7u", "t"])
    state = {}

    def answer(prompt, since, n):
        if prompt.startswith("Your move") and "done" not in state:
            if "before" not in state:
                state["before"] = session.link.game.events[:]
            word = next(bad, None)
            if word is not None:
                return word
            state["done"] = True
            assert session.link.game.events == state["before"]  # nothing changed
            return "q"
        return first_choice(prompt, since, n)

    play, session, _script, buf = make_play(answer)
    try:
        assert play.run() == 0
        out = buf.getvalue()
        assert "'xyz' is not a move. Type a number from 1 to" in out
        assert "There is no move 99." in out
        assert "Move 7 cannot be made with UNO!" in out or "There is no move 7." in out
        assert "The game is not waiting for the Tinker Bell button." in out
        assert "You left the game at hand 1." in out
        assert "Traceback" not in out
    finally:
        session.close()


def test_a_move_the_rules_refuse_prints_the_engines_reason_and_asks_again(mocker):
    def answer(prompt, since, n):
        return "q" if n > 6 else first_choice(prompt, since, n)

    play, session, _script, buf = make_play(answer)
    real = session.act

    def refuse_once(*args, **kwargs):
        if refuse.call_count == 1:
            raise RuleError("uno", "You can call UNO! only with one card left.")
        return real(*args, **kwargs)

    refuse = mocker.patch.object(session, "act", side_effect=refuse_once)
    try:
        assert play.run() == 0
        out = buf.getvalue()
        assert "Not allowed: You can call UNO! only with one card left." in out
        assert refuse.call_count >= 2  # asked again, and the second answer went through
    finally:
        session.close()


def test_end_of_input_leaves_cleanly():
    def answer(prompt, since, n):
        raise EOFError

    play, session, _script, buf = make_play(answer)
    try:
        assert play.run() == 0
        assert "You left the game at hand 1." in buf.getvalue()
    finally:
        session.close()


def test_hands_stops_after_that_many_hands():
    play, session, _script, buf = make_play(first_choice, hands=1)
    try:
        assert play.run() == 0
        assert len(session.link.game.history) == 1
        assert "Stopped after 1 hand, as asked (--hands)." in buf.getvalue()
    finally:
        session.close()


def test_bots_at_a_pace_wake_the_loop_when_they_move():
    play, session, _script, _buf = make_play(first_choice, hands=1, pace=0.001)
    try:
        assert play.run() == 0
        assert len(session.link.game.history) == 1
    finally:
        session.close()


def test_hot_seat_hides_each_hand_until_its_player_presses_enter():
    """Two people at one keyboard: the screen is cleared and says whose turn it is before a
    hand is shown, and the hand then shown is that person's own."""
    checked = {"handovers": 0, "turns": 0}

    def answer(prompt, since, n):
        if n > 60:
            return "q"
        match = re.match(r"(You|Ann), press Enter to see your hand", prompt)
        if match:
            name = match.group(1)
            assert f"{name} to move: pass the keyboard to {name}." in since
            assert "Your hand" not in raw_since_clear(), "a hand was on screen at the handover"
            checked["handovers"] += 1
            return ""
        if prompt.startswith("Your move"):
            mover = session.view()["awaiting"]["seat"]
            hand = session.view(mover, keys[mover])["hand"]
            shown = re.findall(r"Your hand \(\d+\):(.*)", since)[-1]
            assert [c.strip() for c in re.split(r"\s{2,}", shown.strip())] == [
                f"{T.SYMBOL.get(c['colour'], T.WILD_SYMBOL)} {c['name']}" for c in hand
            ]
            checked["turns"] += 1
        return first_choice(prompt, since, n)

    def raw_since_clear():
        raw = buf.getvalue()
        return ANSI.sub("", raw[raw.rfind("\x1b[2J") :])

    play, session, _script, buf = make_play(answer, humans=(0, 1), terminal=True)
    keys = play.keys
    try:
        assert play.run() == 0
        assert checked["handovers"] >= 2 and checked["turns"] >= 2
        assert "\x1b[2J" in buf.getvalue()  # the screen was cleared for each handover
    finally:
        session.close()


# ---------------------------------------------------------------------- the command
def test_the_command_refuses_bad_options_with_exit_2(capsys):
    assert cli.main(["play", "--humans", "x"]) == 2
    assert "--humans takes seat numbers like 0 or 0,2, not 'x'" in capsys.readouterr().err
    assert cli.main(["play", "--ruleset", "nope"]) == 2
    assert "nope" in capsys.readouterr().err
    assert cli.main(["play", "--players", "Ann,Ann"]) == 2
    assert "two players have the same name" in capsys.readouterr().err
    assert cli.main(["play", "--humans", "7"]) == 2
    assert "seats are 0 to 3, not 7" in capsys.readouterr().err
    assert cli.main(["play", "--option", "nonsense"]) == 2
    assert "NAME=VALUE" in capsys.readouterr().err


def test_the_command_keeps_a_replayable_record_when_asked(tmp_path, monkeypatch, capsys):
    path = tmp_path / "game.jsonl"
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n1\nq\n"))
    assert cli.main(["play", "--seed", "3", "--pace", "0", "--record", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"The game record is in {path}" in out
    game, count = record.replay(path.read_text())
    assert count > 0 and game.players == ["Player 1", "Ann", "Bob", "Cy"]


def test_the_command_plays_to_the_end_from_piped_input(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n" * 400))
    assert (
        cli.main(
            ["play", "--seed", "3", "--pace", "0", "--humans", "none", "--option", "target=100"]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "Game over:" in out and "Nothing was saved" in out


# ---------------------------------------------------------------------- a real terminal
def _controlling_terminal():
    """In the child, after setsid: make the pty its controlling terminal, so Ctrl-C typed on
    it is a SIGINT, as in a real terminal."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Pty:
    """A child process on a pseudo-terminal; `wait_for` polls its output (never sleeps as a
    way to synchronise)."""

    def __init__(self, argv):
        master, slave = os.openpty()
        env = {
            **os.environ,
            "TERM": "xterm-256color",
            "COLUMNS": "110",
            "LINES": "40",
            "PYTHONUNBUFFERED": "1",
        }
        env.pop("NO_COLOR", None)
        self.proc = children.popen(  # its own session, SIGINT at its default: a terminal's
            argv,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            cwd=ROOT,
            close_fds=True,
            preexec=_controlling_terminal,
        )
        os.close(slave)
        self.master = master
        self.raw = b""
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        while True:
            try:
                chunk = os.read(self.master, 4096)
            except OSError:  # EIO: the child closed the terminal
                chunk = b""
            with self._cond:
                if not chunk:
                    self.closed = True
                    self._cond.notify_all()
                    return
                self.raw += chunk
                self._cond.notify_all()

    @property
    def text(self):
        return ANSI.sub("", self.raw.decode("utf-8", "replace")).replace("\r", "")

    def wait_for(self, pattern, start=0, timeout=30.0):
        with self._cond:
            ok = self._cond.wait_for(lambda: re.search(pattern, self.text[start:]), timeout)
        assert ok, f"never saw {pattern!r} in:\n{self.text[start:]}"
        return len(self.text)

    def send(self, line):
        os.write(self.master, line.encode() + b"\r")

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(30)
        self._reader.join(30)
        os.close(self.master)


@pytest.mark.slow
def test_play_on_a_real_terminal():
    term = Pty([sys.executable, "-m", "cli", "play", "--seed", "3", "--pace", "0"])
    try:
        at = term.wait_for(
            r"Enter: Ann presses Tinker Bell, or call first \(1, \? help, q quit\): "
        )
        assert "Ann played Villain Draw 4: Ann presses Tinker Bell." in term.text
        assert "Your hand (7):" in term.text
        term.send("")  # the button, with the light show in text
        at = term.wait_for(r"Your move \(1-\d+, \? help, q quit\): ", at)
        assert "Tinker Bell's pick #1:" in term.text and "Tinker Bell chose" in term.text
        term.send("xyz")
        at = term.wait_for(r"'xyz' is not a move\. Type a number from 1 to \d+", at)
        term.send("1")
        at = term.wait_for(r"\(.*\? help, q quit\): ", at)
        term.send("q")
        term.wait_for(r"You left the game at hand \d+\.\nNothing was saved", at)
        assert term.proc.wait(30) == 0
        assert "Traceback" not in term.text
    finally:
        term.close()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("key", "says", "code"),
    [(b"\x03", r"Stopped \(Ctrl-C\)\.", 130), (b"\x04", r"You left the game at hand 1\.", 0)],
    ids=["ctrl-c", "ctrl-d"],
)
def test_ctrl_c_and_ctrl_d_on_a_real_terminal_leave_without_a_traceback(key, says, code):
    """The default pace (bots on timer threads), as a person plays: Ctrl-C is a SIGINT from the
    terminal, Ctrl-D the end of input."""
    term = Pty([sys.executable, "-m", "cli", "play", "--seed", "3", "--no-show"])
    try:
        term.wait_for(r"Enter: Ann presses Tinker Bell")
        os.write(term.master, key)
        term.wait_for(says)
        assert term.proc.wait(30) == code
        assert "Traceback" not in term.text
    finally:
        term.close()


# ---------------------------------------------------------------------- issue 32
def test_the_bots_press_for_their_own_cards_and_the_person_for_theirs():
    """A person against three bots: Enter is asked for the person's own cards (and, once, where
    they may challenge a bot's card first); each bot presses for its other cards itself."""
    own = {"asked": 0}

    def answer(prompt, since, n):
        if prompt.startswith("Press Enter for the Tinker Bell button"):
            link = session.link
            with link.lock:
                assert link.game.tinker_bell_card()[1] == 0  # the person's own card
            own["asked"] += 1
        return first_choice(prompt, since, n)

    play, session, script, buf = make_play(answer, hands=2)
    picks: list[Pick] = []
    session.bus.subscribe(picks.append, Pick)
    try:
        assert play.run() == 0
        out = buf.getvalue()
        by_bots = len(re.findall(r"^(Ann|Bob|Cy) presses Tinker Bell\.$", out, re.M))
        asked = sum(p.startswith(("Press Enter", "Enter: ")) for p in script.prompts)
        assert by_bots > 0 and asked + by_bots == len(picks)
        calls_first = sum(p.startswith("Enter: ") for p in script.prompts)
        assert own["asked"] + calls_first == asked  # the person's own, or a call open first
    finally:
        session.close()


def test_a_table_that_presses_for_its_bots_is_asked_for_every_pick():
    play, session, script, _buf = make_play(first_choice, hands=1, bots_press=False)
    picks: list[Pick] = []
    session.bus.subscribe(picks.append, Pick)
    try:
        assert play.run() == 0
        assert picks and sum(p.startswith("Press Enter") for p in script.prompts) == len(picks)
    finally:
        session.close()


def test_a_challenge_is_never_on_a_number_typed_out_of_habit():
    """Issue 32: at the Tinker Bell prompt "1" was "Challenge the Villain Draw 4"; typed out of
    habit it challenged at once and cost six cards. Its number now asks first; its letter (c),
    typed on purpose, does it."""
    risk = "If the challenge fails you draw the cards and two more"  # the engine's `confirm`
    legal = [
        move(
            A.CHALLENGE, "challenge", "Challenge the Villain Draw 4", out_of_turn=True, confirm=risk
        )
    ]
    choices = menu({**a_view(), "legal": legal})
    command = parse("1", choices, tinker_bell=True)
    assert isinstance(command, Confirm)
    assert command.act == Act(A.CHALLENGE, "Challenge the Villain Draw 4", 0)
    assert "Type y to challenge" in command.question and "two more" in command.question
    assert parse("c", choices, tinker_bell=True) == Act(A.CHALLENGE, choices[0].label, 0)
    calls = [{"a": A.CHALLENGE, "text": "Challenge"}]
    hot = calls_menu([{**a_view(), "calls": calls, "legal": legal}])
    assert isinstance(parse("1", hot, tinker_bell=True), Confirm)  # no letter there: asked too
    plain = [{**legal[0], "confirm": None}]  # the engine's flag decides, never the number
    assert parse("1", menu({**a_view(), "legal": plain}), tinker_bell=True) == command.act


@pytest.mark.parametrize(("second", "challenged"), [("", False), ("n", False), ("y", True)])
def test_typing_1_at_the_tinker_bell_prompt_asks_before_it_challenges(second, challenged):
    """The seeded game opens with Ann's Villain Draw 4: "1" at the prompt, then the answer to
    the question; only a yes challenges."""
    answers = iter(["1", second, "q"])
    play, session, script, buf = make_play(lambda prompt, since, n: next(answers))
    try:
        assert play.run() == 0
        assert script.prompts[0].startswith("Enter: Ann presses Tinker Bell, or call first")
        assert script.prompts[1].startswith("Challenge the Villain Draw 4? If the challenge fails")
        events = session.link.game.events
        assert any(e.get("act") == "challenge" for e in events) is challenged
        if not challenged:
            assert "Not done: Challenge the Villain Draw 4." in buf.getvalue()
            assert session.link.waiting_for_tinker_bell  # nothing happened: Ann still presses
    finally:
        session.close()
