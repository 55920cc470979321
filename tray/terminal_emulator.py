"""The emulator's terminal view: four lights drawn live, the pick history, keys for the button.

The view is redrawn only when what it shows has changed: every 50 ms (the keys' poll) the loop
reads the lights' current values (from the tray, never pushed) and the pick history's state, and
redraws when they differ from the last drawing, or at once on a key or a tray event. An idle
emulator (`./tinker run` left open all evening) then costs next to nothing, where rich's own
refresh thread redrew 20 times a second whether or not anything had changed
(`python -m bench.idle` measures both). Keys: space = tap, h = long hold,
l = the link hold (about 3 s on the emulated button: the display's pairing window), q (or Ctrl-C,
or SIGTERM) = quit. The terminal is put in cbreak mode and restored on the way out.
"""

from __future__ import annotations

import contextlib
import select
import signal
import sys
import termios
import threading
import time
import tty
from collections.abc import Callable
from typing import Any

from rich.console import Group
from rich.live import Live
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tray.backend import COLOURS, DARK
from tray.events import ButtonHeld, Event, Fault, LinkHeld, Pick, PickSettled

RGB = {
    "red": (235, 40, 40),
    "blue": (40, 100, 255),
    "green": (30, 200, 80),
    "yellow": (250, 210, 0),
}
OFF = (45, 45, 45)


def light(colour: str, level: float) -> Text:
    r, g, b = (round(o + (c - o) * level) for o, c in zip(OFF, RGB[colour], strict=True))
    return Text("██████\n██████\n██████", style=f"rgb({r},{g},{b})")


Drawn = tuple[object, ...]
"""What a drawing showed, as `TerminalEmulator.drawn` reads it: compared, never displayed."""


class TerminalEmulator:
    def __init__(
        self,
        service: Any,
        bus: Any,
        tray: Any,
        tap: Callable[[], None],
        hold: Callable[[], None],
        link: Callable[[], None] | None = None,
    ) -> None:
        self.service, self.tray, self.tap, self.hold, self.link = service, tray, tap, hold, link
        self.log: list[str] = []
        self._quit = threading.Event()
        self._dirty = threading.Event()  # a key or a tray event since the last drawing
        self._last: Drawn | None = None
        bus.subscribe(self._on_event, Pick, PickSettled, Fault, ButtonHeld, LinkHeld)

    def _on_event(self, event: Event) -> None:
        self._dirty.set()
        if isinstance(event, Fault):
            self.log.append(f"[bold red]fault[/] {event.kind}: {event.message}")
        elif isinstance(event, ButtonHeld):
            self.log.append(f"long hold: {self.service.settings.button.hold_action}")
        elif isinstance(event, LinkHeld):
            self.log.append("link hold: the display is pairing a phone for a minute (/pair)")

    def levels(self) -> tuple[float, ...]:
        devices = getattr(self.tray, "devices", None)
        if devices is not None and not devices.closed:
            return devices.levels()
        return getattr(getattr(self.tray, "player", None), "levels", DARK)

    def drawn(self) -> Drawn:
        """Everything the view shows that can change by itself (the lights during a show, a pick
        landing, the spinning state), cheap to read 20 times a second; the log changes only
        with an event, which marks the view dirty itself."""
        history = self.service.history
        last = history[-1].seq if history else None
        return (self.levels(), len(history), last, self.service.spinning, len(self.log))

    def redraw_if_changed(self, live: Any) -> bool:
        """Redraw (one explicit refresh of an auto_refresh=False `Live`) only if the view would
        differ from its last drawing; True if it did."""
        now = self.drawn()
        if now == self._last and not self._dirty.is_set():
            return False
        self._dirty.clear()
        self._last = now
        live.update(self.render(), refresh=True)
        return True

    def render(self) -> Group:
        lights = Table.grid(padding=(0, 2))
        levels = self.levels()
        lights.add_row(*(light(c, lv) for c, lv in zip(COLOURS, levels, strict=True)))
        lights.add_row(*(Text(c.upper(), style="bold") for c in COLOURS))
        history = Table("#", "colour", "time", "from", title="picks", expand=False)
        picks = list(self.service.history)[-10:][::-1]
        for i, pick in enumerate(picks):
            colour = Text(pick.colour, style=f"bold rgb{RGB[pick.colour]}")
            if i == 0 and self.service.spinning:  # no spoilers: the lights reveal it first
                colour = Text("?", style="bold")
            history.add_row(
                str(pick.seq),
                colour,
                time.strftime("%H:%M:%S", time.localtime(pick.t)),
                pick.source,
            )
        side = Table.grid(padding=(0, 4))
        side.add_row(Panel(lights, title="Tinker Bell tray (emulator)"), history)
        state = "spinning..." if self.service.spinning else "ready"
        help_line = Text.from_markup(
            "[bold]space[/] tap   [bold]h[/] long hold   "
            + ("[bold]l[/] link hold (pair a phone)   " if self.link else "")
            + f"[bold]q[/] quit      {state}"
        )
        return Group(side, help_line, *(Text.from_markup(line) for line in self.log[-3:]))

    def _key(self, key: str) -> None:
        self._dirty.set()
        if key == " ":
            threading.Thread(target=self.tap, daemon=True).start()
        elif key in "hH":
            threading.Thread(target=self.hold, daemon=True).start()
        elif key in "lL" and self.link is not None:
            threading.Thread(target=self.link, daemon=True).start()
        elif key in "qQ\x1b":
            self._quit.set()

    _sigterm = False

    def _terminated(self, _signum: int, _frame: object) -> None:
        """SIGTERM: a flag the loop reads within 50 ms. Nothing that takes a lock: the handler
        runs in this thread, which may hold `_quit`'s own lock (a q pressed at that moment)."""
        self._sigterm = True

    def live(self) -> Live:
        """rich's `Live` without its refresh thread: `redraw_if_changed` refreshes it."""
        return Live(self.render(), auto_refresh=False, screen=False)

    def run(self) -> None:
        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd)
        previous = signal.signal(signal.SIGTERM, self._terminated)
        try:
            tty.setcbreak(fd)
            with self.live() as live:
                while not self._quit.is_set() and not self._sigterm:
                    self.redraw_if_changed(live)
                    ready, _, _ = select.select([fd], [], [], 0.05)
                    if ready:
                        self._key(sys.stdin.read(1))
        except KeyboardInterrupt:
            pass
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
            signal.signal(signal.SIGTERM, previous)
            with contextlib.suppress(Exception):
                self.service.stop()
