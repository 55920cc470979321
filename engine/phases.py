"""What a hand is waiting for: a player's move of some kind, a chance event, or nothing (over).

Players' phases come first, then the chance phases (TINKER..SHUFFLE), then OVER, so that
`phase >= TINKER` reads "no player moves now" in one comparison on the hot path.
"""

from __future__ import annotations

from typing import Final

PLAY: Final = 0  # play a card or draw
PLAY_DRAWN: Final = 1  # play the card just drawn, or keep it
COLOUR: Final = 2  # name the colour of a Wild turned up as the first discard
TARGET: Final = 3  # choose a player (Draw 2 matched by Tinker Bell, swap hands)
PROTECT: Final = 4  # lay a Pixie Dust Protection card (Villain Draw 4)
DISCARD: Final = 5  # discard cards of Tinker Bell's colour (Wild Discard All)
RESPOND: Final = 6  # take the cards, challenge or stack (classic draw cards)
FLIP: Final = 7  # Vegas: turn over the top card of the draw pile
TINKER: Final = 8  # chance: Tinker Bell's pick
RESHUFFLE: Final = 9  # chance: the discard pile shuffled into a new draw pile
SHUFFLE: Final = 10  # chance: Wild Shuffle Hands deals every held card again
OVER: Final = 11

PHASE_NAMES: Final = (
    "play",
    "play_drawn",
    "colour",
    "target",
    "protect",
    "discard",
    "respond",
    "flip",
    "tinker_bell",
    "reshuffle",
    "shuffle_hands",
    "over",
)


class Step:
    """One piece of pending work in a hand's queue (`Hand.steps`): what happens next, after the
    move being made, in order. Draws owed are dealt as soon as the DRAW pile allows; the other
    steps wait at the head of the queue for the player or the chance event they name, so one
    card's effect (a Villain Draw 4: its challenge, then each player's protection or four cards,
    then the turn passing on) reads as the steps it queues (`engine.effects`)."""

    __slots__ = ("count", "kind", "who")

    def __init__(self, kind: int, who: int, count: int = 0) -> None:
        self.kind = kind
        self.who = who  # a position (a phase, for AFTER_RESHUFFLE)
        self.count = count

    def copy(self) -> Step:
        return Step(self.kind, self.who, self.count)

    def __repr__(self) -> str:
        return f"Step({STEP_NAMES[self.kind]}, {self.who}, {self.count})"


OWED: Final = 0  # `who` draws `count` cards, dealt at once while the DRAW pile allows
AFTER_RESHUFFLE: Final = 1  # the reshuffle is awaited; then the hand goes back to phase `who`
PENALTY: Final = 2  # a draw card's `count` cards, while `who` may take, challenge or stack them
CHALLENGE_WINDOW: Final = 3  # `who`'s Villain Draw 4 may be challenged until Tinker Bell picks
PROTECTION: Final = 4  # Villain Draw 4: `who` lays Tinker Bell's colour, or draws `count`
VILLAIN_DONE: Final = 5  # Villain Draw 4 resolved: the turn passes `count` on from `who`
STEP_NAMES: Final = (
    "owed",
    "after_reshuffle",
    "penalty",
    "challenge_window",
    "protection",
    "villain_done",
)
