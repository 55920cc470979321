"""What a hand of the Disney family is waiting for: its kinds of step, their words, and the
steps made once and shared.

A phase is a name ("play", "colour", "tinker_bell" ...), written once here with its words
(`WORDS`). The hand's queue is the core's (`engine.phases.Step`): its head, `HandState.head`,
the decision waited for; behind it, `Hand.steps`, the work still to do (`STEP_NAMES`). What
only this family says of a step (a Draw 4's challenge would succeed; the hands already on the
6) is its `Detail`.
"""

from __future__ import annotations

from typing import Final

from engine.phases import OVER, OVER_WORDS, Step

PLAY: Final = "play"  # play a card or draw
PLAY_DRAWN: Final = "play_drawn"  # play the card just drawn, or keep it
COLOUR: Final = "colour"  # name the colour of a Wild turned up as the first discard
TARGET: Final = "target"  # choose a player (Draw 2 matched by Tinker Bell, swap hands)
PROTECT: Final = "protect"  # lay a Pixie Dust Protection card (Villain Draw 4)
DISCARD: Final = "discard"  # discard cards of Tinker Bell's colour (Wild Discard All)
RESPOND: Final = "respond"  # take the cards, challenge or stack (classic draw cards)
FLIP: Final = "flip"  # Vegas: turn over the top card of the draw pile
TINKER: Final = "tinker_bell"  # chance: Tinker Bell's pick
RESHUFFLE: Final = "reshuffle"  # chance: the discard pile shuffled into a new draw pile
SHUFFLE: Final = "shuffle_hands"  # chance: Wild Shuffle Hands deals every held card again
SMACKDOWN: Final = "smackdown"  # 6-Smackdown: every player's hand on the 6, out of turn (a race)
NEW_HAND: Final = "new_hand"  # chance: a game between hands (`Game.chance_kind`), not a phase

WORDS: Final[dict[str, str]] = {
    # a player's decision; `{power}`: the card that asks for it, or nothing
    PLAY: "play a card (or draw)",
    PLAY_DRAWN: "play the card just drawn, or keep it",
    COLOUR: "name the colour that continues play",
    TARGET: "choose the player for {power}",
    PROTECT: "protect with a card of Tinker Bell's colour",
    DISCARD: "choose a card to discard ({power})",
    RESPOND: "take the cards, challenge or stack",
    FLIP: "turn over the top card of the draw pile (Vegas)",
    # chance: what is awaited
    TINKER: "Tinker Bell's pick",
    RESHUFFLE: "the reshuffle",
    SHUFFLE: "the hands to be shuffled and dealt again",
    SMACKDOWN: "every hand on the 6 (the last one draws 2)",
    NEW_HAND: "the next deal",
    OVER: OVER_WORDS,
}
"""Every phase of the Disney family in words: the one table (prompts, refusals, the log)."""

PHASE_NAMES: Final = (
    PLAY,
    PLAY_DRAWN,
    COLOUR,
    TARGET,
    PROTECT,
    DISCARD,
    RESPOND,
    FLIP,
    TINKER,
    RESHUFFLE,
    SHUFFLE,
    SMACKDOWN,
    OVER,
)
"""The Disney family's phases: the kinds of its decision steps (their words in `WORDS`)."""
NOBODY_MOVES: Final = frozenset({TINKER, RESHUFFLE, SHUFFLE, SMACKDOWN, OVER})
"""The Disney family's phases in which no player moves in turn: chance, the end, and the
6-Smackdown race (every player's hand on the 6 is a call out of turn, or chance's)."""


def phase_words(name: str, power: str = "") -> str:
    """What the phase `name` waits for, in words (`power`: the card that asks for it)."""
    return WORDS[name].format(power=power)


class Detail:
    """What only the Disney family says of a step (`Step.detail`): would a challenge of the
    Draw 4 the step is about succeed (RESPOND, CHALLENGE_WINDOW); the positions whose hand is
    already on the 6 (SMACKDOWN)."""

    reneged: Final[bool]
    on_the_six: Final[tuple[int, ...]]

    __slots__ = ("on_the_six", "reneged")

    def __init__(self, reneged: bool = False, on_the_six: tuple[int, ...] = ()) -> None:
        self.reneged = reneged
        self.on_the_six = on_the_six

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Detail)
            and self.reneged == other.reneged
            and self.on_the_six == other.on_the_six
        )

    def __hash__(self) -> int:
        return hash((self.reneged, self.on_the_six))

    def __repr__(self) -> str:
        return f"Detail(reneged={self.reneged}, on_the_six={self.on_the_six})"


RENEGED: Final = Detail(reneged=True)
"""The detail of a step about a Draw 4 whose challenge would succeed (made once, shared)."""


def renege_detail(reneged: bool) -> Detail | None:
    """The detail saying whether a challenge of the Draw 4 would succeed (None: it would not)."""
    return RENEGED if reneged else None


def reneged_in(step: Step) -> bool:
    """Would a challenge of the Draw 4 `step` is about succeed?"""
    detail = step.detail
    return isinstance(detail, Detail) and detail.reneged


def on_the_six(step: Step) -> tuple[int, ...]:
    """The positions whose hand is already on the 6, in the order they slapped (SMACKDOWN)."""
    detail = step.detail
    return detail.on_the_six if isinstance(detail, Detail) else ()


# The Disney family's work (its decisions are the phases above)
OWED: Final = "owed"  # `seat` draws `count` cards, dealt at once while the DRAW pile allows
PENALTY: Final = "penalty"  # a draw card's `count` cards, while `seat` may take, challenge, stack
CHALLENGE_WINDOW: Final = "challenge_window"  # `seat`'s Villain Draw 4 may be challenged
PROTECTION: Final = "protection"  # Villain Draw 4: `seat` lays Tinker Bell's colour, or draws
VILLAIN_DONE: Final = "villain_done"  # Villain Draw 4 resolved: the turn passes `count` on
STEP_NAMES: Final = (OWED, PENALTY, CHALLENGE_WINDOW, PROTECTION, VILLAIN_DONE)

MOST_SEATS: Final = 20
"""The most players a hand of the Disney family seats (classic's 20, with two decks): the shared
steps below are made for each position up to it (tests/engine/test_rules_classic.py holds every
ruleset's `max_players` to it)."""

# Steps made once and shared (a step never changes): making one costs pure Python about a
# microsecond, and a Disney hand makes dozens (docs/engine.md, "One step model").
PLAY_AT: Final = tuple(Step(PLAY, pos) for pos in range(MOST_SEATS))
"""The decision to play, for each position: almost every move hands the turn on to one."""
PROTECT_AT: Final = tuple(Step(PROTECT, pos, 4) for pos in range(MOST_SEATS))
"""A Villain Draw 4's protection, for each position: lay Tinker Bell's colour, or four cards."""
PROTECTION_AT: Final = tuple(Step(PROTECTION, pos, 4) for pos in range(MOST_SEATS))
"""The same, queued for each other player until their turn to protect comes."""
_DRAWN_MADE: Final[list[Step | None]] = [None] * (MOST_SEATS << 7)
_TINKER_MADE: Final[list[Step | None]] = [None] * (MOST_SEATS << 7)
_TARGET_MADE: Final[list[Step | None]] = [None] * (MOST_SEATS << 7)
_DISCARD_MADE: Final[list[Step | None]] = [None] * (MOST_SEATS << 7)


def about(kind: str, seat: int, card: int) -> Step:
    """The decision `kind` (PLAY_DRAWN, TINKER, TARGET or DISCARD) of `seat` about `card`, a card
    of theirs (the card just drawn; the one Tinker Bell answers, and whose target or discards
    it asks for): made the first time, then shared."""
    if kind == PLAY_DRAWN:  # (compared, not looked up: a compiled engine compares natively)
        made = _DRAWN_MADE
    elif kind == TINKER:
        made = _TINKER_MADE
    elif kind == TARGET:
        made = _TARGET_MADE
    else:
        made = _DISCARD_MADE
    key = seat << 7 | card
    step = made[key]
    if step is None:
        step = made[key] = Step(kind, seat, subject=seat, item=card)
    return step
