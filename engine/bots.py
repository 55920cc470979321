"""Bots for every ruleset, over the game protocol: a uniformly random player, a greedy one that
plays by the ruleset's own hints, and (`engine.search`) the search bot.

A bot answers two questions: what to do when it is its move (`act`: one of
`state.legal_actions()`), and whether to act out of turn when the rules allow it (`interject`:
call UNO, catch someone, challenge a Villain Draw 4, jump in). `offer_calls` is the one policy
that asks them out of turn, for every ruleset: the simulations, the search bot's rollouts and
digital play all ask through it. The greedy judgement of each ruleset is
its state's `hints` (`engine.protocol.Hints`), which lives with the ruleset (`engine.disney.greedy`,
`engine.elite.hints`): these bots know none.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from engine.protocol import GameState


class Bot(Protocol):
    name: str

    def act(self, game: GameState) -> int: ...

    def interject(self, game: GameState, seat: int, options: list[int]) -> int | None: ...


class RandomBot:
    """Picks uniformly among the legal actions; out of turn, one of its calls or none, each as
    likely."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.draw = rng.random
        """Its source of randomness: one float a choice (`random.choice` costs three calls)."""

    def act(self, game: GameState) -> int:
        return self.choose(game.legal_actions())

    def choose(self, legal: list[int]) -> int:
        """One of `legal`, uniformly (the simulation's playout draws the same way)."""
        n = len(legal)  # (an int variable: a compiled engine multiplies a float by it natively)
        return legal[int(self.draw() * n)]

    def interject(self, game: GameState, seat: int, options: list[int]) -> int | None:
        n = len(options) + 1
        i = int(self.draw() * n)
        return options[i] if i < len(options) else None


class GreedyBot:
    """Plays by the ruleset's hints (`state.hints`): its greedy choice, its calls out of turn."""

    name = "greedy"

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng

    def act(self, game: GameState) -> int:
        return int(game.hints.act(game))

    def interject(self, game: GameState, seat: int, options: list[int]) -> int | None:
        return game.hints.interject(game, seat, options)


GREEDY = GreedyBot()
"""A greedy player for any seat (it keeps no state): the search bot's rollouts seat it
everywhere."""


# ---------------------------------------------------------------- calls out of turn
def offer_calls(
    game: GameState,
    bots: Sequence[Bot | None],
    order: Callable[[list[int]], object] | None = None,
) -> bool:
    """The one policy of calls out of turn, for every ruleset: each seat offered a call now
    (`game.interjections()`: UNO, catch, challenge, Jump-In) is asked once, with all its calls,
    whether it makes one (`bots[seat]`; None: a person's seat, never asked); the first that does
    makes it (`apply_listed`: nothing changes between the listing and the call), and True says
    so; a bot answering with a call it was not offered is a bug, and raises ValueError. Seats
    are asked in the order of their first offer (each ruleset lists a seat's own
    UNO before anyone's catch, so it has its chance first), or, with `order` (a shuffle of the
    seats in place: the simulations' `chance_order`), in an order left to chance (seat order
    would favour the low seats)."""
    offers = game.interjections()
    if not offers:
        return False
    seats: list[int] = []  # each seat once, in the order of its first offer
    for seat, _action in offers:
        if seat not in seats:
            seats.append(seat)
    if order is not None:
        order(seats)
    for seat in seats:
        bot = bots[seat]
        if bot is None:
            continue
        offered = []
        for speaker, action in offers:  # (a loop: a comprehension costs Python 3.11 a call)
            if speaker == seat:
                offered.append(action)
        said = bot.interject(game, seat, offered)
        if said is None:
            continue
        if said not in offered:
            raise ValueError(f"the {bot.name} bot of seat {seat} made a call it was not offered")
        game.apply_listed(said, seat)
        return True
    return False


def chance_order(rng: random.Random) -> Callable[[list[int]], None]:
    """Who speaks first out of turn left to `rng` (`offer_calls`' `order`), as the simulations
    deal: `shuffle`."""
    return lambda seats: shuffle(seats, rng)


_T = TypeVar("_T")


def shuffle(cards: list[_T], rng: random.Random) -> None:
    """Shuffle in place: Fisher-Yates with one float per card. `random.shuffle` draws bits per
    card through two Python calls, a sixth of a simulation's time; a float's bias (below 2**-53)
    is nothing for statistics. (The tray's own pick is another matter: `tray.pick`.) Generic,
    so that a compiled engine moves the cards as they are, without making ints of them."""
    draw = rng.random
    n = float(len(cards))  # = i + 1, kept as a float: a compiled engine multiplies it natively
    for i in range(len(cards) - 1, 0, -1):
        j = int(draw() * n)  # (= floor: the float is never negative)
        cards[i], cards[j] = cards[j], cards[i]
        n -= 1.0


# ---------------------------------------------------------------- by name
def _search(rng: random.Random, budget: str = "", clock: Callable[[], float] | None = None) -> Bot:
    from engine.search import SearchBot, parse_budget  # engine.search builds on these bots

    rollouts, seconds = parse_budget(budget) if budget else (None, None)
    return SearchBot(rng, rollouts=rollouts, seconds=seconds, clock=clock)


BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "greedy": GreedyBot, "search": _search}


def make(
    names: list[str],
    players: int,
    rng: random.Random,
    clock: Callable[[], float] | None = None,
) -> list[Bot]:
    """Bots for each seat (`bot_names`). `search` takes a budget after a colon (`search:300`
    rollouts a move, `search:200ms` with a `clock`)."""
    return [_one(spec, rng, clock) for spec in bot_names(names, players)]


def bot_names(names: Sequence[str], players: int) -> list[str]:
    """The bots dealt round the table, for every ruleset: one name for all, or a list repeated
    around it. ValueError naming the bots there are, for a name that is none of them."""
    unknown = [n for n in names if n.partition(":")[0] not in BOTS]
    if unknown or not names:
        raise ValueError(f"the bots are {', '.join(BOTS)}, not {', '.join(unknown) or '-'}")
    return [names[s % len(names)] for s in range(players)]


def _one(spec: str, rng: random.Random, clock: Callable[[], float] | None) -> Bot:
    name, _, budget = spec.partition(":")
    if name == "search":
        return _search(rng, budget, clock)
    if budget:
        raise ValueError(f"the {name} bot takes no budget ({spec!r})")
    return BOTS[name](rng)
