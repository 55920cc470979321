"""The one game protocol every ruleset's state implements, in OpenSpiel's shape, and every
consumer (simulations, bots, search, digital play, the scoreboard) is written against.

A state says who acts (`current_player`: a seat, `CHANCE` or `TERMINAL`), lists what that
player may do (`legal_actions`: the only source of what is allowed) and takes one
(`apply_action`; a refused action raises `RuleError` and changes nothing). A chance node whose
outcomes can be listed (Tinker Bell's four colours) lists them in `chance_outcomes` and takes the
chosen one through the same `apply_action`; one whose outcomes are orders of many cards (a deck,
a reshuffle) is resolved by `sample_chance`. Out-of-turn moves (UNO, catch, challenge, Jump-In)
are `interjections`; what one seat may see is `observation` (one place decides); `record` is the
replayable game record.
"""

from __future__ import annotations

import random
from typing import Any, Final, Protocol

CHANCE: Final = -1
"""`current_player()` at a chance node."""
TERMINAL: Final = -4
"""`current_player()` once the game is over."""


class GameState(Protocol):
    """A game in progress: mutable, cheap to clone."""

    def current_player(self) -> int: ...

    def legal_actions(self) -> list[int]: ...

    def apply_action(self, action: int, seat: int | None = None) -> None: ...

    def chance_outcomes(self) -> list[tuple[int, float]]: ...

    def sample_chance(self, rng: random.Random) -> None: ...

    def interjections(self) -> list[tuple[int, int]]: ...

    def observation(self, seat: int | None) -> dict[str, Any]: ...

    def record(self) -> str: ...

    def is_terminal(self) -> bool: ...

    def clone(self) -> GameState: ...
