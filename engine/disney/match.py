"""A whole Disney-family game as the modules that read one know it: `Match`.

`engine.disney.game.Game` is the one match there is, and it offers the protocol's readers of a
game as its own methods: its observation, what it waits for and its summary
(`engine.disney.observer`), its judgement and imagined worlds (`engine.disney.hints`, with the
greedy choice of `engine.disney.greedy`) and its orders of cards (`engine.disney.deckchance`).
So these cannot import `Game`: they read it through this structural type, which names what they
read of it and nothing else, as UNO Elite's judgement reads its game (`engine.elite.hints.World`).
mypy holds `Game` to it wherever `Game` hands itself to one of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, Self

from engine.disney.eventnotes import Notes
from engine.disney.hand import Hand
from engine.disney.rulesets import Ruleset
from engine.disney.scoring import Sheet
from engine.protocol import GameState


class Match(GameState, Protocol):
    """A Disney game (`Game`): the protocol, and the match a reader of it reads."""

    rules: Ruleset
    options: dict[str, Any]
    """The table's options, resolved (every option named)."""
    deck: tuple[int, ...]
    """The cards this table deals from."""
    hand: Hand | None
    """The hand being played (or just finished); None before the first deal."""
    hand_no: int
    dealer: int
    sheet: Sheet
    history: list[dict[str, Any]]
    """Each hand scored so far, oldest first (`Game._finish_hand`)."""
    ordered: list[int]
    """The pending order of cards placed so far one card at a time, top first."""

    @property
    def notes(self) -> Notes:
        """What each recorded event did that it does not say (`engine.disney.eventnotes`)."""
        ...

    def dealt(self) -> Hand:
        """The hand being played (or just finished); RuleError before the first deal."""
        ...

    def awaiting(self) -> dict[str, Any]: ...

    def forget_record(self) -> None: ...

    def start_hand(self, deck: Sequence[int], check: bool = True) -> None: ...

    def apply_reshuffle(self, order: Sequence[int]) -> None: ...

    def apply_shuffle_hands(self, order: Sequence[int]) -> None: ...

    def clone(self) -> Self: ...
