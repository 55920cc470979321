"""One hand of UNO under a ruleset: dealt, its moves listed and applied, its queue run.

The state is mutable for speed (a simulation applies millions of actions), but every action is
checked completely before anything changes, so a refused action leaves the state exactly as it
was. Cards are small ints (`disney.cards`), players are positions 0..n-1 in seat order, and the
seat numbers of the game record appear only at the edges (TARGET, CATCH and `seats`).

Where to look: the state and the changes every rule shares, `disney.handstate`; what may be done
now, `engine.disney.listing` (an action is allowed if and only if `legal_actions()` or
`interjections()` lists it); why anything else is refused, `disney.checks` (afterwards, naming
the rule broken); what a card does, `engine.disney.effects`; what the options make of the cards,
`disney.variant`; how an action int reads, `disney.actions.decode`; what each kind of decision
does with its action, `engine.disney.moves` (each kind's entry: `listing.STEP_KINDS`). This module
deals a hand, applies an action to the decision at the head of the queue (`step`) and runs the
work queued behind it (`steps`, `_run_steps`). What the rules leave to a table is decided in
docs/RULES-MAP.md, which names the option, the sentence of the rule book and the test for each
choice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from engine.disney import actions as A
from engine.disney import cards as C
from engine.disney import checks, effects, listing, moves, notation
from engine.disney.actions import Decoded, Kind
from engine.disney.handstate import HandState
from engine.disney.listing import STEP_KINDS
from engine.disney.rulesets import Ruleset
from engine.disney.stats import HandStats
from engine.disney.steps import (
    COLOUR,
    DISCARD,
    FLIP,
    NOBODY_MOVES,
    OWED,
    PHASE_NAMES,
    PLAY,
    PLAY_AT,
    PLAY_DRAWN,
    PROTECT,
    PROTECTION,
    RESHUFFLE,
    RESPOND,
    SHUFFLE,
    TARGET,
    TINKER,
    VILLAIN_DONE,
    reneged_in,
)
from engine.disney.variant import RenegeTest, Stacking, variant_of
from engine.errors import RuleError
from engine.phases import OVER, Step, Work
from engine.phases import run as run_queue

__all__ = [
    "COLOUR",
    "DISCARD",
    "FLIP",
    "OVER",
    "PHASE_NAMES",
    "PLAY",
    "PLAY_DRAWN",
    "PROTECT",
    "RESHUFFLE",
    "RESPOND",
    "SHUFFLE",
    "TARGET",
    "TINKER",
    "Hand",
    "RenegeTest",
    "RuleError",
    "Stacking",
]

_COLOUR_OF: Final = C.COLOUR_OF
# The kinds the one apply path tests, as this module's constants: a member of an enum is looked
# up through its class's metaclass at every use (unspecialised by Python 3.11, a Python lookup
# when compiled), a module's constant is not.
_PICK: Final = Kind.PICK
_SLAP: Final = Kind.SLAP
_CHALLENGE: Final = Kind.CHALLENGE
_MISPLAY: Final = Kind.MISPLAY
_UNO: Final = Kind.UNO
_PLAY: Final = Kind.PLAY
_OUT_OF_TURN: Final = frozenset({_UNO, _CHALLENGE, Kind.CATCH, _SLAP})
_DISCARDING: Final = frozenset({Kind.DISCARD, Kind.DONE})  # one record event for them all


class Hand(HandState):
    """A hand under its rules: dealt, listing its moves (`engine.disney.listing`) and applying them
    (`step`: the move of the decision waited for, `engine.disney.moves`), running its queue of steps
    (`_run_steps`). Its state is `HandState`'s (the one declaration of its fields)."""

    __slots__ = ()

    # ------------------------------------------------------------------ setting up
    @classmethod
    def deal(
        cls,
        rules: Ruleset,
        opts: Mapping[str, Any],
        seats: Sequence[int],
        dealer: int,
        deck: Sequence[int],
        names: Sequence[str] | None = None,
    ) -> Hand:
        """Deal `deck` (top card first) to `seats`, `dealer` being a position in `seats`.

        "Each player is dealt 7 cards": one at a time, starting to the dealer's left. The next
        card is turned up; a card the ruleset sends back goes under the deck.
        """
        h = cls()
        n = len(seats)
        h.variant = variant_of(rules, opts)
        h.num_players = n
        h.seats = tuple(seats)
        h.pos_of = {s: p for p, s in enumerate(seats)}
        h.names = tuple(names) if names else tuple(f"seat {s}" for s in seats)
        h.uncalled = []
        size = rules.hand_size
        if len(deck) <= size * n:
            raise RuleError("dealing", f"{len(deck)} cards are too few to deal {size} to {n}")
        # one card at a time from the dealer's left: card i to position (dealer + 1 + i) % n
        dealt = size * n
        h.hands = [list(deck[(p - dealer - 1) % n : dealt : n]) for p in range(n)]
        top = deck[dealt]
        if top in rules.returned_first_discards:
            rest = _return_first_discards(rules, list(deck[dealt:]))
            top = rest.pop()
        else:
            rest = list(deck[:dealt:-1])  # reversed: pop() takes the top card
        h.draw, h.discard = rest, [top]
        h.deal_top = top
        h.colour = _COLOUR_OF[top]
        h.direction = 1
        h.head, h.steps = PLAY_AT[(dealer + 1) % n], []
        h.tinker_colour = h.winner = -1
        h.catchable = []
        h.blocked_turns = 0
        h.stats = HandStats()
        h.log = None  # (the game gives a recorded hand its record once dealt)
        h._first_discard(dealer, top)
        h._run_steps()
        return h

    def _first_discard(self, dealer: int, top: int) -> None:
        """What the card turned up does: its effect's first-discard rule, in the ruleset's
        registry of effect names (`Variant.turned_up`; a number card's is None, under every
        house rule: Seven-O's and 6-Smackdown's cards are "played" to do anything)."""
        how = self.variant.turned_up[top]
        n = self.num_players
        if how is None:
            return  # the player to the dealer's left plays first, on the card as it is
        if how == "colour":
            # "the person to the left of the dealer chooses the color ... and plays the first card"
            self.head = Step(COLOUR, (dealer + 1) % n)
        elif how == "reverse_right_of_dealer":
            # "the player to the right of the dealer plays first, and play then goes to the right"
            self.direction = -1
            self.head = PLAY_AT[(dealer - 1) % n]
        elif how == "reverse_dealer_first":
            # "The dealer plays first; the play proceeds counterclockwise"
            self.direction = -1
            self.head = PLAY_AT[dealer]
        elif how == "skip":
            # "the player to the left of the dealer is skipped"
            self.head = PLAY_AT[(dealer + 2) % n]
        elif how == "draw2":
            # "The player to the dealer's left draws two cards and misses a turn"
            self.owe((dealer + 1) % n, 2)
            self.head = PLAY_AT[(dealer + 2) % n]
        elif how == "tinker_bell":
            # "the player to the left of the dealer will hit the Tinker Bell Button"; the card
            # counts as the dealer's (see RULES-MAP: first-discard-draw2).
            self.head = Step(TINKER, (dealer + 1) % n, subject=dealer, item=top)
        else:
            raise ValueError(f"unknown first-discard rule {how!r} in {self.variant.rules.name}")

    def clone(self) -> Hand:
        """An independent copy (search and trial replays play on it; the variant, seats and
        names are shared, being never changed). Written out field by field: a clone generated
        from the fields costs the compiled build four times as much (docs/engine.md)."""
        h = Hand()
        h.variant, h.seats, h.pos_of, h.names = self.variant, self.seats, self.pos_of, self.names
        h.num_players = self.num_players
        h.hands = [list(x) for x in self.hands]
        h.draw, h.discard = list(self.draw), list(self.discard)
        h.deal_top, h.colour, h.direction = self.deal_top, self.colour, self.direction
        h.tinker_colour = self.tinker_colour
        h.head, h.steps = self.head, list(self.steps)  # (a step never changes: shared)
        h.catchable, h.uncalled = list(self.catchable), list(self.uncalled)
        h.blocked_turns = self.blocked_turns
        h.winner = self.winner
        h.stats = self.stats.copy()
        h.log = None  # a copy records nothing (trials, search): `Game.clone` gives it its own
        return h

    # ------------------------------------------------------------------ listing
    def legal_actions(self) -> list[int]:
        """Every action the player to move may take now (`engine.disney.listing.legal_actions`)."""
        return listing.legal_actions(self)

    def interjections(self) -> list[tuple[int, int]]:
        """(seat, action) pairs any player may take out of turn now (`engine.disney.listing`)."""
        return listing.interjections(self)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At Tinker Bell's pick, her four colours (`engine.disney.listing.chance_outcomes`)."""
        return listing.chance_outcomes(self)

    # ------------------------------------------------------------------ applying
    def apply(self, action: int, seat: int | None = None, listed: bool = False) -> None:
        """Apply one action by `seat` (default: the player to move): the one path every action
        takes, moves, calls out of turn and Tinker Bell's pick alike. An action is allowed if
        and only if it is listed: in `legal_actions()` for the player to move, in
        `interjections()` for a call out of turn (UNO, catch, a Villain Draw 4's challenge,
        Jump-In). Anything else raises the RuleError `engine.disney.checks` classifies, changing
        nothing; `listed` says the caller has just taken the action from those lists
        (`Game.apply_listed`), so they are not made again. The action is taken apart once,
        here: the checks, the move's event and its notes read that
        (`engine.disney.eventnotes.Log`, when the hand records)."""
        move = A.decode(action)
        kind = move.kind
        if kind == _PICK:
            self.apply_tinker_bell(move.colour)  # a chance outcome: its own checks
            return
        phase = self.head.kind
        if phase == OVER:
            raise RuleError("hand-over", "This hand is over: the next hand must be dealt first.")
        if kind == _SLAP and seat is None:
            seat = move.seat  # chance's outcome in the race: the hand it names, as its own
        interjected = (kind in _OUT_OF_TURN and not (kind == _CHALLENGE and phase == RESPOND)) or (
            seat is not None and seat != self.seats[self.head.seat]
        )
        if interjected:
            if seat is None:
                raise RuleError("who", "Say which seat calls, catches or challenges.")
            if not listed and (seat, action) not in self.interjections():
                raise checks.out_of_turn(self, seat, action, move)
        else:
            if phase in NOBODY_MOVES:
                raise RuleError(
                    "chance", f"Waiting for {self.waiting_for()}; nobody may play until then."
                )
            pos = self.head.seat
            if kind == _MISPLAY:  # a wrong card laid: not allowed, but a penalty's cause
                checks.misplay(self, pos, move)
            elif not listed and action not in listing.legal_actions(self):
                raise checks.refusal(self, pos, action, move)
            seat = self.seats[pos]
        log = self.log
        if log is None:
            self._take(action, move, seat, interjected)
            return
        before = list(map(len, self.hands))  # what the move did that its event does not say
        event = None if kind in _DISCARDING else notation.event_for(self, seat, move)
        self._take(action, move, seat, interjected)
        log.moved(self, seat, move, event, before)

    def _take(self, action: int, move: Decoded, seat: int, interjected: bool) -> None:
        """The action, found allowed, taken: a call out of turn, or the decision's move."""
        if interjected:
            self._interject(self.pos_of[seat], action, move)
        else:
            self.step(action)

    def step(self, action: int) -> None:
        """Apply one of `legal_actions()` for the player to move: the one place an action
        changes the hand (`apply` runs it once the action is found legal; simulations and bots
        call it with an action they took from `legal_actions()`). What it does is the move of
        the decision it answers (`listing.STEP_KINDS`), then the queue runs."""
        head = self.head
        kind = head.kind
        # The commonest decisions by native calls (a compiled engine calls a function from the
        # table as a Python object, boxing its arguments), the others by their entries.
        if kind == PLAY:
            moves.play(self, head, action)
        elif kind == PLAY_DRAWN:
            moves.play_drawn(self, head, action)
        elif kind == PROTECT:
            moves.protect(self, head, action)
        else:
            STEP_KINDS[kind].apply(self, head, action)
        if self.steps or not self.draw:
            self._run_steps()

    def _interject(self, pos: int, action: int, move: Decoded) -> None:
        kind = move.kind
        if kind == _UNO:  # a late call: nobody can catch them now
            if pos in self.uncalled:
                self.uncalled.remove(pos)
            if pos in self.catchable:
                self.catchable.remove(pos)
        elif kind == _CHALLENGE:
            window = self.challenge_window()
            assert window is not None  # (the challenge was listed: its window is open)
            self._close_challenge()
            if reneged_in(window):
                self.owe(window.seat, 4)  # "then they must draw 4 cards"
            else:
                self.owe(pos, 6)  # "if the challenger is wrong, then the challenger must draw 6"
        elif kind == _SLAP:  # 6-Smackdown: a hand on the 6
            effects.slapped(self, pos)
        elif kind == _PLAY:  # Jump-In: "Play then continues as if that player had just
            head = self.head  # taken their turn."
            self.head = Step(head.kind, pos, subject=head.subject, detail=head.detail)
            self.step(action)
            return
        else:  # a catch
            target = self.pos_of[move.seat]
            self.catchable.remove(target)
            self.owe(target, self.variant.uno_penalty)  # "you must pick TWO more cards" (Elvis: 5)
        if self.steps or not self.draw:
            self._run_steps()

    # ------------------------------------------------------------------ chance
    def apply_tinker_bell(self, colour: int) -> None:
        """Tinker Bell's pick, after a Draw 2, Wild Discard All or Villain Draw 4: what the
        colour does is the card's (`effects.after_tinker_bell`)."""
        if self.head.kind != TINKER:
            raise RuleError("tinker-bell", "Nobody has played a card that calls Tinker Bell.")
        if not 0 <= colour < 4:
            raise RuleError("tinker-bell", f"Tinker Bell picks one of four colours, not {colour}.")
        log = self.log
        before = None if log is None else list(map(len, self.hands))
        first = (self.head.subject + self.direction) % self.num_players  # after her caller
        self.tinker_colour = colour
        if self.steps:
            self._close_challenge()  # "Reneging": until Tinker Bell chooses
        effects.after_tinker_bell(self, colour)
        if self.steps or not self.draw:
            self._run_steps()
        if log is not None and before is not None:
            event = {"chance": "tinker_bell", "colour": C.COLOURS[colour]}
            log.chanced(event, self, before, first)

    def apply_reshuffle(self, order: Sequence[int]) -> None:
        """The discard pile but its top card, shuffled into a new DRAW pile (`order`: top first)."""
        if self.head.kind != RESHUFFLE:
            raise RuleError("reshuffle", "The DRAW pile is not empty: nothing to reshuffle.")
        pool = self.discard[:-1]
        if sorted(order) != sorted(pool):
            raise RuleError(
                "reshuffle",
                "A reshuffle must use exactly the cards under the top of the DISCARD pile.",
            )
        before = None if self.log is None else list(map(len, self.hands))
        steps = self.steps  # the draws owed first, in the order they are dealt
        first = steps[0].seat if steps and steps[0].kind == OWED else self.head.seat
        self.draw = list(reversed(order))
        self.discard = self.discard[-1:]
        self.release_head()  # the decision it interrupted, behind the draws owed
        self._run_steps()
        self._chanced("reshuffle", order, before, first)

    def apply_shuffle_hands(self, order: Sequence[int]) -> None:
        """Wild Shuffle Hands: every card held, shuffled (`order`, top first) and dealt one at a
        time "starting from the player to their left" until none is left."""
        if self.head.kind != SHUFFLE:
            raise RuleError("shuffle-hands", "Nobody has played a Wild Shuffle Hands.")
        if sorted(order) != sorted(self.shuffle_pool()):
            raise RuleError(
                "shuffle-hands", "Shuffling hands must deal exactly the cards the players held."
            )
        before = None if self.log is None else list(map(len, self.hands))
        n, actor = self.num_players, self.head.subject
        hands: list[list[int]] = [[] for _ in range(n)]
        for i, c in enumerate(order):
            hands[(actor + 1 + i) % n].append(c)
        self.hands = hands
        self.catchable.clear()  # a dealt hand owes no UNO call (RULES-MAP: shuffle-hands-uno)
        self.uncalled.clear()
        self.pass_turn(actor, 1)
        if self.steps or not self.draw:
            self._run_steps()
        self._chanced("shuffle_hands", order, before, (actor + self.direction) % n)

    def _chanced(
        self, kind: str, order: Sequence[int], before: list[int] | None, first: int
    ) -> None:
        """An order of cards taken: its one event into the record (`before`: each position's
        count before it, None when the hand does not record; `first`: the position whose
        draws are noted first, then in turn order)."""
        if self.log is not None and before is not None:
            self.log.chanced(notation.order_event(kind, list(order)), self, before, first)

    # ------------------------------------------------------------------ the queue
    def _run_steps(self) -> None:
        """Do the pending work that needs nobody: deal the draws owed, and a Villain Draw 4's
        protections and its end (`disney.effects`), until a step waits for a player or chance.
        When the DRAW pile runs out, wait for the reshuffle ("If no one is out of cards by the
        time the DRAW pile is depleted, reshuffle"). The core's one runner applies `WORK`; a
        penalty or a challenge window waits on the decision, and stops it."""
        head = run_queue(self, self.steps, WORK)
        if head is not None and head.kind == OWED:
            return  # the draws owed wait for the reshuffle (`_owed`)
        if not self.draw and len(self.discard) > 1 and self.head.kind != OVER:
            self._await_reshuffle()

    def _owed(self, step: Step) -> bool:
        """OWED, work: deal the cards `step` owes (`_took_cards` once); False while the rest
        waits for the reshuffle. (One method, not two: the runner calls it for every draw.)"""
        n, draw, steps = step.count, self.draw, self.steps
        if n and draw:
            held = self.hands[step.seat]
            while n and draw:
                held.append(draw.pop())
                n -= 1
            if self.catchable or self.uncalled:
                self._took_cards(step.seat)
        if not n:
            del steps[0]
        elif len(self.discard) > 1:
            if n != step.count:
                steps[0] = Step(OWED, step.seat, n)  # (the rest, after the reshuffle)
            self._await_reshuffle()
            return False
        else:  # every card is in a hand: nothing is left to draw, for anyone
            steps[:] = [s for s in steps if s.kind != OWED]
        return True

    def _await_reshuffle(self) -> None:
        """The reshuffle becomes the head of the queue: the decision it interrupts waits behind
        the draws owed (and keeps its seat: whose move it is, the reshuffle done)."""
        head = self.head
        if head.kind != RESHUFFLE:
            self.hold_head(Step(RESHUFFLE, head.seat))


WORK: Final[dict[str, Work[Hand]]] = {
    OWED: Work(OWED, Hand._owed),
    PROTECTION: Work(PROTECTION, effects.villain_step),
    VILLAIN_DONE: Work(VILLAIN_DONE, effects.villain_step),
}
"""The work a hand does by itself, by kind: draws owed, a Villain Draw 4's protections and its
end; the penalty and the challenge window wait on the decision (`engine.phases.run`)."""


def _return_first_discards(rules: Ruleset, rest: list[int]) -> list[int]:
    """The undealt cards after sending each card the ruleset refuses as the first discard under
    the deck, reversed (the first discard last, then the top of the DRAW pile)."""
    returned = rules.returned_first_discards
    turns = 0
    while rest[0] in returned:
        if turns >= len(rest):
            raise RuleError("first-discard", "every card left could not start the discard pile")
        rest.append(rest.pop(0))
        turns += 1
    rest.reverse()
    return rest
