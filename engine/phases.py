"""What a game is waiting for, in every ruleset: its phases, their words, and the one `Step`.

A phase is a name ("play", "colour", "tinker_bell" ...), written once here and in one table of
words (`PHASE_WORDS`), read by every ruleset: the Disney family's hand, whose phases are small
ints for its hot path (`PHASE_NAMES[phase]` is the name), and UNO Elite, whose phases are the
names themselves (`engine.elite.steps`). The pending work of both is one queue of `Step`s.

The Disney family's players' phases come first, then the chance phases (TINKER..SHUFFLE), then
OVER, so that `phase >= TINKER` reads "no player moves now" in one comparison on the hot path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from engine.elite.cards import EliteCard, Power
    from engine.elite.uno import UnoCard

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

PHASE_WORDS: Final[dict[str, str]] = {
    # a player's decision; `{power}`: what asks for it (a card, an Elite power), or nothing
    "play": "play a card (or draw)",
    "play_drawn": "play the card just drawn, or keep it",
    "colour": "name the colour that continues play",
    "target": "choose the player for {power}",
    "protect": "protect with a card of Tinker Bell's colour",
    "discard": "choose a card to discard ({power})",
    "respond": "take the cards, challenge or stack",
    "flip": "turn over the top card of the draw pile (Vegas)",
    "recover": "choose a card to recover",
    "activate": "activate an Elite Action Card of the colour played, or not",
    "keep": "every card matches: choose the one to keep",
    "search": "leave the searched card on top, or put it at the bottom",
    "substitute": "choose an Elite Action Card to take back into the Lineup",
    "draft": "draft an Elite Action Card",
    # chance: what is awaited
    "tinker_bell": "Tinker Bell's pick",
    "reshuffle": "the reshuffle",
    "shuffle_hands": "the hands to be shuffled and dealt again",
    "deal": "the deal",
    "elite_shuffle": "the Elite Action Cards' shuffle",
    "player_decks": "the Player Decks",
    "new_hand": "the next deal",
    "over": "nothing: the game is over",
}
"""Every phase of every ruleset in words: the one table (prompts, refusals, the log)."""

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
"""The Disney family's phases by number: their names in `PHASE_WORDS`."""


def phase_words(name: str, power: str = "") -> str:
    """What the phase `name` waits for, in words (`power`: what asks for it)."""
    return PHASE_WORDS[name].format(power=power)


class Step:
    """One piece of pending work in a game's queue, in every ruleset: what happens next, in
    order. A step never changes once queued (a step with less to do replaces it), so a clone
    shares its steps (and so does a copy: `__copy__`, `__deepcopy__`; a compiled class's fields
    cannot be set again, as `copy` would).

    In the Disney family (`Hand.steps`) draws owed are dealt as soon as the DRAW pile allows;
    the other steps wait at the head of the queue for the player or the chance event they name,
    so one card's effect (a Villain Draw 4: its challenge, then each player's protection or four
    cards, then the turn passing on) reads as the steps it queues (`engine.effects`). In UNO
    Elite (`engine.elite.steps`) the head of the queue is the decision being waited for, and an
    activated power becomes steps of its own."""

    kind: Final[str]  # what the step is (`STEP_NAMES`, `engine.elite.steps`)
    seat: Final[int]  # the player it is for: a position in a Disney hand, a seat in Elite
    count: Final[int]  # cards to draw, discard or recover; turns to pass on
    power: Final[Power | None]  # (Elite) the power being resolved
    optional: Final[bool]  # (Elite) the player may stop early ("up to")
    colour: Final[str | None]  # (Elite) the colour the power was activated in
    subject: Final[int]  # the other seat it is about (Elite); the phase resumed (a reshuffle)
    card: Final[EliteCard | None]  # (Elite) the Elite card being retired
    drawn: Final[UnoCard | None]  # (Elite) the card just drawn, which may be played
    extra: Final[tuple[int, ...]]  # (Elite) seats a discard also concerns

    __slots__ = (
        "card", "colour", "count", "drawn", "extra", "kind", "optional", "power", "seat", "subject"
    )  # fmt: skip

    def __init__(
        self,
        kind: str,
        seat: int,
        count: int = 1,
        *,
        power: Power | None = None,
        optional: bool = False,
        colour: str | None = None,
        subject: int = -1,
        card: EliteCard | None = None,
        drawn: UnoCard | None = None,
        extra: tuple[int, ...] = (),
    ) -> None:
        self.kind = kind
        self.seat = seat
        self.count = count
        self.power = power
        self.optional = optional
        self.colour = colour
        self.subject = subject
        self.card = card
        self.drawn = drawn
        self.extra = extra

    def less(self) -> Step:
        """The same step with one fewer to do."""
        return Step(
            self.kind,
            self.seat,
            self.count - 1,
            power=self.power,
            optional=self.optional,
            colour=self.colour,
            subject=self.subject,
            card=self.card,
            drawn=self.drawn,
            extra=self.extra,
        )

    def __copy__(self) -> Step:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Step:
        return self

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Step) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def _fields(self) -> tuple[object, ...]:
        return (
            self.kind,
            self.seat,
            self.count,
            self.power,
            self.optional,
            self.colour,
            self.subject,
            self.card,
            self.drawn,
            self.extra,
        )

    def __repr__(self) -> str:
        return f"Step({self.kind}, {self.seat}, {self.count})"


# The Disney family's steps
OWED: Final = "owed"  # `seat` draws `count` cards, dealt at once while the DRAW pile allows
AFTER_RESHUFFLE: Final = "after_reshuffle"  # the reshuffle is awaited; then phase `subject`
PENALTY: Final = "penalty"  # a draw card's `count` cards, while `seat` may take, challenge, stack
CHALLENGE_WINDOW: Final = "challenge_window"  # `seat`'s Villain Draw 4 may be challenged
PROTECTION: Final = "protection"  # Villain Draw 4: `seat` lays Tinker Bell's colour, or draws
VILLAIN_DONE: Final = "villain_done"  # Villain Draw 4 resolved: the turn passes `count` on
STEP_NAMES: Final = (OWED, AFTER_RESHUFFLE, PENALTY, CHALLENGE_WINDOW, PROTECTION, VILLAIN_DONE)
