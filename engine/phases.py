"""What a game is waiting for, in every ruleset: the one `Step` and its kinds (`StepKind`).

The pending work of a game is one queue of `Step`s, and the head of the queue is the decision
being waited for: a step whose kind names the phase, whose seat is whose move it is, and whose
other fields say what the decision is about. The core knows no ruleset's phases: each ruleset
names its kinds, and words them, in its own modules (the Disney family's `engine.disney.steps`, UNO
Elite's `engine.elite.steps`); the core keeps only the end (`OVER`), which every game has.

A kind of step is either a decision (`StepKind`: a player is asked) or work (`Work`: nobody is
asked), and one runner (`run`) applies the work at the head of a queue, in order, until a
decision, chance or the end is at its head, for every ruleset.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Generic, TypeVar

OVER: Final = "over"
"""The phase of a game that is over, in every ruleset."""
OVER_WORDS: Final = "nothing: the game is over"


class Step:
    """One piece of pending work in a game's queue, in every ruleset: what happens next, in
    order. A step never changes once queued (a step with less to do replaces it), so a clone
    shares its steps (and so does a copy: `__copy__`, `__deepcopy__`; a compiled class's fields
    cannot be set again, as `copy` would).

    The head of the queue is the decision being waited for (whose move it is, what it is
    about), or a chance event, or the end; behind it, the work still to do. The fields every
    ruleset reads are the core's; what only one ruleset needs is its `detail`, an object of
    the ruleset's own (frozen, compared by value; None when there is nothing more to say), which
    the core never reads.

    `seat` is the player the step is for, numbered as the state that holds the queue numbers
    its players: its `current_player` before any renumbering at the game's edge (UNO Elite's
    state counts seats; a Disney hand counts positions in order of play, and `Game` turns
    one into a table seat through `HandState.seats`, once, where it answers the protocol)."""

    kind: Final[str]  # what the step is: a ruleset's kind (a decision, chance, work) or OVER
    seat: Final[int]  # the player it is for, as the state holding the queue numbers players
    count: Final[int]  # cards to draw, discard or recover; turns to pass on
    subject: Final[int]  # the other player it is about (whose card is resolved ...), or -1
    item: Final[int]  # the card it is about (the one that called for it, or just drawn), or -1
    detail: Final[object]  # the ruleset's own: what only it needs (None: nothing)

    __slots__ = ("count", "detail", "item", "kind", "seat", "subject")

    def __init__(
        self,
        kind: str,
        seat: int,
        count: int = 1,
        *,
        subject: int = -1,
        item: int = -1,
        detail: object = None,
    ) -> None:
        self.kind = kind
        self.seat = seat
        self.count = count
        self.subject = subject
        self.item = item
        self.detail = detail

    def less(self) -> Step:
        """The same step with one fewer to do."""
        return Step(
            self.kind,
            self.seat,
            self.count - 1,
            subject=self.subject,
            item=self.item,
            detail=self.detail,
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
        return (self.kind, self.seat, self.count, self.subject, self.item, self.detail)

    def __repr__(self) -> str:
        return f"Step({self.kind}, {self.seat}, {self.count})"


State = TypeVar("State")


class StepKind(Generic[State]):
    """One kind of decision, in one place: what may be done while it is awaited (`legal`: the
    actions of the step's player), what an action then does (`apply`), and its words (`words`,
    `{power}` standing for what asks for it). Each ruleset declares its kinds, with their words,
    in its own table (`engine.disney.listing.STEP_KINDS`, `engine.elite.kinds.STEP_KINDS`)."""

    name: Final[str]
    template: Final[str]
    legal: Callable[[State, Step], list[int]]
    apply: Callable[[State, Step, int], None]

    __slots__ = ("apply", "legal", "name", "template")

    def __init__(
        self,
        name: str,
        words: str,
        legal: Callable[[State, Step], list[int]],
        apply: Callable[[State, Step, int], None],
    ) -> None:
        if not words:
            raise ValueError(f"the step kind {name!r} has no words")
        self.name = name
        self.template = words
        self.legal = legal
        self.apply = apply

    def words(self, power: str = "") -> str:
        """What the step waits for, in words (`power`: what asks for it)."""
        return self.template.format(power=power)


class Work(Generic[State]):
    """One kind of automatic step: nobody is asked, the runner (`run`) applies it. `apply` takes
    the step off the queue, or puts what it becomes in its place, and says True; or, if the
    step must wait (a player must answer first, or chance), leaves it and says False."""

    name: Final[str]
    apply: Callable[[State, Step], bool]

    __slots__ = ("apply", "name")

    def __init__(self, name: str, apply: Callable[[State, Step], bool]) -> None:
        self.name = name
        self.apply = apply


def run(
    state: State,
    queue: list[Step],
    work: dict[str, Work[State]],
    ready: Callable[[State], bool] | None = None,
) -> Step | None:
    """The one queue runner: apply the work at the head of `queue` (the state's own list, changed
    in place), step after step, until the head is a decision, chance or the end (a kind that is
    not in `work`) or work that must wait; that head is returned. None: the queue is empty, or
    `ready` (asked before every step) said the state must first wait for something the queue
    does not hold (UNO Elite: the reshuffle that owed draws need; a hand emptied). `work` is a
    dict, not any Mapping: a compiled engine looks a dict up natively, a Mapping through
    Python's `get` (a third of the runner's time)."""
    while queue:
        if ready is not None and not ready(state):
            return None
        step = queue[0]
        kind = work.get(step.kind)
        if kind is None or not kind.apply(state, step):
            return step
    return None
