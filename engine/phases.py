"""What a game is waiting for, in every ruleset: its phases, their words, and the one `Step`.

A phase is a name ("play", "colour", "tinker_bell" ...), written once here and in one table of
words (`PHASE_WORDS`), read by every ruleset. The pending work of every ruleset is one queue of
`Step`s, and the head of the queue is the decision being waited for: a step whose kind is the
phase's name, whose seat is whose move it is, and whose other fields say what the decision is
about (the card that called for it, the card just drawn, the player whose card is resolved).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, Generic, TypeVar

if TYPE_CHECKING:
    from engine.elite.cards import EliteCard, Power
    from engine.elite.uno import UnoCard

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
OVER: Final = "over"

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
    "smackdown": "every hand on the 6 (the last one draws 2)",
    "deal": "the deal",
    "elite_shuffle": "the Elite Action Cards' shuffle",
    "player_decks": "the Player Decks",
    "new_hand": "the next deal",
    "over": "nothing: the game is over",
}
"""Every phase of every ruleset in words: the one table (prompts, refusals, the log)."""

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
"""The Disney family's phases: the kinds of its decision steps (their words in `PHASE_WORDS`)."""
NOBODY_MOVES: Final = frozenset({TINKER, RESHUFFLE, SHUFFLE, SMACKDOWN, OVER})
"""The Disney family's phases in which no player moves in turn: chance, the end, and the
6-Smackdown race (every player's hand on the 6 is a call out of turn, or chance's)."""


def phase_words(name: str, power: str = "") -> str:
    """What the phase `name` waits for, in words (`power`: what asks for it)."""
    return PHASE_WORDS[name].format(power=power)


class Step:
    """One piece of pending work in a game's queue, in every ruleset: what happens next, in
    order. A step never changes once queued (a step with less to do replaces it), so a clone
    shares its steps (and so does a copy: `__copy__`, `__deepcopy__`; a compiled class's fields
    cannot be set again, as `copy` would).

    The head of the queue is the decision being waited for (its kind a phase of
    `PHASE_WORDS`: whose move it is, what it is about), or a chance event, or the end; behind
    it, the work still to do. In the Disney family the decision is `HandState.head` and the
    work behind it `Hand.steps`: draws owed there are dealt as soon as the DRAW pile allows,
    whatever the decision; the other work waits its turn, so one card's effect (a Villain Draw
    4: its challenge, then each player's protection or four cards, then the turn passing on)
    reads as the steps it queues (`engine.disney.effects`). In UNO Elite (`engine.elite.steps`) an
    activated power becomes steps of its own."""

    kind: Final[str]  # what the step is: a phase's name (a decision), or work (`STEP_NAMES`)
    seat: Final[int]  # the player it is for: a position in a Disney hand, a seat in Elite
    count: Final[int]  # cards to draw, discard or recover; turns to pass on
    power: Final[Power | None]  # (Elite) the power being resolved
    optional: Final[bool]  # (Elite) the player may stop early ("up to")
    colour: Final[str | None]  # (Elite) the colour the power was activated in
    subject: Final[int]  # the other seat it is about (Elite); whose card is resolved (Disney)
    card: Final[EliteCard | None]  # (Elite) the Elite card being retired
    drawn: Final[UnoCard | None]  # (Elite) the card just drawn, which may be played
    extra: Final[tuple[int, ...]]  # seats a discard also concerns (Elite); hands on the 6 (Disney)
    item: Final[int]  # (Disney) the card it is about: the one that called for it, or just drawn
    reneged: Final[bool]  # (Disney) would a challenge of the Draw 4 it is about succeed?

    __slots__ = (
        "card", "colour", "count", "drawn", "extra", "item", "kind", "optional", "power",
        "reneged", "seat", "subject",
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
        item: int = -1,
        reneged: bool = False,
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
        self.item = item
        self.reneged = reneged

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
            item=self.item,
            reneged=self.reneged,
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
            self.item,
            self.reneged,
        )

    def __repr__(self) -> str:
        return f"Step({self.kind}, {self.seat}, {self.count})"


State = TypeVar("State")


class StepKind(Generic[State]):
    """One kind of decision, in one place: what may be done while it is awaited (`legal`: the
    actions of the step's player), what an action then does (`apply`), and its words (the one
    table, `PHASE_WORDS`). Each ruleset registers its kinds by name in one table
    (`engine.disney.listing.STEP_KINDS`, `engine.elite.kinds.STEP_KINDS`)."""

    name: Final[str]
    legal: Callable[[State, Step], list[int]]
    apply: Callable[[State, Step, int], None]

    __slots__ = ("apply", "legal", "name")

    def __init__(
        self,
        name: str,
        legal: Callable[[State, Step], list[int]],
        apply: Callable[[State, Step, int], None],
    ) -> None:
        if name not in PHASE_WORDS:
            raise ValueError(f"the step kind {name!r} has no words in PHASE_WORDS")
        self.name = name
        self.legal = legal
        self.apply = apply

    def words(self, power: str = "") -> str:
        """What the step waits for, in words (`power`: what asks for it)."""
        return phase_words(self.name, power)


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
