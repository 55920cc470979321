"""Bots: a uniformly random legal player and a sensible greedy one.

A bot sees the game through `Game` (its own hand and what is public) and answers two questions:
what to do when it is its move (`act`), and whether to act out of turn when the rules allow it
(`interject`: call UNO late, catch someone, challenge a Villain Draw 4).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from engine import actions as A
from engine import cards as C
from engine import scoring
from engine.game import Game
from engine.phases import COLOUR, DISCARD, PLAY, PLAY_DRAWN, PROTECT, TARGET


class Bot(Protocol):
    name: str

    def act(self, game: Game) -> int: ...

    def interject(self, game: Game, seat: int, options: list[int]) -> int | None: ...


class RandomBot:
    """Picks uniformly among the legal actions; out of turn, acts or not at random."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.draw = rng.random
        """Its source of randomness (the simulation's playout draws from it the same way)."""

    def act(self, game: Game) -> int:
        legal = game.dealt().legal_actions()
        return legal[int(self.draw() * len(legal))]

    def interject(self, game: Game, seat: int, options: list[int]) -> int | None:
        i = int(self.draw() * (len(options) + 1))
        return options[i] if i < len(options) else None


class GreedyBot:
    """Sheds points early, keeps its wilds for when nothing else plays, names the colour it holds
    most of, always calls UNO and always catches; never challenges (it cannot see the cards)."""

    name = "greedy"

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng

    def act(self, game: Game) -> int:
        h = game.dealt()
        legal = h.legal_actions()
        hand = h.hands[h.to_move]
        points = game.rules.points
        ph = h.phase
        if ph == COLOUR:
            return A.COLOUR + _favourite_colour(hand)
        if ph == TARGET:
            team = _partners(game, h.seats[h.to_move])
            others = [a for a in legal if a - A.TARGET not in team]
            return min(others or legal, key=lambda a: len(h.hands[h.pos_of[a - A.TARGET]]))
        if ph in (PROTECT, DISCARD):
            lays = [a for a in legal if a not in (A.TAKE, A.DONE)]
            if not lays:
                return legal[0]
            return max(lays, key=lambda a: (points[(a % 1000) // 2], a % 2))
        if ph in (PLAY, PLAY_DRAWN):
            plays = [a for a in legal if a < A.PROTECT]
            coloured = [a for a in plays if a // 8 < 64]
            if coloured:
                return max(coloured, key=lambda a: (points[a // 8], a % 2))
            if ph == PLAY_DRAWN and A.PASS in legal:
                return A.PASS  # keep a drawn wild for later
            if plays:
                fav = _favourite_colour(hand)

                def wild_rank(a: int) -> tuple[int, int, int]:
                    card, rest = divmod(a, 8)
                    return (points[card], rest // 2 == fav, a % 2)

                return max(plays, key=wild_rank)
        return legal[0]  # DRAW, PASS

    def interject(self, game: Game, seat: int, options: list[int]) -> int | None:
        for a in options:
            if a == A.UNO:
                return a
        for a in options:
            if A.CATCH <= a < A.CATCH + 100 and a - A.CATCH not in _partners(game, seat):
                return a
        return None


def _favourite_colour(hand: list[int]) -> int:
    counts = [0, 0, 0, 0]
    for c in hand:
        if c < 64:
            counts[C.COLOUR_OF[c]] += 1
    return counts.index(max(counts))


def _partners(game: Game, seat: int) -> tuple[int, ...]:
    if game.options.get("partners_rotation"):
        return scoring.rotation_team(seat, game.sheet.hands)
    return (seat, (seat + 2) % 4) if game.options.get("partners") else (seat,)


def _search(rng: random.Random, budget: str = "", clock: Callable[[], float] | None = None) -> Bot:
    from engine.search import SearchBot, parse_budget  # engine.search builds on GreedyBot

    rollouts, seconds = parse_budget(budget) if budget else (None, None)
    return SearchBot(rng, rollouts=rollouts, seconds=seconds, clock=clock)


BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "greedy": GreedyBot, "search": _search}


def make(
    names: list[str],
    players: int,
    rng: random.Random,
    clock: Callable[[], float] | None = None,
) -> list[Bot]:
    """Bots for each seat: one name for all, or a list repeated around the table. `search` takes
    a budget after a colon (`search:300` rollouts a move, `search:200ms` with a `clock`)."""
    unknown = [n for n in names if n.partition(":")[0] not in BOTS]
    if unknown or not names:
        raise ValueError(f"unknown bot {unknown[0] if unknown else ''!r}; bots: {', '.join(BOTS)}")
    return [_one(names[s % len(names)], rng, clock) for s in range(players)]


def _one(spec: str, rng: random.Random, clock: Callable[[], float] | None) -> Bot:
    name, _, budget = spec.partition(":")
    if name == "search":
        return _search(rng, budget, clock)
    if budget:
        raise ValueError(f"the {name} bot takes no budget ({spec!r})")
    return BOTS[name](rng)
