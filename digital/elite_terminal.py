"""Terminal play of UNO Elite: a person (or several, hot seat) against `engine.elite.bots`.

As `digital.play_loop.TerminalPlay` does for the other rulesets: everything shown comes from
`DigitalSession.view` (the seat's own view, never another hand) and every move goes through
`DigitalSession.act`. UNO Elite has no Tinker Bell, so the loop only ever waits for a person's
move or for the bots; Enter (the button in the Disney game) asks for a move's number instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rich.text import Text

from digital import elite_text as E
from digital import play_text as T
from digital.elite_view import NO_TINKER_BELL
from digital.play_menu import PRESS_WORDS, Act, Choice, Help, Quit, Redraw, Refuse, parse
from digital.session import SeatError
from digital.terminal_seats import Left, TerminalSeats
from engine.errors import RuleError

SAID_UNO = re.compile(r"^(\d+)\s*(u|uno)\s*!?$")  # "3u": move 3, saying UNO!
GUARD_S = 2.0  # longest wait for a bot's move before looking again (a guard, not a poll)

HELP = f"""\
Type the number of a move and press Enter. Every choice of an activation (whom to target,
which card, in what order) is a move of its own, offered when the game asks for it.
  3u      play move 3 and say UNO! (with your next-to-last card)
  r       show the table again   ?  this help
  q       leave the game (Ctrl-D too)
{NO_TINKER_BELL}: nothing waits for a button. Bad input changes nothing."""


class EliteTerminalPlay(TerminalSeats):
    """One UNO Elite game in one terminal; `run()` returns 0 when it ends or the person leaves."""

    def run(self) -> int:
        try:
            while True:
                self.changed.clear()  # before reading: a change after this wakes the wait
                view = self._table_view()
                self._catch_up(view)
                if view["winner"] is not None:
                    self._print(Text(""), *E.table(view), *E.game_over(view))
                    return 0
                seat = view["awaiting"]["seat"]
                if seat in self.keys:
                    self._turn(seat)
                else:  # the bots are playing at their pace
                    self.changed.wait(GUARD_S)
        except (Left, EOFError):
            self._print(Text(""))
            self._say("You left the game.")
            return 0

    # ------------------------------------------------------------------ a person's move
    def _turn(self, seat: int) -> None:
        if self.hot_seat and self.revealed != seat:
            self._hand_over(seat)
        view = self.session.view(seat, self.keys[seat])
        self._draw(view)
        choices = E.menu(view)
        self._print(*T.choices(choices))
        if view["uno_plays"]:
            self._say("Two cards left: type u after the number to say UNO! as you play (3u).")
        self._ask(choices, seat)

    def _ask(self, choices: list[Choice], seat: int) -> None:
        """Read lines until one is a move the engine takes (or r, or q)."""
        hint = {0: "", 1: "1, "}.get(len(choices), f"1-{len(choices)}, ")
        prompt = f"Your move ({hint}? help, q quit): "
        while True:
            line = self._read(prompt)
            if line.strip().lower() in PRESS_WORDS - {""}:
                self._say(f"{NO_TINKER_BELL}: type the number of a move.", style="bold red")
                continue
            said = SAID_UNO.match(line.strip().lower())
            if said and 1 <= int(said.group(1)) <= len(choices):
                choice = choices[int(said.group(1)) - 1]
                if choice.uno is not None and self._act(seat, choice.action, uno=True):
                    return
                if choice.uno is not None:
                    continue
            command = parse(line, choices)
            if isinstance(command, Quit):
                raise Left()
            if isinstance(command, Help):
                self._say(HELP)
            elif isinstance(command, Redraw):
                self._log = []
                return  # the loop draws the table again
            elif isinstance(command, Refuse):
                self._say(command.message, style="bold red")
            elif isinstance(command, Act) and self._act(seat, command.action):
                return

    def _act(self, seat: int, action: int, uno: bool = False) -> bool:
        """True if the engine took the move; else its reason is printed."""
        try:
            self.session.act(seat, self.keys[seat], action, uno=uno)
        except (RuleError, SeatError, ValueError) as exc:
            self._say(f"Not allowed: {exc}", style="bold red")
            return False
        return True

    # ------------------------------------------------------------------ output
    def _draw(self, view: Mapping[str, Any]) -> None:
        width = self.console.width
        self._print(Text(""), E.header(view), *E.table(view), *E.draft(view))
        self._print(*E.private(view, width))

    def _catch_up(self, view: Mapping[str, Any]) -> None:
        """Print the log lines that are new since the last look."""
        log = list(view["elite"].get("log", []))
        self._print(*T.log(T.new_lines(self._log, log)))
        self._log = log
