"""Terminal play's loop: a person (or several, hot seat) plays a digital game of any ruleset
against bots, line by line; in a ruleset with Tinker Bell (`features`), the keyboard is her button.

Everything shown comes from `DigitalSession.view` and every move goes through
`DigitalSession.act`, exactly as the browser page does, so a terminal player never sees another
hand. Input and output are injected (`read` like `input`, a rich `Console`), so tests play whole
games in-process.

Bots move on the engine link's timer when the pace is above 0; the session's `on_change` sets
`changed`, which wakes the loop to print what they did. The loop needs a person only when a
person's seat is to move or the game waits for the Tinker Bell button; in between it waits on
that event (never polling the game in a busy loop).

A press of the button makes the pick with `tray.pick.Picker` (fair, from `secrets`, or seeded for
a demo), optionally plays the light show in text (computed from the pick, so its timing cannot
influence it), and publishes the `Pick` on the bus, where the engine link takes it as Tinker
Bell's chance event, just as it takes a pick from the tray.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Mapping
from typing import Any

from rich.console import Console
from rich.text import Text

from digital import play_text as T
from digital.errors import MoveError, SeatError
from digital.play_menu import (
    YES_WORDS,
    Act,
    Choice,
    Confirm,
    Help,
    Press,
    Quit,
    Redraw,
    Refuse,
    calls_menu,
    help_text,
    menu,
    no_tinker_bell,
    parse,
    tinker_bell_waits,
)
from digital.race import RACE
from digital.session import DigitalSession
from digital.terminal_seats import Left, TerminalSeats
from engine.errors import RuleError
from tray.config import ShowSettings
from tray.pick import Picker
from tray.show import frames

# A shorter show than the tray's: in a terminal it is a moment of suspense, not a light to find.
TERMINAL_SHOW = ShowSettings(
    steps=12, first_step_s=0.03, last_step_s=0.18, trail=0.25, blinks=2, blink_s=0.12, lit_s=0.0
)
NEW_HAND = re.compile(r"Hand \d+ is dealt: ")  # the log's line for a deal (digital.session)
HAND_OVER = re.compile(r"Hand \d+ is over: ")  # the log's line for a result: printed our way
GUARD_S = 2.0  # longest wait for a bot's move before looking again (a guard, not a poll)


class TerminalPlay(TerminalSeats):
    """One game in one terminal. `run()` returns 0 when the game ends, the asked-for number of
    hands has been played, or the person leaves."""

    def __init__(
        self,
        session: DigitalSession,
        keys: Mapping[int, str],
        changed: threading.Event,
        picker: Picker | None = None,
        *,
        read: Callable[[str], str] = input,
        console: Console | None = None,
        show: Callable[[str, str | None], None] | None = None,
        hands: int | None = None,
    ) -> None:
        super().__init__(session, keys, changed, read=read, console=console)
        self.picker = picker or Picker()
        self.show = show
        self.hands = hands
        self._announced = 0  # finished hands whose result is on screen

    # ------------------------------------------------------------------ the loop
    def run(self) -> int:
        try:
            while True:
                self.changed.clear()  # before reading: a change after this wakes the wait
                view = self._table_view()
                self._catch_up(view)
                if view["winner"]:
                    if "points" not in T.features(view):  # no hand's result said how it ended
                        self._print(Text(""), *T.table(view))
                    self._print(*T.game_over(view))
                    return 0
                if self.hands is not None and len(view.get("hands", ())) >= self.hands:
                    self._say(
                        f"Stopped after {len(view['hands'])} hand"
                        f"{'' if len(view['hands']) == 1 else 's'}, as asked (--hands)."
                    )
                    return 0
                seat = _person_to_move(view, self.keys)
                if tinker_bell_waits(view):
                    self._tinker_bell()
                elif seat is not None:
                    self._turn(seat)
                else:  # bots are playing at their pace
                    self.changed.wait(GUARD_S)
        except (Left, EOFError):
            self._print(Text(""))
            at = self.session.view().get("hand_no")
            self._say(f"You left the game at hand {at}." if at else "You left the game.")
            return 0

    # ------------------------------------------------------------------ a person's move
    def _turn(self, seat: int) -> None:
        if self.hot_seat and self.revealed != seat:
            self._hand_over(seat)
        view = self.session.view(seat, self.keys[seat])
        self._draw(view)
        choices = menu(view)
        self._print(*T.choices(choices))
        if any(m["uno"] for m in view.get("legal", [])) or view.get("uno_plays"):
            self._say("Two cards left: type u after the number to say UNO! as you play (3u).")
        self._ask(choices, "Your move", tinker_bell=False, view=view)

    # ------------------------------------------------------------------ the button
    def _tinker_bell(self) -> None:
        if self.hot_seat:  # nobody's hand on screen: the table, and every person's calls
            view = self.session.view()
            self.revealed = None
            choices = calls_menu([self.session.view(s, k) for s, k in sorted(self.keys.items())])
        elif self.keys:
            seat, key = next(iter(self.keys.items()))
            view = self.session.view(seat, key)
            choices = menu(view)
        else:
            view, choices = self.session.view(), []
        bot = view.get("bot_presses")  # a bot's card: it presses for itself (`digital.bot_press`)
        if bot and not choices:
            self._say(f"{bot} presses Tinker Bell.")
            self.press()
            return
        self._draw(view)
        self._print(*T.choices(choices))
        question = (
            f"Enter: {bot} presses Tinker Bell, or call first"
            if bot
            else "Press Enter for the Tinker Bell button"
        )
        self._ask(choices, question, tinker_bell=True, view=view)

    def press(self) -> None:
        """The Tinker Bell button: a fair pick, its show, then the pick on the bus."""
        pick = self.picker.pick(source="terminal")
        if self.show is not None:
            self.show(pick.colour, pick.lead)
        line = Text(f"Tinker Bell's pick #{pick.seq}: ")
        line.append_text(T.swatch(pick.colour, pick.colour.upper()))
        self._print(line)
        self.session.bus.publish(pick)

    # ------------------------------------------------------------------ input
    def _ask(
        self, choices: list[Choice], question: str, *, tinker_bell: bool, view: Mapping[str, Any]
    ) -> None:
        """Read lines until one is a move that the engine takes (or a press, or q)."""
        hint = {0: "", 1: "1, "}.get(len(choices), f"1-{len(choices)}, ")
        prompt = f"{question} ({hint}? help, q quit): "
        no_button = "" if "tinker_bell" in T.features(view) else no_tinker_bell(view)
        while True:
            command = parse(self._read(prompt), choices, tinker_bell, no_button)
            if isinstance(command, Quit):
                raise Left()
            if isinstance(command, Help):
                self._say(help_text(view))
            elif isinstance(command, Redraw):
                self._log = []
                return  # the loop draws the table again
            elif isinstance(command, Refuse):
                self._say(command.message, style="bold red")
            elif isinstance(command, Press):
                self.press()
                return
            elif isinstance(command, Confirm):
                if self._read(f"{command.question}: ").strip().lower() not in YES_WORDS:
                    self._say(f"Not done: {command.act.label}.")
                elif self._act(command.act):
                    return
            elif isinstance(command, Act) and self._act(command):
                return

    def _act(self, command: Act) -> bool:
        """Send a person's move; False (and why, on screen) if the engine refused it."""
        seat = command.seat
        try:
            key = self.keys.get(seat) if seat is not None else None
            self.session.act(seat, key, command.action, uno=command.uno)
        except (RuleError, SeatError, MoveError) as exc:
            self._say(f"Not allowed: {exc}", style="bold red")
            return False
        return True

    # ------------------------------------------------------------------ output
    def _draw(self, view: Mapping[str, Any]) -> None:
        self._print(Text(""), T.header(view), *T.table(view))
        self._print(*T.seat_lines(view, self.console.width))

    def _catch_up(self, view: Mapping[str, Any]) -> None:
        """Print what happened since the last look: new log lines, finished hands."""
        if not view.get("game"):
            return
        hands = view.get("hands", [])
        pending = list(hands[self._announced :])
        self._announced = len(hands)
        for line in T.new_lines(self._log, view["log"]):
            if HAND_OVER.match(line):
                continue  # `_result` prints it with the scores
            if NEW_HAND.match(line) and pending:  # a hand's result before the next deal
                self._result(view, pending)
            self._print(*T.log([line]))
        self._log = list(view["log"])
        while pending:  # its deal has scrolled out of the log's last lines
            self._result(view, pending)

    def _result(self, view: Mapping[str, Any], pending: list[dict[str, Any]]) -> None:
        """The next finished hand's result; the scores (as they stand now) after the last."""
        lines = T.hand_result(view, pending.pop(0))
        self._print(*(lines if not pending else lines[:1]))


def _person_to_move(view: Mapping[str, Any], keys: Mapping[int, str]) -> int | None:
    awaiting = view.get("awaiting") or {}
    if awaiting.get("kind") == RACE:  # every hand on the 6: the first person's not yet there
        return next((s for s in sorted(keys) if s not in awaiting.get("slapped", ())), None)
    seat = awaiting.get("seat")
    return seat if seat in keys and not tinker_bell_waits(view) else None


def text_show(
    console: Console, wait: Callable[[float], bool], settings: ShowSettings = TERMINAL_SHOW
) -> Callable[[str, str | None], None]:
    """The light show in text, for a pick's colour: a scan across the four colours that settles
    on it. `wait(seconds)` sleeps a frame and returns True if the person asked to skip."""
    from rich.live import Live

    def play(colour: str, lead: str | None = None) -> None:
        with Live(console=console, auto_refresh=False, transient=True) as live:
            for frame in frames(colour, settings, lead):
                live.update(T.lights(frame.levels), refresh=True)
                if frame.seconds and wait(frame.seconds):
                    break

    return play
