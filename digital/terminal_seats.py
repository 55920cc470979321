"""The people at the keyboard of terminal play (`digital.play_loop.TerminalPlay`): their seat
keys, hot seat (a hand shows only once its player is there), reading a line where `q` leaves,
and printing."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

from rich.console import Console
from rich.text import Text

from digital import play_text as T
from digital.session import DigitalSession


class Left(Exception):
    """The person left the game (q, or end of input)."""


class TerminalSeats:
    def __init__(
        self,
        session: DigitalSession,
        keys: Mapping[int, str],
        changed: threading.Event,
        *,
        read: Callable[[str], str] = input,
        console: Console | None = None,
    ) -> None:
        self.session, self.keys, self.changed = session, dict(keys), changed
        self.read = read
        self.console = console or Console(highlight=False)
        self.hot_seat = len(self.keys) > 1
        self.revealed: int | None = None  # hot seat: the seat whose hand is on the screen
        self._log: list[str] = []

    def _table_view(self) -> dict[str, Any]:
        """The one person's own view (its log says "You ..."); with several people at one
        keyboard, nobody's: no hand is ever printed from it."""
        if len(self.keys) == 1:
            seat, key = next(iter(self.keys.items()))
            return self.session.view(seat, key)
        return self.session.view()

    def _hand_over(self, seat: int) -> None:
        """Hot seat: clear the screen, then show the hand only once its player is there."""
        name = self.session.view()["players"][seat]["name"]
        self.console.clear()
        self._say(f"{name} to move: pass the keyboard to {name}.", style="bold")
        self._print(*T.log(self._log[-3:]))  # a little context for the newcomer
        self._read(f"{name}, press Enter to see your hand (q leaves the game): ")
        self.revealed = seat

    def _read(self, prompt: str) -> str:
        line = self.read(prompt)
        if line.strip().lower() in ("q", "quit", "exit"):
            raise Left()
        return line

    def _print(self, *lines: Any) -> None:
        for line in lines:
            self.console.print(line)

    def _say(self, text: str, style: str = "") -> None:
        self.console.print(Text(text, style=style))
