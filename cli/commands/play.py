"""`tinker-tray play`: digital play in the terminal. A person plays one seat (or several take
turns at one keyboard) against bots; Enter is the Tinker Bell button for a person's card (a bot
presses for its own, unless `--press-for-bots`; UNO Elite, `--ruleset elite`, has none). No
browser, no GPIO."""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path
from typing import Any

from cli.arguments import at_least
from cli.files import file_problem

DEFAULT_PLAYERS = "Player 1,Ann,Bob,Cy"  # a name fit for the shared screens (TV, club)


def add_arguments(p: argparse.ArgumentParser) -> None:
    _add_the_game(p)
    _add_the_play(p)


def _add_the_game(p: argparse.ArgumentParser) -> None:
    """The game dealt: who sits where, people or which bots, by which rules and options, from
    which dealer and seed."""
    p.add_argument(
        "--players",
        default=DEFAULT_PLAYERS,
        metavar="NAMES",
        help=f"comma-separated player names, in seat order (default {DEFAULT_PLAYERS})",
    )
    p.add_argument(
        "--humans",
        default="0",
        metavar="SEATS",
        help="comma-separated seats played by people at this keyboard (0 is the first "
        "player; several = hot seat; 'none' = watch the bots); default 0",
    )
    p.add_argument(
        "--bots",
        default="greedy",
        metavar="NAMES",
        help="greedy (default), random (easiest), search (hardest; search:300 rollouts "
        "or search:200ms a move), or a comma-separated mix dealt round the table",
    )
    p.add_argument(
        "--ruleset",
        default="disney",
        help="disney (default), classic, official-2018, elvis or elite (UNO Elite: "
        "--option mode=quick or mode=draft)",
    )
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a ruleset option, e.g. target=200, scoring=challenge, mode=draft (repeatable)",
    )
    p.add_argument("--dealer", type=int, default=0, metavar="SEAT", help="first dealer (default 0)")
    p.add_argument(
        "--seed",
        type=int,
        metavar="S",
        help="seed the deal, the bots and Tinker Bell's picks (a repeatable demo); "
        "without it the picks are fair picks from the operating system",
    )


def _add_the_play(p: argparse.ArgumentParser) -> None:
    """How it is played out here: the bots' pace and who presses Tinker Bell for their cards,
    when to stop, the light show, and where the record goes on leaving."""
    p.add_argument(
        "--pace",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help="seconds between bot moves, 0 to 5 (default 0.6)",
    )
    p.add_argument(
        "--press-for-bots",
        action="store_true",
        help="you press Tinker Bell for the bots' cards too (by default each bot presses for "
        "its own, as each player does at a real table)",
    )
    p.add_argument("--hands", type=positive, metavar="N", help="stop after N hands")
    p.add_argument(
        "--no-show", action="store_true", help="no light show in text when the button is pressed"
    )
    p.add_argument(
        "--record",
        type=Path,
        metavar="FILE",
        help="on leaving, write the game record to FILE (for `tinker-tray replay`)",
    )


positive = at_least(1)


def parse_seats(text: str) -> list[int]:
    """`0,2` -> [0, 2]; `none` (or empty) -> [] (bots only: watch, and press the button)."""
    if text.strip().lower() in ("", "none"):
        return []
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise ValueError(f"--humans takes seat numbers like 0 or 0,2, not {text!r}") from None


def run(args: argparse.Namespace) -> int:
    import threading

    from cli.console import Console
    from digital.session import DigitalSession
    from tray.bus import Bus

    if args.record is not None and (problem := file_problem(args.record)):
        print(f"tinker-tray play: --record: {problem}", file=sys.stderr)
        return 2
    console = Console(highlight=False)
    changed = threading.Event()
    try:
        options, inputs = _options(args.option, args.ruleset)
    except ValueError as exc:  # a malformed option; a file missing or malformed, with its line
        print(f"tinker-tray play: {exc}", file=sys.stderr)
        return 2
    session = DigitalSession(Bus(), on_change=changed.set, inputs={args.ruleset: inputs})
    try:
        keys = session.new_game(
            [name for name in args.players.split(",")],
            parse_seats(args.humans),
            [b.strip() for b in args.bots.split(",") if b.strip()],
            args.dealer,
            options,
            args.ruleset,
            seed=args.seed,
            pace=args.pace,
            bots_press=not args.press_for_bots,
        )
    except ValueError as exc:
        print(f"tinker-tray play: {exc}", file=sys.stderr)
        session.close()
        return 2
    read = TtyInput() if sys.stdin.isatty() else input
    play = _terminal_play(args, session, keys, changed, read, console)
    names = ", ".join(args.players.split(","))
    view = session.view()
    title = view["title"] + ("" if "tinker_bell" in view["features"] else " (no Tinker Bell)")
    console.print(f"[bold]{title}[/] ({args.ruleset}): {names}. Type ? for help, q to leave.")
    code = 1
    try:
        code = play.run()
    except KeyboardInterrupt:
        console.print("\nStopped (Ctrl-C).")
        code = 130
    finally:
        if isinstance(read, TtyInput):
            read.close()
        session.close()
        saved = _save(session, args.record, console)
    return code if saved else code or 1  # a record asked for and not written is a failure


def _terminal_play(args, session, keys, changed, read, console):
    """Terminal play of any ruleset; with Tinker Bell, Enter presses her, with her light show."""
    from digital.play_loop import TerminalPlay, text_show
    from tray.pick import Picker

    show = None
    if not args.no_show and console.is_terminal and sys.stdin.isatty():
        show = text_show(console, _skippable_wait)
    return TerminalPlay(
        session,
        keys,
        changed,
        Picker(args.seed),
        read=read,
        console=console,
        show=show,
        hands=args.hands,
    )


def _options(given: list[str], ruleset: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The options, and the files the ruleset needs (its registry entry's `inputs`: UNO Elite's
    `cards=`, `deck=`, dynasty's `decks=`), read here, by the command line, never by digital
    play. An unknown ruleset needs none here: starting its game says it is unknown."""
    from cli.commands.simulate import parse_options
    from cli.inputs import game_inputs
    from engine import registry

    options = parse_options(given)
    if ruleset not in registry.names():
        return options, {}
    return game_inputs(ruleset, options)


def _save(session, path: Path | None, console) -> bool:
    """Write the record if one was asked for; False if it was and could not be written."""
    if path is None:
        console.print(
            "Nothing was saved (add --record FILE to keep the game record).", soft_wrap=True
        )
        return True
    try:
        path.write_text(session.record(), encoding="utf-8")
    except OSError as exc:
        console.print(f"Could not write the game record to {path}: {exc}", soft_wrap=True)
        return False
    console.print(
        f"The game record is in {path} (tinker-tray replay {path}).", soft_wrap=True, markup=False
    )
    return True


def _skippable_wait(seconds: float) -> bool:
    """Wait one frame of the show; True (and the line eaten) if the person pressed Enter."""
    import select

    ready, _, _ = select.select([sys.stdin], [], [], seconds)
    if ready:
        sys.stdin.readline()
        return True
    return False


class TtyInput:
    """`input()` for a terminal that Ctrl-C always interrupts.

    CPython notices a signal in a blocking read only if the read fails with EINTR: a Ctrl-C that
    lands between the prompt being written and the read starting is only seen after the next
    Enter. Here the prompt is written, then `select` waits on the terminal and on a pipe that
    the signal machinery writes to (`signal.set_wakeup_fd`) the moment any signal arrives, so
    the KeyboardInterrupt is raised at once. Only for a terminal: in canonical mode a read
    returns one line, so nothing waits unseen in Python's buffer."""

    def __init__(self) -> None:
        import os
        import signal

        self._r, self._w = os.pipe()
        os.set_blocking(self._r, False)
        os.set_blocking(self._w, False)
        self._old = signal.set_wakeup_fd(self._w)

    def __call__(self, prompt: str) -> str:
        import os
        import select

        sys.stdout.write(prompt)
        sys.stdout.flush()
        while True:
            ready, _, _ = select.select([sys.stdin, self._r], [], [])
            if self._r in ready:  # a signal: its handler (SIGINT: KeyboardInterrupt) runs next
                with contextlib.suppress(BlockingIOError):
                    os.read(self._r, 512)
                continue
            line = sys.stdin.readline()
            if not line:
                raise EOFError
            return line.rstrip("\n")

    def close(self) -> None:
        import os
        import signal

        signal.set_wakeup_fd(self._old)
        os.close(self._r)
        os.close(self._w)
