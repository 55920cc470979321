"""Helpers of the digital-play tests, importable on their own (the kill -9 test runs them in a
child process), so no relative imports here."""

from __future__ import annotations

import random
from pathlib import Path

from cli.inputs import shipped_inputs
from digital.session import DigitalSession
from scoreboard.journal import Journal
from scoreboard.session import TableSession
from tray.backend import COLOURS
from tray.bus import Bus
from tray.events import Pick


class Picks:
    """Presses the Tinker Bell button: publishes the next pick on the bus."""

    def __init__(self, bus: Bus, rng: random.Random):
        self.bus, self.rng, self.seq = bus, rng, 0

    def __call__(self) -> None:
        self.seq += 1
        self.bus.publish(Pick(seq=self.seq, colour=self.rng.choice(COLOURS), t=float(self.seq)))


def offered(view):
    return [m["action"] for m in view["legal"] if not m["out_of_turn"]]


def play_out(session, picks, seat, key, rng, check=None, limit=20_000):
    """Play `seat` from its view alone (a random offered move, now and then a call) until the
    game ends; the button is pressed whenever the engine waits for Tinker Bell."""
    link = session.link
    game = link.game
    for _ in range(limit):
        if game.is_terminal():
            return
        if link.waiting_for_tinker_bell:
            picks()
            continue
        view = session.view(seat, key)
        if check:
            check(view)
        assert game.current_player() == seat, "the link stops only for the person or the button"
        assert sorted(set(offered(view))) == sorted(game.legal_actions())
        if view["calls"] and rng.random() < 0.5:
            session.act(seat, key, view["calls"][0]["a"])
            continue
        session.act(seat, key, rng.choice(offered(view)))
    raise AssertionError("the game did not end")


class Table:
    """A display's state on one journal file, started and stopped like the service."""

    def __init__(self, path: Path):
        self.bus = Bus()
        self.journal = Journal(path)
        self.table = TableSession(self.journal, self.bus)
        self.digital = DigitalSession(self.bus, table=self.table, pace=0, inputs=shipped_inputs())

    def stop(self) -> None:
        self.digital.close()
        self.table.close()
        self.journal.close()


def some_moves(table: Table, seat: int, key: str, rng: random.Random, moves: int) -> None:
    """Seat `seat` plays `moves` moves from its view (pressing the button when asked)."""
    picks = Picks(table.bus, rng)
    link = table.digital.link
    for _ in range(moves):
        if link.game.is_terminal():
            return
        if link.waiting_for_tinker_bell:
            picks()
            continue
        table.digital.act(seat, key, rng.choice(offered(table.digital.view(seat, key))))
