"""One hand's state: its fields, what may be read of them, and the changes every rule makes
(the turn passing on, cards owed, the queue of steps). The rules that list and apply the moves
are `disney.listing` and `disney.hand`; what each card does, `disney.effects`; why a move is
refused, `engine.disney.checks`: each reads and changes a hand through this class alone.
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from engine.disney import cards as C
from engine.disney.actions import Decoded
from engine.disney.stats import HandStats
from engine.disney.steps import (
    CHALLENGE_WINDOW,
    DISCARD,
    OWED,
    PENALTY,
    PLAY_AT,
    PLAY_DRAWN,
    PROTECT,
    RESPOND,
    TARGET,
    phase_words,
    renege_detail,
    reneged_in,
)
from engine.disney.variant import STACKABLE, Stacking, Variant
from engine.phases import OVER, Step

_MATCHING: Final = C.MATCHING
"""Cards that may be laid on a top card, by colour in play * 80 + the top card's rank."""
_RANK_OF: Final = C.RANK_OF


class Recorder(Protocol):
    """What a recording hand writes each move and chance event into (`HandState.log`): the
    record, `engine.disney.eventnotes.Log`, which reads hands, so this module names it only by
    what a hand asks of it."""

    def moved(
        self,
        hand: HandState,
        seat: int,
        move: Decoded,
        event: dict[str, Any] | None,
        before: list[int],
    ) -> None: ...

    def chanced(
        self, event: dict[str, Any], hand: HandState, before: list[int], first: int
    ) -> None: ...


class HandState:
    """A hand from the deal to the moment someone goes out (or nobody can move): the state."""

    # The state, field by field: the one declaration (`__slots__` is made from it;
    # tests/engine/test_hand_fields.py holds `clone`, the one other place that names every
    # field, to it). What the rules and the table's options make of every hand is shared, in
    # `variant`.
    variant: Variant  # the ruleset and options (immutable, shared by every hand at a table)
    seats: tuple[int, ...]  # the seat of each position (positions 0..n-1, in order of play)
    pos_of: dict[int, int]  # the position of each seat
    names: tuple[str, ...]  # each position's player
    num_players: int
    hands: list[list[int]]  # the cards each player holds, in the order received
    draw: list[int]  # the DRAW pile, its top card last
    discard: list[int]  # the DISCARD pile, its top card last
    deal_top: int  # the card first turned up
    colour: int  # the colour in play
    direction: int  # 1: to the left, -1: to the right
    tinker_colour: int  # Tinker Bell's last pick (-1 before any)
    head: Step  # the decision waited for: the head of the queue (`engine.phases.Step`)
    steps: list[Step]  # the work queued behind it, in order
    catchable: list[int]  # players who may be caught holding one card without calling UNO
    uncalled: list[int]  # (classic) players holding one card who never called UNO
    blocked_turns: int  # turns in a row with nothing to draw anywhere
    winner: int  # the position that went out (-1 until then)
    stats: HandStats  # what a simulation counts
    log: Recorder | None  # the record each move writes itself into (None: not recording, a copy)

    __slots__ = tuple(__annotations__)  # (pure Python; mypyc makes them from the annotations)

    # ------------------------------------------------------------------ the decision waited for
    # The head of the queue (`head`) is the decision: what follows are reads of it, never
    # fields of their own.
    @property
    def phase(self) -> str:
        """What the hand waits for: the kind of the step at the head of the queue."""
        return self.head.kind

    @property
    def to_move(self) -> int:
        """The position whose move it is (or who is protecting, discarding ...)."""
        return self.head.seat

    @property
    def actor(self) -> int:
        """The player whose card is being resolved (Tinker Bell, Vegas, a draw card)."""
        return self.head.subject

    @property
    def trigger(self) -> int:
        """The card the decision answers (the Draw 2, Villain Draw 4, swap card ...), or -1."""
        return self.head.item

    @property
    def drawn_card(self) -> int:
        """The card just drawn, while it may be played (-1 otherwise)."""
        head = self.head
        return head.item if head.kind == PLAY_DRAWN else -1

    @property
    def draw4_reneged(self) -> bool:
        """Would a challenge of the Draw 4 waiting to be challenged succeed? Kept by the step
        that waits for the challenge (the RESPOND decision, or a Villain Draw 4's window)."""
        if self.head.kind == RESPOND:
            return reneged_in(self.head)
        window = self.challenge_window()
        return window is not None and reneged_in(window)

    @draw4_reneged.setter
    def draw4_reneged(self, reneged: bool) -> None:
        """(An imagined world hides it: `engine.search`) The same step, saying `reneged`."""
        head, window = self.head, self.challenge_window()
        if head.kind == RESPOND:
            self.head = Step(
                RESPOND, head.seat, subject=head.subject, detail=renege_detail(reneged)
            )
        elif window is not None:
            i = self.steps.index(window)
            self.steps[i] = Step(CHALLENGE_WINDOW, window.seat, detail=renege_detail(reneged))

    def finish(self, winner: int) -> None:
        """The hand is over, won by `winner` (a position): only the draws owed are still dealt
        ("These cards are counted"); the rest of the queue is dropped (the end keeps the seat
        of the decision it ends)."""
        self.winner = winner
        self.head = Step(OVER, self.head.seat)
        steps = self.steps
        at = 0
        while at < len(steps) and steps[at].kind == OWED:
            at += 1
        del steps[at:]

    # ------------------------------------------------------------------ reading
    def is_over(self) -> bool:
        return self.head.kind == OVER

    def points_left(self, pos: int) -> int:
        points = self.variant.rules.points
        total = 0
        for card in self.hands[pos]:
            total += points[card]
        return total

    def playable(self, pos: int) -> list[int]:
        """Cards in `pos`'s hand that may be laid on the discard pile now."""
        matching = _MATCHING[self.colour * 80 + _RANK_OF[self.discard[-1]]]
        return [c for c in self.hands[pos] if c in matching]

    def all_cards(self) -> list[int]:
        return [c for h in self.hands for c in h] + self.draw + self.discard

    def reshuffle_pool(self) -> list[int]:
        return self.discard[:-1]

    def shuffle_pool(self) -> list[int]:
        return [c for held in self.hands for c in held]

    def waiting_for(self) -> str:
        """What the hand waits for, in words: its phase's (`engine.disney.steps.WORDS`)."""
        head = self.head
        phase = head.kind
        power = C.name(head.item) if phase in (TARGET, DISCARD) else ""
        words = phase_words(phase, power)
        if phase == PROTECT and self.variant.villain_may_take:
            words += " or take four cards"
        return words

    def stacks(self, card: int) -> bool:
        """May `card` be stacked on the draw card on top of the pile?"""
        if not self.variant.stacking:
            return False
        effect, top = self.variant.effect_of[card], self.discard[-1]
        if effect != self.variant.effect_of[top] and not (
            self.variant.stacking == Stacking.MIXED and effect in STACKABLE
        ):
            return False
        return card in _MATCHING[self.colour * 80 + _RANK_OF[top]]

    def silenced(self, pos: int) -> bool:
        """Classic: holding one card without having called UNO, so it may not be played."""
        return bool(self.uncalled) and pos in self.uncalled and len(self.hands[pos]) == 1

    def penalty(self) -> int:
        """The cards a draw card (or a stack of them) makes the next player take."""
        for step in self.steps:
            if step.kind == PENALTY:
                return step.count
        return 0

    def challengeable(self) -> bool:
        """May the Villain Draw 4 just played still be challenged?"""
        for step in self.steps:  # noqa: SIM110 (any(generator): a frame a call, in pure Python)
            if step.kind == CHALLENGE_WINDOW:
                return True
        return False

    def challenge_window(self) -> Step | None:
        """The Villain Draw 4's challenge window while it is open (its seat: who played it)."""
        for step in self.steps:
            if step.kind == CHALLENGE_WINDOW:
                return step
        return None

    # ------------------------------------------------------------------ changes the rules share
    def pass_turn(self, pos: int, steps: int) -> None:
        """The turn passes `steps` players on from `pos` (2: the next one is skipped)."""
        self.head = PLAY_AT[(pos + self.direction * steps) % self.num_players]

    def owe(self, pos: int, n: int) -> None:
        """`pos` must draw `n` cards: dealt at once, after any drawing still owed (whatever
        else is queued or awaited: draws owed never wait), or when the DRAW pile is reshuffled."""
        steps = self.steps
        at = 0
        while at < len(steps) and steps[at].kind == OWED:
            at += 1
        steps.insert(at, Step(OWED, pos, n))

    def hold_head(self, step: Step) -> None:
        """`step` becomes the head of the queue: the decision it interrupts waits behind the
        draws owed (the reshuffle, the 6-Smackdown race), until `release_head`."""
        steps = self.steps
        at = 0
        while at < len(steps) and steps[at].kind == OWED:
            at += 1
        steps.insert(at, self.head)
        self.head = step

    def release_head(self) -> None:
        """The decision `hold_head` interrupted is the head again (the draws owed before it stay
        first, to be dealt)."""
        steps = self.steps
        at = 0
        while steps[at].kind == OWED:
            at += 1
        self.head = steps.pop(at)

    def add_penalty(self, n: int, victim: int) -> None:
        steps = self.steps
        for i in range(len(steps)):
            if steps[i].kind == PENALTY:
                steps[i] = Step(PENALTY, victim, steps[i].count + n)
                return
        steps.append(Step(PENALTY, victim, n))

    def take_penalty(self) -> int:
        """The penalty's cards, its step removed (they are taken, challenged or go out)."""
        steps = self.steps
        for i in range(len(steps)):
            if steps[i].kind == PENALTY:
                return steps.pop(i).count
        return 0

    def _close_challenge(self) -> None:
        steps = self.steps
        for i in range(len(steps)):
            if steps[i].kind == CHALLENGE_WINDOW:
                del steps[i]
                return

    def swap_hands(self, a: int, b: int) -> None:
        hands = self.hands
        hands[a], hands[b] = hands[b], hands[a]
        self.catchable.clear()  # a received hand owes no UNO call (RULES-MAP: swap-uno)
        self.uncalled.clear()

    def _give(self, pos: int, card: int) -> None:
        self.hands[pos].append(card)
        self._took_cards(pos)

    def _took_cards(self, pos: int) -> None:
        """A player who takes cards no longer holds one: nobody can catch them, nor need they
        call UNO."""
        if self.catchable and pos in self.catchable:
            self.catchable.remove(pos)
        if self.uncalled and pos in self.uncalled:
            self.uncalled.remove(pos)
