"""A race in digital play (6-Smackdown: every hand on the 6, the last one draws 2): the people's
hands come from their own buttons, the bots' after a human-like delay.

The engine keeps the race's rule and its order (the chance node "smackdown", whose outcomes are
each seat's own call out of turn, each a record event): a simulation leaves the order to
chance; digital play lets the quickest hand through. A person lays theirs with the button on
their phone (or a terminal's menu), as any call out of turn (`GameLink.act`); a bot's comes
after a delay like a person's, drawn from the link's seeded generator (`bot_delays`), on the
link's timer (`GameLink`). With the pace 0 (the bots play at once) the bots' hands come at once,
in the order of their delays, before any person's.
"""

from __future__ import annotations

import random
from collections.abc import Collection

from engine.protocol import GameState

RACE = "smackdown"
"""The feature, and the chance node, of a race (`engine.protocol.PROTOCOL_FEATURES`)."""
REACTION_S = (0.5, 1.6)
"""A bot's hand reaches the card this many seconds after it is played, uniformly: a person's
reaction on a phone (seeing the card, then reaching for the button)."""


def racing(game: GameState, features: Collection[str]) -> bool:
    """The game waits for every hand in a race (not for chance: the hands come themselves)."""
    return RACE in features and game.chance_kind() == RACE


def hands_due(game: GameState) -> dict[int, int]:
    """{seat: its hand's action} for every seat still to lay its hand in the race: the race's
    chance outcomes are each one seat's own call out of turn."""
    outcomes = {action for action, _chance in game.chance_outcomes()}
    return {seat: action for seat, action in game.interjections() if action in outcomes}


def bot_delays(
    due: Collection[int], humans: Collection[int], rng: random.Random
) -> list[tuple[float, int]]:
    """(seconds, seat) for each bot still to lay its hand, quickest first: a delay each, drawn
    in seat order from `rng` (a seeded game times its bots the same way every time)."""
    return sorted((rng.uniform(*REACTION_S), seat) for seat in sorted(due) if seat not in humans)
