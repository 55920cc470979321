"""What an Elite game is waiting for: a queue of steps, the first of which is now.

A turn is a `turn` step; playing a card replaces it with what the card asks (name a colour,
recover, activate), each activated power becomes steps of its own, and `end_turn` passes play
on. A step in `CHOICES` waits for a player's action (its kind is the phase); any other step
the engine applies by itself (`engine.elite.flow`). The steps are the core's
(`engine.phases.Step`, its `seat` a seat); what only UNO Elite says of one (the power being
resolved, the card being retired ...) is its `Detail`, made by `step` and read by `detail`.
"""

from __future__ import annotations

from typing import Final

from engine.elite.cards import EliteCard, Power
from engine.elite.uno import UnoCard
from engine.phases import OVER, OVER_WORDS, Step

__all__ = ["Detail", "Step", "detail", "step"]

# the decisions (the names the Disney family gives the same decisions, so that a display reads
# both alike)
TURN: Final = "play"
DRAWN: Final = "play_drawn"
COLOUR: Final = "colour"
TARGET: Final = "target"
DISCARD: Final = "discard"
RECOVER: Final = "recover"
ACTIVATE: Final = "activate"
KEEP: Final = "keep"
SEARCH: Final = "search"
SUBSTITUTE: Final = "substitute"
DRAFT: Final = "draft"
CHOICES: Final = frozenset(
    {TURN, DRAWN, COLOUR, RECOVER, ACTIVATE, TARGET, DISCARD, KEEP, SEARCH, SUBSTITUTE, DRAFT}
)

# steps the engine applies itself
POWER: Final = "power"  # expand one power of the activated card into steps
EFFECT: Final = "effect"  # one power on one subject
RETIRE: Final = "retire"  # the activated card goes to its player's Elite discard pile
END_TURN: Final = "end_turn"

# phases with no step: chance and the end
DEAL: Final = "deal"
ELITE_SHUFFLE: Final = "elite_shuffle"
PLAYER_DECKS: Final = "player_decks"
RESHUFFLE: Final = "reshuffle"
CHANCE_PHASES: Final = frozenset({DEAL, ELITE_SHUFFLE, PLAYER_DECKS, RESHUFFLE})

WORDS: Final[dict[str, str]] = {
    # a player's decision; `{power}`: the Elite power that asks for it, or nothing
    TURN: "play a card (or draw)",
    DRAWN: "play the card just drawn, or keep it",
    COLOUR: "name the colour that continues play",
    TARGET: "choose the player for {power}",
    DISCARD: "choose a card to discard ({power})",
    RECOVER: "choose a card to recover",
    ACTIVATE: "activate an Elite Action Card of the colour played, or not",
    KEEP: "every card matches: choose the one to keep",
    SEARCH: "leave the searched card on top, or put it at the bottom",
    SUBSTITUTE: "choose an Elite Action Card to take back into the Lineup",
    DRAFT: "draft an Elite Action Card",
    # chance: what is awaited
    DEAL: "the deal",
    ELITE_SHUFFLE: "the Elite Action Cards' shuffle",
    PLAYER_DECKS: "the Player Decks",
    RESHUFFLE: "the reshuffle",
    OVER: OVER_WORDS,
}
"""Every phase of UNO Elite in words: the one table (prompts, refusals)."""


def phase_words(name: str, power: str = "") -> str:
    """What the phase `name` waits for, in words (`power`: the power that asks for it)."""
    return WORDS[name].format(power=power)


class Detail:
    """What only UNO Elite says of a step (`Step.detail`): the power being resolved, whether
    its player may stop early, the colour it was activated in, the Elite card being retired, the
    card just drawn, the other seats a discard concerns."""

    power: Final[Power | None]  # the power being resolved
    optional: Final[bool]  # the player may stop early ("up to")
    colour: Final[str | None]  # the colour the power was activated in
    card: Final[EliteCard | None]  # the Elite card being retired
    drawn: Final[UnoCard | None]  # the card just drawn, which may be played
    extra: Final[tuple[int, ...]]  # the seats a discard also concerns

    __slots__ = ("card", "colour", "drawn", "extra", "optional", "power")

    def __init__(
        self,
        power: Power | None = None,
        optional: bool = False,
        colour: str | None = None,
        card: EliteCard | None = None,
        drawn: UnoCard | None = None,
        extra: tuple[int, ...] = (),
    ) -> None:
        self.power = power
        self.optional = optional
        self.colour = colour
        self.card = card
        self.drawn = drawn
        self.extra = extra

    def _fields(self) -> tuple[object, ...]:
        return (self.power, self.optional, self.colour, self.card, self.drawn, self.extra)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Detail) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return f"Detail{self._fields()}"


NO_DETAIL: Final = Detail()
"""The detail of a step that needs none (its `Step.detail` is None)."""


def step(
    kind: str,
    seat: int,
    count: int = 1,
    *,
    subject: int = -1,
    power: Power | None = None,
    optional: bool = False,
    colour: str | None = None,
    card: EliteCard | None = None,
    drawn: UnoCard | None = None,
    extra: tuple[int, ...] = (),
) -> Step:
    """An Elite step: the core's fields, and UNO Elite's own in its detail (None if all unset,
    so that equal steps compare equal)."""
    unset = power is None and colour is None and card is None and drawn is None
    if unset and not optional and not extra:  # (no Detail made only to be compared, then lost)
        return Step(kind, seat, count, subject=subject)
    more = Detail(power, optional, colour, card, drawn, extra)
    return Step(kind, seat, count, subject=subject, detail=more)


def detail(of: Step) -> Detail:
    """UNO Elite's detail of the step `of` (`NO_DETAIL` if it has none)."""
    more = of.detail
    return more if isinstance(more, Detail) else NO_DETAIL
