"""One hand of UNO under a ruleset: its state, legal actions and chance nodes.

The state is mutable for speed (a simulation applies millions of actions), but every action is
checked completely before anything changes, so a refused action leaves the state exactly as it
was. Cards are small ints (`engine.cards`), players are positions 0..n-1 in seat order, and the
seat numbers of the game record appear only at the edges (TARGET, CATCH and `seats`).

Where to look: what a card does is in `engine.effects`; how an action int reads is
`engine.actions.decode`; an action is allowed if and only if `legal_actions()` lists it, and
`engine.checks` explains a refusal afterwards (one function per kind of action); this module
lists the legal actions and applies them (`step`: one method per kind of action), and runs the
pending work, one queue of steps (`steps`, `_run_steps`). What the rules leave to a table is
decided in
docs/RULES-MAP.md, which names the option, the sentence of the rule book and the test for each
choice.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from enum import IntEnum
from typing import Any, Final

from engine import actions as A
from engine import cards as C
from engine import checks, effects
from engine.actions import Kind
from engine.errors import RuleError
from engine.phases import (
    AFTER_RESHUFFLE,
    CHALLENGE_WINDOW,
    COLOUR,
    DISCARD,
    FLIP,
    OVER,
    OWED,
    PENALTY,
    PHASE_NAMES,
    PLAY,
    PLAY_DRAWN,
    PROTECT,
    PROTECTION,
    RESHUFFLE,
    RESPOND,
    SHUFFLE,
    TARGET,
    TINKER,
    VILLAIN_DONE,
    Step,
    phase_words,
)
from engine.rulesets import Ruleset
from engine.stats import HandStats

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
_RANK_OF: Final = C.RANK_OF
_KIND_OF: Final = A.KIND_OF
_PLAYED_CARD: Final = A.CARD_OF
_LAID_CARD: Final = A.CARD_OF
_NAMED_COLOUR: Final = A.COLOUR_NAMED
_UNO_SAID: Final = A.UNO_SAID
_DRAW4S: Final = (C.VILLAIN_DRAW4, C.WILD_DRAW4)
_DRAW: Final = A.DRAW
_PROTECT: Final = A.PROTECT
_DISCARD: Final = A.DISCARD
_OUT_OF_TURN: Final = frozenset({Kind.UNO, Kind.CHALLENGE, Kind.CATCH})


class RenegeTest(IntEnum):
    """Option `renege_test`: what makes a (Villain or Wild) Draw 4 challenge succeed."""

    COLOUR = 0  # its player held another card of the colour in play
    MATCHING = 1  # ... another card matching by colour, number or symbol
    PLAYABLE = 2  # ... any other card they could have played, wilds included


class Stacking(IntEnum):
    """Option `stacking` (Progressive UNO)."""

    NONE = 0
    SAME = 1  # Draw 2 on Draw 2, Wild Draw 4 on Wild Draw 4
    MIXED = 2  # also one on the other


class Hand:
    """A hand from the deal to the moment someone goes out (or nobody can move)."""

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
    phase: int  # what the hand waits for (`engine.phases`)
    to_move: int  # the position whose move it is (or who is protecting, discarding ...)
    actor: int  # the player whose card is being resolved (Tinker Bell, Vegas, stacks)
    trigger: int  # that card (the Draw 2, Villain Draw 4, swap card ...)
    tinker_colour: int  # Tinker Bell's last pick (-1 before any)
    steps: list[Step]  # the pending work, in order (`engine.phases.Step`)
    catchable: list[int]  # players who may be caught holding one card without calling UNO
    uncalled: list[int]  # (classic) players holding one card who never called UNO
    blocked_turns: int  # turns in a row with nothing to draw anywhere
    drawn_card: int  # the card just drawn, while it may be played
    draw4_reneged: bool  # would a challenge of the Draw 4 just played succeed?
    winner: int  # the position that went out (-1 until then)
    stats: HandStats  # what a simulation counts

    __slots__ = tuple(__annotations__)  # (pure Python; mypyc makes them from the annotations)

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
        h.phase = PLAY
        h.to_move = (dealer + 1) % n
        h.actor = dealer
        h.trigger = h.drawn_card = h.tinker_colour = h.winner = -1
        h.catchable, h.steps = [], []
        h.draw4_reneged = False
        h.blocked_turns = 0
        h.stats = HandStats()
        h._first_discard(dealer, top)
        h._run_steps()
        return h

    def _first_discard(self, dealer: int, top: int) -> None:
        """What the card turned up does, by the ruleset's first-discard table."""
        how = self.variant.rules.first_discard.get(self.variant.effect_of[top])
        n = self.num_players
        if how is None:
            return  # the player to the dealer's left plays first, on the card as it is
        if how == "colour":
            # "the person to the left of the dealer chooses the color ... and plays the first card"
            self.phase = COLOUR
        elif how == "reverse_right_of_dealer":
            # "the player to the right of the dealer plays first, and play then goes to the right"
            self.direction = -1
            self.to_move = (dealer - 1) % n
        elif how == "reverse_dealer_first":
            # "The dealer plays first; the play proceeds counterclockwise"
            self.direction = -1
            self.to_move = dealer
        elif how == "skip":
            # "the player to the left of the dealer is skipped"
            self.to_move = (dealer + 2) % n
        elif how == "draw2":
            # "The player to the dealer's left draws two cards and misses a turn"
            self.owe((dealer + 1) % n, 2)
            self.to_move = (dealer + 2) % n
        elif how == "tinker_bell":
            # "the player to the left of the dealer will hit the Tinker Bell Button"; the card
            # counts as the dealer's (see RULES-MAP: first-discard-draw2).
            self.phase = TINKER
            self.trigger = top
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
        h.phase, h.to_move, h.actor, h.trigger = self.phase, self.to_move, self.actor, self.trigger
        h.tinker_colour = self.tinker_colour
        h.steps = list(self.steps)  # (a step never changes: shared)
        h.catchable, h.uncalled = list(self.catchable), list(self.uncalled)
        h.blocked_turns = self.blocked_turns
        h.drawn_card, h.draw4_reneged = self.drawn_card, self.draw4_reneged
        h.winner = self.winner
        h.stats = self.stats.copy()
        return h

    # ------------------------------------------------------------------ reading
    def is_over(self) -> bool:
        return self.phase == OVER

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

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At Tinker Bell's pick: the four colours as PICK actions, equally likely (OpenSpiel's
        chance node; `apply` takes them). A hand takes a reshuffle or Wild Shuffle Hands as a whole
        order (`apply_reshuffle`, `apply_shuffle_hands`); `Game.chance_outcomes` lists those
        orders one card at a time (`engine.deckchance`)."""
        if self.phase != TINKER:
            return []
        return [(A.PICK + colour, 0.25) for colour in range(4)]

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[int]:
        """Every action the player to move may take now (empty at chance nodes and the end).

        PLAY, most decisions, is listed here without a further call: each card held that
        matches (a Wild naming each colour; with the UNO call as well, holding two), then DRAW
        when allowed. The other phases have a method each (`_LEGAL`)."""
        if self.phase != PLAY:
            return self._legal_other()
        hand = self.hands[self.to_move]
        # The cards that match, as a set filled in the hand's order: the order every seeded
        # game follows (a random bot picks by index).
        matches = _MATCHES[self.colour * 80 + _RANK_OF[self.discard[-1]]]
        found: list[int] = []
        for c in hand:  # (a loop: a comprehension costs Python 3.11 a frame a call)
            if matches[c]:
                found.append(c)
        playable: Collection[int] = set(found) if len(found) > 1 else found
        variant = self.variant
        if len(hand) == 2:
            acts: list[int] = []
            for c in playable:
                _variants(acts, c, True, variant.names_colour)
        else:
            acts = []
            black = False  # (a wild among them: then ask whether it names a colour)
            for c in playable:
                acts.append(c << 3)  # = actions.play(c), without the call
                black = black or c >= 64
            if black:
                for w in variant.colour_wilds:  # a Wild names a colour: four actions
                    if w in playable:
                        acts.remove(w << 3)
                        acts += _COLOUR_PLAYS[w]
            if self.uncalled and self.to_move in self.uncalled:
                acts = []  # "not allowed to discard his last card until he does so"
        if not acts or variant.draw_when_playable:
            acts.append(_DRAW)
        return acts

    def _legal_other(self) -> list[int]:
        """The legal actions of the phases other than PLAY."""
        phase = self.phase
        if phase in (PROTECT, DISCARD):  # (the commonest: native calls, not `_LEGAL`)
            return self._legal_lays()
        if phase == PLAY_DRAWN:
            return self._legal_after_drawing()
        if phase >= TINKER:
            return []
        return _LEGAL[phase](self)

    def _legal_responses(self) -> list[int]:
        hand = self.hands[self.to_move]
        acts: list[int] = []
        if self.variant.stacking and not (self.uncalled and self.to_move in self.uncalled):
            two = len(hand) == 2
            for c in set(hand):
                if self.stacks(c):
                    _variants(acts, c, two, self.variant.names_colour)
        acts.append(A.TAKE)
        if self.variant.effect_of[self.discard[-1]] == "wild_draw4":
            acts.append(A.CHALLENGE)
        return acts

    def _legal_after_drawing(self) -> list[int]:
        acts: list[int] = []
        two = len(self.hands[self.to_move]) == 2
        _variants(acts, self.drawn_card, two, self.variant.names_colour)
        if not self.variant.must_play_drawn:
            acts.append(A.PASS)
        return acts

    def _legal_lays(self) -> list[int]:
        """Protection or discards: the cards of Tinker Bell's colour, then TAKE or DONE."""
        protecting = self.phase == PROTECT
        base = A.PROTECT if protecting else A.DISCARD
        hand = self.hands[self.to_move]
        colour, two = self.tinker_colour, len(hand) == 2
        acts = []
        found: list[int] = []
        for c in hand:  # (a loop, as in `legal_actions`)
            if _COLOUR_OF[c] == colour:
                found.append(c)
        for c in set(found) if len(found) > 1 else found:  # (in the order of the plays)
            acts.append(base + c * 2)  # = actions.protect(c) or actions.discard(c)
            if two:
                acts.append(base + c * 2 + 1)
        if not protecting:
            acts.append(A.DONE)
        elif self.variant.villain_may_take:
            acts.append(A.TAKE)
        return acts

    def _legal_colours(self) -> list[int]:
        return [A.COLOUR, A.COLOUR + 1, A.COLOUR + 2, A.COLOUR + 3]

    def _legal_targets(self) -> list[int]:
        return [A.TARGET + s for p, s in enumerate(self.seats) if p != self.actor]

    def _legal_flip(self) -> list[int]:
        return [A.FLIP]

    def interjections(self) -> list[tuple[int, int]]:
        """(seat, action) pairs any player may take out of turn now: UNO, catch, challenge, and
        with the Jump-In house rule a play of the identical card."""
        if self.phase == OVER or not (
            self.catchable or self.variant.jump_in or self.uncalled or self.steps
        ):
            return []
        seats, n = self.seats, self.num_players
        out = []
        for p in self.catchable:
            out.append((seats[p], A.UNO))
            for q in range(n):
                if q != p:
                    out.append((seats[q], A.CATCH + seats[p]))
        for p in self.uncalled:
            if p not in self.catchable:
                out.append((seats[p], A.UNO))  # too late to be caught, never too late to call
        if self.steps and self.challengeable():
            for q in range(n):
                if q != self.actor:
                    out.append((seats[q], A.CHALLENGE))
        if self.variant.jump_in and (self.phase == PLAY or self.phase == RESPOND):
            top = self.discard[-1]
            if top < 64 and (self.phase == PLAY or self.stacks(top)):
                for q, held in enumerate(self.hands):
                    if (
                        q != self.to_move
                        and top in held
                        and (len(held) > 1 or q not in self.uncalled)
                    ):
                        out.append((seats[q], A.play(top)))
                        if len(held) == 2:
                            out.append((seats[q], A.play(top, uno=True)))
        return out

    # ------------------------------------------------------------------ applying
    def apply(self, action: int, seat: int | None = None) -> None:
        """Apply one action by `seat` (default: the player to move). An action is allowed if and
        only if it is listed: in `legal_actions()` for the player to move, in `interjections()`
        for a call out of turn (UNO, catch, a Villain Draw 4's challenge, Jump-In). Anything
        else raises the RuleError `engine.checks` classifies, changing nothing."""
        if self.phase == OVER:
            raise RuleError("hand-over", "This hand is over: the next hand must be dealt first.")
        kind = A.kind(action)
        if kind == Kind.PICK:
            self.apply_tinker_bell(A.decode(action).colour)  # a chance outcome: its own checks
            return
        if (kind in _OUT_OF_TURN and not (kind == Kind.CHALLENGE and self.phase == RESPOND)) or (
            seat is not None and seat != self.seats[self.to_move]
        ):
            if seat is None:
                raise RuleError("who", "Say which seat calls, catches or challenges.")
            if (seat, action) not in self.interjections():
                raise checks.out_of_turn(self, seat, action)
            self._interject(self.pos_of[seat], action)
            return
        if TINKER <= self.phase <= SHUFFLE:
            raise RuleError(
                "chance", f"Waiting for {self.waiting_for()}; nobody may play until then."
            )
        pos = self.to_move
        if kind == Kind.MISPLAY:  # a wrong card laid: not allowed, but a penalty's cause
            checks.misplay(self, pos, A.decode(action))
        elif action not in self.legal_actions():
            raise checks.refusal(self, pos, action)
        self.step(action)

    def step(self, action: int) -> None:
        """Apply one of `legal_actions()` for the player to move: the one place an action
        changes the hand (`apply` runs it once the action is found legal; simulations and bots
        call it with an action they took from `legal_actions()`)."""
        if action == _DRAW:  # the commonest move after a play: a native call, not `_APPLY`'s
            self._do_draw(self.to_move, action)
        elif action >= _PROTECT:
            # (by the actions' ranges, as `actions` lays them out: PROTECT, DISCARD, the rest)
            if action < _DISCARD:  # the commonest after a draw: native calls, not `_APPLY`
                self._do_protect(self.to_move, action)
            elif action < _DRAW:
                self._do_discard(self.to_move, action)
            else:
                _APPLY[_KIND_OF[action]](self, self.to_move, action)
        else:  # a play: most steps
            pos = self.to_move
            card = _PLAYED_CARD[action]
            hand = self.hands[pos]
            if self.phase != PLAY_DRAWN:
                self.stats.turns += 1
                if self.catchable:
                    self.catchable.clear()  # the next player has begun their turn
            if card >= 64 and card in _DRAW4S:
                self.draw4_reneged = self._reneged(hand, card)
            i = 0  # = hand.remove(card), as a loop: a compiled engine compares ints natively
            while hand[i] != card:
                i += 1
            self.discard.append(hand.pop(i))
            self.blocked_turns = 0
            if card < 64:
                self.colour = _COLOUR_OF[card]
            elif self.variant.names_colour[card]:
                self.colour = _NAMED_COLOUR[action]
            if not hand:
                self._go_out(pos, self.variant.effect_of[card])
            else:
                if len(hand) == 1 and not _UNO_SAID[action]:
                    self.catchable.append(pos)
                    if self.variant.uno_to_go_out:
                        self.uncalled.append(pos)
                if self.variant.has_effect[card]:
                    effects.played(self, pos, card)
                else:  # a number card or a plain Wild: the next player's turn, without a call
                    self.to_move = (pos + self.direction) % self.num_players
                    self.phase = PLAY
        if self.steps or not self.draw:
            self._run_steps()

    # ---- checks: one per kind of action, each raising RuleError before anything changes
    def waiting_for(self) -> str:
        """What the hand waits for, in words: its phase's (`engine.phases.PHASE_WORDS`)."""
        phase = self.phase
        power = C.name(self.trigger) if phase in (TARGET, DISCARD) else ""
        words = phase_words(PHASE_NAMES[phase], power)
        if phase == PROTECT and self.variant.villain_may_take:
            words += " or take four cards"
        return words

    def phase_hint(self, tried: str) -> str:
        return f"You can't {tried} now: {self.names[self.to_move]} must {self.waiting_for()}."

    def refusal(self, rule: str, text: str) -> RuleError:
        """A refusal in a player's words, quoting the sentence of this ruleset's own book."""
        quote = self.variant.rules.quotes.get(rule)
        return RuleError(rule, f'{text}: "{quote}"' if quote else f"{text}.")

    # ---- changes: one per kind of action, run once the action is known to be legal
    def _do_draw(self, pos: int, action: int) -> None:
        self.stats.turns += 1
        if self.catchable:
            self.catchable.clear()
        if not self.draw:
            # Nothing to draw anywhere (every card is in a hand): the turn passes. When that
            # happens to everyone in a row, the hand is blocked (RULES-MAP: blocked-hand).
            self.blocked_turns += 1
            if self.blocked_turns >= self.num_players:
                self._end_blocked()
            else:
                self.pass_turn(pos, 1)
            return
        card = self.draw.pop()
        self.hands[pos].append(card)
        if self.uncalled and pos in self.uncalled:
            self.uncalled.remove(pos)
        if card in _MATCHING[self.colour * 80 + _RANK_OF[self.discard[-1]]]:
            self.drawn_card = card
            self.phase = PLAY_DRAWN
        elif self.variant.keep_drawing and not self.playable(pos):
            return  # Keep-Drawing: "draw until they find a playable card"
        else:
            self.pass_turn(pos, 1)

    def _do_pass(self, pos: int, action: int) -> None:
        """PASS (keep the card drawn) and DONE (stop discarding): the turn ends."""
        self.pass_turn(pos, 1)

    def _do_protect(self, pos: int, action: int) -> None:
        del self.steps[0]  # (its PROTECTION step: done; the queue runs on after the move)
        self._lay(pos, _LAID_CARD[action], _UNO_SAID[action])

    def _do_discard(self, pos: int, action: int) -> None:
        if self._lay(pos, _LAID_CARD[action], _UNO_SAID[action]):
            return
        if _OF_COLOUR[self.tinker_colour].isdisjoint(self.hands[pos]):
            self.pass_turn(pos, 1)

    def _do_take(self, pos: int, action: int) -> None:
        if self.phase == RESPOND:
            # "the next player must Draw 4 cards then end his turn without discarding"
            self.owe(pos, self.take_penalty())
            self.pass_turn(pos, 1)
            return
        effects.draw_instead(self, self.steps[0])  # (villain_draw4_may_take) four instead

    def _do_challenge(self, pos: int, action: int) -> None:
        n = self.take_penalty()
        if self.draw4_reneged:
            # "the challenged player must draw the four cards instead before play continues"
            self.owe(self.actor, n)
            self.phase = PLAY  # the challenger plays their turn
        else:
            # "the challenger must instead draw 6 cards AND miss their turn" (2018); classic:
            # "draw 4 ... Additionally ... 2 extra cards ... He may then discard as usual."
            self.owe(pos, n + 2)
            if self.variant.rules.failed_challenge_loses_turn:
                self.pass_turn(pos, 1)
            else:
                self.phase = PLAY

    def _do_flip(self, pos: int, action: int) -> None:
        """Vegas: "the next player in turn order flips over the top card from the Draw Pile. The
        card they turn over determines what happens next." The flipper keeps the card."""
        self.stats.turns += 1
        if self.catchable:
            self.catchable.clear()  # taking a card from the Draw Pile begins the turn
        self.phase = PLAY
        if not self.draw:
            return  # every other card is in a hand: nothing to turn over (RULES-MAP: vegas)
        card = self.draw.pop()
        self._give(pos, card)
        rank, effect, n = _RANK_OF[card], self.variant.effect_of[card], self.num_players
        if card < 64 and rank < 10:
            self.owe(pos, rank)  # "draws a number of cards equal to the number on the card"
        elif effect == "skip":
            if n == 2:  # "The player that plays the Vegas card has to draw the ten cards"
                self.owe(self.actor, 10)
                self.pass_turn(pos, 1)
            else:  # "They also skip their turn. The next player ... adds the ten drawn cards"
                self.owe((pos + self.direction) % n, 10)
                self.pass_turn(pos, 2)
        elif effect == "reverse":
            # "the player who played the Vegas card has to draw the ten cards ... You will also
            # reverse turn order."
            self.owe(self.actor, 10)
            self.direction = -self.direction
            if n == 2:
                self.to_move = self.actor
        else:  # "Draw 2, Wild, Wild Draw 4: ... has to draw ten cards in addition to the card"
            self.owe(pos, 10)

    def _do_misplay(self, pos: int, action: int) -> None:
        # the card goes back to the hand (it never left it here); the turn goes on
        if self.catchable:
            self.catchable.clear()  # laying a card began the turn
        self.owe(pos, self.variant.rules.misplay_penalty)

    def _do_colour(self, pos: int, action: int) -> None:
        self.colour = A.decode(action).colour
        self.phase = PLAY

    def _do_target(self, pos: int, action: int) -> None:
        target = self.pos_of[A.decode(action).seat]
        if self.variant.effect_of[self.trigger] == "swap_hands":
            self.swap_hands(pos, target)
            self.pass_turn(pos, 1)  # "swap hands ... before ending their turn"
            return
        self.owe(target, 2)
        self.pass_turn(target, 1)  # "Play resumes as if it was that player's turn."

    def _do_nothing(self, pos: int, action: int) -> None:
        raise RuleError("unknown", f"Unknown action {action}.")

    # ---- what playing a card involves
    def _reneged(self, hand: list[int], card: int) -> bool:
        """Would a challenge of this (Villain or Wild) Draw 4 succeed? ("Reneging")"""
        if not self.variant.renege_test and self.colour < C.BLACK:
            # another card of the colour in play (the Draw 4 itself is black): the commonest test
            return not _OF_COLOUR[self.colour].isdisjoint(hand)
        others = list(hand)
        others.remove(card)
        if self.variant.renege_test:
            matching = _MATCHING[self.colour * 80 + _RANK_OF[self.discard[-1]]]
            wilds = self.variant.renege_test == RenegeTest.PLAYABLE  # MATCHING does not count wilds
            return any(c in matching and (wilds or c < 64) for c in others)
        return any(_COLOUR_OF[c] == self.colour for c in others)

    def _go_out(self, pos: int, effect: str) -> None:
        """ "Once a player plays their last card, the hand is over." A last Draw 2 or Villain
        Draw 4 still makes the next player draw ("These cards are counted")."""
        n = effects.GOING_OUT_DRAWS.get(effect, 0)
        if n:
            victim = (pos + self.direction) % self.num_players
            self.owe(victim, n + self.take_penalty())  # a stack counts too
        self.winner = pos
        self.phase = OVER

    def _end_blocked(self) -> None:
        n = self.num_players
        order = [(self.to_move + self.direction * i) % n for i in range(n)]
        self.winner = min(order, key=self.points_left)
        self.phase = OVER

    # ---- draw cards with a choice: take, challenge or stack (classic, official 2018)
    def stacks(self, card: int) -> bool:
        """May `card` be stacked on the draw card on top of the pile?"""
        if not self.variant.stacking:
            return False
        effect, top = self.variant.effect_of[card], self.discard[-1]
        if effect != self.variant.effect_of[top] and not (
            self.variant.stacking == Stacking.MIXED and effect in effects.STACKABLE
        ):
            return False
        return card in _MATCHING[self.colour * 80 + _RANK_OF[top]]

    def silenced(self, pos: int) -> bool:
        """Classic: holding one card without having called UNO, so it may not be played."""
        return bool(self.uncalled) and pos in self.uncalled and len(self.hands[pos]) == 1

    def stack_refusal(self, card: int) -> RuleError:
        effect_of, stacking = self.variant.effect_of, self.variant.stacking
        top = self.discard[-1]
        choice = " or challenge" if effect_of[top] == "wild_draw4" else ""
        if not stacking:
            why = "stacking is not played at this table"
        elif effect_of[card] not in effects.STACKABLE:
            why = "only a draw card can be stacked"
        elif stacking == Stacking.SAME and effect_of[card] != effect_of[top]:
            why = 'the same symbol only: "a +4 cannot be stacked on a +2, or vice versa"'
        else:
            why = f"it must match {C.COLOURS[self.colour]}, the colour in play"
        return RuleError(
            "stacking",
            f"You must take the {self.penalty()} cards{choice}: {C.name(card)} cannot be "
            f"stacked on {C.name(top)} ({why}).",
        )

    def await_response(self, pos: int, draw4: bool) -> None:
        """The next player must take the penalty's cards and lose their turn, unless they may
        challenge (a Wild Draw 4) or stack; with no choice the engine takes them at once."""
        victim = (pos + self.direction) % self.num_players
        self.actor = pos
        if draw4 or (self.variant.stacking and any(self.stacks(c) for c in self.hands[victim])):
            self.phase = RESPOND
            self.to_move = victim
        else:
            self.owe(victim, self.take_penalty())
            self.pass_turn(victim, 1)

    # ---- Villain Draw 4 protection, Wild Discard All discards
    def _lay(self, pos: int, card: int, uno: bool) -> bool:
        """Move a card from the hand onto the discard pile; True if that was the last card."""
        hand = self.hands[pos]
        hand.remove(card)
        self.discard.append(card)  # a command card laid this way is void; its colour counts
        if not hand:
            self.winner = pos
            self.phase = OVER
            return True
        if len(hand) == 1 and not uno:
            self.catchable.append(pos)
        return False

    # ---- out of turn: UNO, catch, challenge, Jump-In (each found in `interjections()`)
    def _interject(self, pos: int, action: int) -> None:
        if action == A.UNO:  # a late call: nobody can catch them now
            if pos in self.uncalled:
                self.uncalled.remove(pos)
            if pos in self.catchable:
                self.catchable.remove(pos)
        elif action == A.CHALLENGE:
            self._close_challenge()
            if self.draw4_reneged:
                self.owe(self.actor, 4)  # "then they must draw 4 cards"
            else:
                self.owe(pos, 6)  # "if the challenger is wrong, then the challenger must draw 6"
        elif action < A.PROTECT:  # Jump-In: "Play then continues as if that player had just
            self.to_move = pos  # taken their turn."
            self.step(action)
            return
        else:  # a catch
            target = self.pos_of[A.decode(action).seat]
            self.catchable.remove(target)
            self.owe(target, self.variant.uno_penalty)  # "you must pick TWO more cards" (Elvis: 5)
        if self.steps or not self.draw:
            self._run_steps()

    # ------------------------------------------------------------------ chance
    def apply_tinker_bell(self, colour: int) -> None:
        """Tinker Bell's pick, after a Draw 2, Wild Discard All or Villain Draw 4: what the
        colour does is the card's (`effects.after_tinker_bell`)."""
        if self.phase != TINKER:
            raise RuleError("tinker-bell", "Nobody has played a card that calls Tinker Bell.")
        if not 0 <= colour < 4:
            raise RuleError("tinker-bell", f"Tinker Bell picks one of four colours, not {colour}.")
        self.tinker_colour = colour
        if self.steps:
            self._close_challenge()  # "Reneging": until Tinker Bell chooses
        effects.after_tinker_bell(self, colour)
        if self.steps or not self.draw:
            self._run_steps()

    def apply_reshuffle(self, order: Sequence[int]) -> None:
        """The discard pile but its top card, shuffled into a new DRAW pile (`order`: top first)."""
        if self.phase != RESHUFFLE:
            raise RuleError("reshuffle", "The DRAW pile is not empty: nothing to reshuffle.")
        pool = self.discard[:-1]
        if sorted(order) != sorted(pool):
            raise RuleError(
                "reshuffle",
                "A reshuffle must use exactly the cards under the top of the DISCARD pile.",
            )
        self.draw = list(reversed(order))
        self.discard = self.discard[-1:]
        self.phase = self.steps.pop(0).subject  # (its AFTER_RESHUFFLE step: the phase stopped)
        self._run_steps()

    def reshuffle_pool(self) -> list[int]:
        return self.discard[:-1]

    def apply_shuffle_hands(self, order: Sequence[int]) -> None:
        """Wild Shuffle Hands: every card held, shuffled (`order`, top first) and dealt one at a
        time "starting from the player to their left" until none is left."""
        if self.phase != SHUFFLE:
            raise RuleError("shuffle-hands", "Nobody has played a Wild Shuffle Hands.")
        if sorted(order) != sorted(self.shuffle_pool()):
            raise RuleError(
                "shuffle-hands", "Shuffling hands must deal exactly the cards the players held."
            )
        n, actor = self.num_players, self.actor
        hands: list[list[int]] = [[] for _ in range(n)]
        for i, c in enumerate(order):
            hands[(actor + 1 + i) % n].append(c)
        self.hands = hands
        self.catchable.clear()  # a dealt hand owes no UNO call (RULES-MAP: shuffle-hands-uno)
        self.uncalled.clear()
        self.pass_turn(actor, 1)
        if self.steps or not self.draw:
            self._run_steps()

    def shuffle_pool(self) -> list[int]:
        return [c for held in self.hands for c in held]

    # ------------------------------------------------------------------ helpers (for effects)
    def pass_turn(self, pos: int, steps: int) -> None:
        """The turn passes `steps` players on from `pos` (2: the next one is skipped)."""
        self.to_move = (pos + self.direction * steps) % self.num_players
        self.phase = PLAY

    def owe(self, pos: int, n: int) -> None:
        """`pos` must draw `n` cards: dealt at once, after any drawing still owed (and before
        any step waiting for a player), or when the DRAW pile is reshuffled."""
        steps = self.steps
        at = 0
        while at < len(steps) and (steps[at].kind == OWED or steps[at].kind == AFTER_RESHUFFLE):
            at += 1
        steps.insert(at, Step(OWED, pos, n))

    # ---- the queue's waiting steps: a draw card's penalty, a Villain Draw 4's challenge
    def penalty(self) -> int:
        """The cards a draw card (or a stack of them) makes the next player take."""
        for step in self.steps:
            if step.kind == PENALTY:
                return step.count
        return 0

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

    def challengeable(self) -> bool:
        """May the Villain Draw 4 just played still be challenged?"""
        for step in self.steps:  # noqa: SIM110 (any(generator): a frame a call, in pure Python)
            if step.kind == CHALLENGE_WINDOW:
                return True
        return False

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

    def _run_steps(self) -> None:
        """Do the pending work that needs nobody: deal the draws owed, and a Villain Draw 4's
        protections and its end (`engine.effects`), until a step waits for a player or chance.
        When the DRAW pile runs out, wait for the reshuffle ("If no one is out of cards by the
        time the DRAW pile is depleted, reshuffle")."""
        steps = self.steps
        while steps:
            step = steps[0]
            kind = step.kind
            if kind == OWED:
                if self._deal_owed(step):
                    del steps[0]
                elif len(self.discard) > 1:
                    self._await_reshuffle()
                    return
                else:  # every card is in a hand: nothing is left to draw, for anyone
                    steps[:] = [s for s in steps if s.kind != OWED]
            elif kind in (PROTECTION, VILLAIN_DONE):
                if self.phase == OVER:
                    del steps[0]  # (the hand ended on a protection card: nobody else draws)
                elif not effects.villain_step(self, step):
                    break  # a player must protect
            else:
                break  # a step waiting for a player or for chance
        if not self.draw and len(self.discard) > 1 and self.phase != OVER:
            self._await_reshuffle()

    def _deal_owed(self, step: Step) -> bool:
        """Deal the cards `step` owes (`_give` for each); False if the DRAW pile ran out first."""
        n, draw = step.count, self.draw
        if n and draw:
            held = self.hands[step.seat]
            while n and draw:
                held.append(draw.pop())
                n -= 1
            if self.catchable or self.uncalled:
                self._took_cards(step.seat)
            if n:
                self.steps[0] = Step(OWED, step.seat, n)  # (the rest, after the reshuffle)
        return not n

    def _await_reshuffle(self) -> None:
        if self.phase != RESHUFFLE:
            self.steps.insert(0, Step(AFTER_RESHUFFLE, -1, subject=self.phase))
            self.phase = RESHUFFLE

    def all_cards(self) -> list[int]:
        return [c for h in self.hands for c in h] + self.draw + self.discard


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


class Variant:
    """A ruleset with one table's options, and what they make of every hand: immutable, made
    once per set of options and shared by every hand (and every clone) at the table, so the
    options are read from here rather than copied into each hand. (The protocol's immutable
    game, `engine.protocol`; `Game` makes it from its ruleset and options.)"""

    __slots__ = (
        "colour_wilds",
        "draw_when_playable",
        "effect_of",
        "has_effect",
        "jump_in",
        "keep_drawing",
        "must_play_drawn",
        "names_colour",
        "options",
        "renege_test",
        "rules",
        "stacking",
        "uno_penalty",
        "uno_to_go_out",
        "villain_may_take",
        "villain_skips_next",
    )  # fmt: skip

    def __init__(self, rules: Ruleset, opts: Mapping[str, Any]) -> None:
        table = effects.effect_table(rules, opts)
        self.rules: Final = rules
        self.options: Final = opts
        self.effect_of: Final = table.effect_of
        self.names_colour: Final = table.names_colour
        self.has_effect: Final = tuple(e not in effects.NO_EFFECT for e in table.effect_of)
        self.colour_wilds: Final = table.colour_wilds
        self.draw_when_playable: Final = bool(opts.get("draw_when_playable"))
        self.must_play_drawn: Final = bool(opts.get("must_play_drawn"))
        self.villain_skips_next: Final = bool(opts.get("villain_draw4_skips_next"))
        self.villain_may_take: Final = bool(opts.get("villain_draw4_may_take"))
        self.renege_test: Final = RenegeTest[str(opts.get("renege_test", "colour")).upper()]
        self.stacking: Final = Stacking[str(opts.get("stacking", "none")).upper()]
        self.jump_in: Final = bool(opts.get("jump_in"))
        self.keep_drawing: Final = bool(opts.get("keep_drawing"))
        self.uno_to_go_out: Final = rules.uno_to_go_out
        self.uno_penalty: Final = rules.uno_penalty


_VARIANTS: dict[tuple[str, tuple[tuple[str, Any], ...]], Variant] = {}


def variant_of(rules: Ruleset, opts: Mapping[str, Any]) -> Variant:
    """The `Variant` of these rules and options, made once per set of options: a simulation
    deals thousands of hands at one table, and asks again with the same options (a game's
    resolved options, never changed once made): the last answer is kept by their identity,
    without a key to make and hash for every hand."""
    last = _LAST_VARIANT[0]
    if last is not None and last.options is opts and last.rules is rules:
        return last
    known = _variant_of(rules, opts)
    _LAST_VARIANT[0] = known
    return known


_LAST_VARIANT: list[Variant | None] = [None]


def _variant_of(rules: Ruleset, opts: Mapping[str, Any]) -> Variant:
    try:
        key = (rules.name, tuple(opts.items()))
        known = _VARIANTS.get(key)
    except TypeError:  # an option's value that cannot be a key: made each time
        return Variant(rules, opts)
    if known is None or known.rules is not rules:
        if len(_VARIANTS) >= 256:  # (a server's tables choose options freely)
            _VARIANTS.clear()
        known = _VARIANTS[key] = Variant(rules, opts)
    return known


_OF_COLOUR: Final = C.CARDS_OF_COLOUR
"""The cards of each colour (Tinker Bell's: who must protect or may discard)."""
_MATCHING: Final = C.MATCHING
"""Cards that may be laid on a top card, by colour in play * 80 + the top card's rank."""
_MATCHES: Final = C.MATCHES
"""The same as flags by card id."""
_COLOUR_PLAYS: Final = {w: [A.play(w, colour) for colour in range(4)] for w in range(64, C.NCARDS)}

_LEGAL: Final[tuple[Callable[[Hand], list[int]], ...]] = (
    Hand.legal_actions,  # PLAY
    Hand._legal_after_drawing,  # PLAY_DRAWN
    Hand._legal_colours,  # COLOUR
    Hand._legal_targets,  # TARGET
    Hand._legal_lays,  # PROTECT
    Hand._legal_lays,  # DISCARD
    Hand._legal_responses,  # RESPOND
    Hand._legal_flip,  # FLIP
)
"""The legal actions, by phase (the player phases PLAY .. FLIP)."""


_Apply = Callable[[Hand, int, int], None]
_APPLY_BY_KIND: Final[dict[Kind, _Apply]] = {
    Kind.PROTECT: Hand._do_protect,
    Kind.DISCARD: Hand._do_discard,
    Kind.DRAW: Hand._do_draw,
    Kind.PASS: Hand._do_pass,
    Kind.DONE: Hand._do_pass,
    Kind.TAKE: Hand._do_take,
    Kind.CHALLENGE: Hand._do_challenge,
    Kind.COLOUR: Hand._do_colour,
    Kind.TARGET: Hand._do_target,
    Kind.MISPLAY: Hand._do_misplay,
    Kind.FLIP: Hand._do_flip,
}
_APPLY: Final[tuple[_Apply, ...]] = tuple(
    _APPLY_BY_KIND.get(kind, Hand._do_nothing) for kind in Kind
)
"""The changes each kind of action makes, indexed by `Kind` (a tuple: one lookup per step)."""


def _variants(acts: list[int], card: int, two: bool, names_colour: Sequence[bool]) -> None:
    """Append the play actions for one card: a Wild names a colour; UNO with the next-to-last."""
    if names_colour[card]:
        for colour in range(4):
            acts.append(A.play(card, colour))
            if two:
                acts.append(A.play(card, colour, True))
    else:
        acts.append(A.play(card))
        if two:
            acts.append(A.play(card, 0, True))
