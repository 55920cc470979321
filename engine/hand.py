"""One hand of UNO under a ruleset: its state, legal actions and chance nodes.

The state is mutable for speed (a simulation applies millions of actions), but every action is
checked completely before anything changes, so a refused action leaves the state exactly as it
was. Cards are small ints (`engine.cards`), players are positions 0..k-1 in seat order, and the
seat numbers of the game record appear only at the edges (TARGET, CATCH and `seats`).

What the rules leave to a table is decided in docs/RULES-MAP.md, which names the option, the
sentence of the rule book and the test for each choice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import actions as A
from engine import cards as C
from engine.rulesets import Ruleset

# Players' phases first, then chance phases (TINKER..SHUFFLE), then OVER: `phase >= TINKER`
# is "no player moves now", one comparison on the hot path.
PLAY, PLAY_DRAWN, COLOUR, TARGET, PROTECT, DISCARD, RESPOND, FLIP = range(8)
TINKER, RESHUFFLE, SHUFFLE, OVER = range(8, 12)
PHASE_NAMES = (
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

_COLOUR_OF = C.COLOUR_OF
_RANK_OF = C.RANK_OF
_PROTECT, _DISCARD, _DRAW = A.PROTECT, A.DISCARD, A.DRAW
_PASS, _DONE, _TAKE = A.PASS, A.DONE, A.TAKE
_UNO, _CHALLENGE, _COLOUR, _TARGET, _CATCH = A.UNO, A.CHALLENGE, A.COLOUR, A.TARGET, A.CATCH
_MISPLAY, _FLIP = A.MISPLAY, A.FLIP
_DRAW4S = (C.VILLAIN_DRAW4, C.WILD_DRAW4)  # the challengeable cards

# How many cards the next player draws when a hand is won on this effect ("Going Out").
_GOING_OUT_DRAWS = {"draw2_tinker_bell": 2, "villain_draw4": 4, "draw2": 2, "wild_draw4": 4}
_DRAW_FX = frozenset({"draw2", "wild_draw4"})  # the cards that can be stacked
_RENEGE = {"colour": 0, "matching": 1, "playable": 2}
_STACKING = {"none": 0, "same": 1, "mixed": 2}


class RuleError(ValueError):
    """An action the rules forbid. `rule` is the key of the rule in docs/RULES-MAP.md."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule


class Hand:
    """A hand from the deal to the moment someone goes out (or nobody can move)."""

    __slots__ = (
        "actor",
        "blocked",
        "catchable",
        "challenge_open",
        "colour",
        "cur",
        "d2_matches",
        "d2_picks",
        "deal_top",
        "direction",
        "discard",
        "draw",
        "draw_any",
        "drawn",
        "fx",
        "fxfn",
        "hands",
        "jump_in",
        "k",
        "keep_drawing",
        "must_play",
        "namer",
        "names",
        "opts",
        "owed",
        "pending",
        "phase",
        "pos_of",
        "queue",
        "renege",
        "resume",
        "rules",
        "seats",
        "skip_after_vd4",
        "stacking",
        "tb_colour",
        "trigger",
        "turns",
        "uncalled",
        "uno_penalty",
        "uno_rule",
        "vd4_full",
        "vd4_guilty",
        "vd4_hits",
        "vd4_resolved",
        "wilds",
        "winner",
    )

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
        h = cls.__new__(cls)
        k = len(seats)
        h.rules, h.opts, h.k = rules, opts, k
        h.seats = tuple(seats)
        h.pos_of = {s: p for p, s in enumerate(seats)}
        h.names = tuple(names) if names else tuple(f"seat {s}" for s in seats)
        h.fx, h.fxfn, h.namer, h.wilds = _effect_table(rules, opts)
        h.draw_any = bool(opts.get("draw_when_playable"))
        h.must_play = bool(opts.get("must_play_drawn"))
        h.skip_after_vd4 = bool(opts.get("villain_draw4_skips_next"))
        h.renege = _RENEGE[opts.get("renege_test", "colour")]
        h.stacking = _STACKING[opts.get("stacking", "none")]
        h.jump_in = bool(opts.get("jump_in"))
        h.keep_drawing = bool(opts.get("keep_drawing"))
        h.pending = 0
        h.uno_rule = rules.uno_to_go_out
        h.uno_penalty = rules.uno_penalty
        h.uncalled = []  # with uno_rule: holding one card, UNO never called (may not go out)
        h.hands = [[] for _ in range(k)]
        size = rules.hand_size
        if len(deck) <= size * k:
            raise RuleError("dealing", f"{len(deck)} cards are too few to deal {size} to {k}")
        for i in range(size * k):
            h.hands[(dealer + 1 + i) % k].append(deck[i])
        rest = list(deck[size * k :])
        returned = rules.returned_first_discards
        turns = 0
        while rest[0] in returned:
            if turns >= len(rest):
                raise RuleError("first-discard", "every card left could not start the discard pile")
            rest.append(rest.pop(0))
            turns += 1
        top = rest.pop(0)
        rest.reverse()  # pop() takes the top card
        h.draw, h.discard = rest, [top]
        h.deal_top = top
        h.colour = _COLOUR_OF[top]
        h.direction = 1
        h.phase = PLAY
        h.cur = (dealer + 1) % k
        h.actor = dealer
        h.trigger = h.drawn = h.tb_colour = h.winner = -1
        h.catchable, h.owed, h.queue = [], [], []
        h.challenge_open = h.vd4_guilty = False
        h.resume = PLAY
        h.blocked = h.turns = h.d2_picks = h.d2_matches = 0
        h.vd4_hits = h.vd4_resolved = h.vd4_full = 0
        h._first_discard(dealer, top)
        h._settle_draws()
        return h

    def _first_discard(self, dealer: int, top: int) -> None:
        """What the card turned up does, by the ruleset's first-discard table."""
        how = self.rules.first_discard.get(self.fx[top])
        k = self.k
        if how is None:
            return  # the player to the dealer's left plays first, on the card as it is
        if how == "colour":
            # "the person to the left of the dealer chooses the color ... and plays the first card"
            self.phase = COLOUR
        elif how == "reverse_right_of_dealer":
            # "the player to the right of the dealer plays first, and play then goes to the right"
            self.direction = -1
            self.cur = (dealer - 1) % k
        elif how == "reverse_dealer_first":
            # "The dealer plays first; the play proceeds counterclockwise"
            self.direction = -1
            self.cur = dealer
        elif how == "skip":
            # "the player to the left of the dealer is skipped"
            self.cur = (dealer + 2) % k
        elif how == "draw2":
            # "The player to the dealer's left draws two cards and misses a turn"
            self._owe((dealer + 1) % k, 2)
            self.cur = (dealer + 2) % k
        elif how == "tinker_bell":
            # "the player to the left of the dealer will hit the Tinker Bell Button"; the card
            # counts as the dealer's (see RULES-MAP: first-discard-draw2).
            self.phase = TINKER
            self.trigger = top
        else:
            raise ValueError(f"unknown first-discard rule {how!r} in {self.rules.name}")

    def clone(self) -> Hand:
        h = Hand.__new__(Hand)
        for name in Hand.__slots__:
            setattr(h, name, getattr(self, name))
        h.hands = [list(x) for x in self.hands]
        h.draw, h.discard = list(self.draw), list(self.discard)
        h.catchable, h.queue = list(self.catchable), list(self.queue)
        h.uncalled = list(self.uncalled)
        h.owed = [list(x) for x in self.owed]
        return h

    # ------------------------------------------------------------------ reading
    @property
    def top(self) -> int:
        return self.discard[-1]

    def current_seat(self) -> int:
        return self.seats[self.cur]

    def is_chance(self) -> bool:
        return TINKER <= self.phase <= SHUFFLE

    def is_over(self) -> bool:
        return self.phase == OVER

    def points_left(self, pos: int) -> int:
        pts = self.rules.points
        return sum(pts[c] for c in self.hands[pos])

    def playable(self, pos: int) -> list[int]:
        """Cards in `pos`'s hand that may be laid on the discard pile now."""
        colour, rank = self.colour, _RANK_OF[self.discard[-1]]
        return [
            c for c in self.hands[pos] if c >= 64 or _COLOUR_OF[c] == colour or _RANK_OF[c] == rank
        ]

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[int]:
        """Every action the player to move may take now (empty at chance nodes and the end)."""
        ph = self.phase
        hand = self.hands[self.cur]
        if ph == PLAY:
            matching = _MATCHING[self.colour * 80 + _RANK_OF[self.discard[-1]]]
            if len(hand) == 2:
                acts = []
                for c in set(hand):
                    if c in matching:
                        _variants(acts, c, True, self.namer)
            else:
                acts = [c << 3 for c in set(hand) if c in matching]
                for w in self.wilds:  # the cards that name a colour
                    if w in hand:
                        acts.remove(w << 3)
                        acts += _COLOUR_PLAYS[w]
                if self.uncalled and self.cur in self.uncalled:
                    acts = []  # "not allowed to discard his last card until he does so"
            if not acts or self.draw_any:
                acts.append(_DRAW)
            return acts
        if ph == RESPOND:
            acts = []
            if self.stacking and not (self.uncalled and self.cur in self.uncalled):
                two = len(hand) == 2
                for c in set(hand):
                    if self._stacks(c):
                        _variants(acts, c, two, self.namer)
            acts.append(A.TAKE)
            if self.fx[self.discard[-1]] == "wild_draw4":
                acts.append(A.CHALLENGE)
            return acts
        if ph == FLIP:
            return [A.FLIP]
        if ph == PLAY_DRAWN:
            acts = []
            _variants(acts, self.drawn, len(hand) == 2, self.namer)
            if not self.must_play:
                acts.append(A.PASS)
            return acts
        if ph in (PROTECT, DISCARD):
            base = A.PROTECT if ph == PROTECT else A.DISCARD
            t, two = self.tb_colour, len(hand) == 2
            acts = []
            for c in set(hand):
                if _COLOUR_OF[c] == t:
                    acts.append(base + c * 2)
                    if two:
                        acts.append(base + c * 2 + 1)
            acts.append(A.TAKE if ph == PROTECT else A.DONE)
            return acts
        if ph == COLOUR:
            return [A.COLOUR, A.COLOUR + 1, A.COLOUR + 2, A.COLOUR + 3]
        if ph == TARGET:
            return [A.TARGET + s for p, s in enumerate(self.seats) if p != self.actor]
        return []

    def interjections(self) -> list[tuple[int, int]]:
        """(seat, action) pairs any player may take out of turn now: UNO, catch, challenge, and
        with the Jump-In house rule a play of the identical card."""
        if self.phase == OVER or not (
            self.catchable or self.challenge_open or self.jump_in or self.uncalled
        ):
            return []
        seats = self.seats
        out = []
        for p in self.catchable:
            out.append((seats[p], A.UNO))
            out.extend((seats[q], A.CATCH + seats[p]) for q in range(self.k) if q != p)
        for p in self.uncalled:
            if p not in self.catchable:
                out.append((seats[p], A.UNO))  # too late to be caught, never too late to call
        if self.challenge_open:
            out.extend((seats[q], A.CHALLENGE) for q in range(self.k) if q != self.actor)
        if self.jump_in and (self.phase == PLAY or self.phase == RESPOND):
            top = self.discard[-1]
            if top < 64:
                for q, held in enumerate(self.hands):
                    if q != self.cur and top in held and (len(held) > 1 or q not in self.uncalled):
                        out.append((seats[q], top << 3))
                        if len(held) == 2:
                            out.append((seats[q], (top << 3) + 1))
        return out

    # ------------------------------------------------------------------ applying
    def apply(self, action: int, seat: int | None = None) -> None:
        """Apply one action by `seat` (default: the player to move). Raises RuleError, changing
        nothing, when the rules forbid it: every check runs before the first change."""
        if self.phase == OVER:
            raise RuleError("hand-over", "This hand is over: the next hand must be dealt first.")
        if (
            _UNO <= action <= _CHALLENGE and not (action == _CHALLENGE and self.phase == RESPOND)
        ) or _CATCH <= action < _CATCH + 100:
            if seat is None:
                raise RuleError("who", "Say which seat calls, catches or challenges.")
            self._interject(action, seat)
        else:
            if TINKER <= self.phase <= SHUFFLE:
                what = {
                    TINKER: "Tinker Bell's pick",
                    RESHUFFLE: "the reshuffle",
                    SHUFFLE: "the hands to be shuffled and dealt again",
                }[self.phase]
                raise RuleError("chance", f"Waiting for {what}; nobody may play until then.")
            pos = self.cur
            if seat is not None and seat != self.seats[pos]:
                p = self.pos_of.get(seat)
                if self.jump_in and action < _PROTECT and p is not None:
                    self._check_jump(p, action)
                    pos = self.cur = p  # "Play then continues as if that player had just
                    self._do_play(p, action)  # taken their turn."
                    if self.owed or not self.draw:
                        self._settle_draws()
                    return
                who = self.names[p] if p is not None else f"seat {seat}"
                if action == _CHALLENGE:
                    raise RuleError(
                        "challenge-who",
                        f"Only {self.names[pos]}, who must draw, may challenge the Wild Draw 4 "
                        "(\"the next player in turn ... has the option of Challenging\").",
                    )
                raise RuleError(
                    "turn",
                    f"It is {self.names[pos]}'s move ({PHASE_NAMES[self.phase]}), not {who}'s.",
                )
            self._check(pos, action)
            self._do(pos, action)
        if self.owed or not self.draw:
            self._settle_draws()

    def step(self, action: int) -> None:
        """Apply an action taken from `legal_actions()` for the player to move, without checking
        it again: the simulation's fast path (the property tests prove every offered action is
        legal, and `apply` runs the same changes after its checks)."""
        self._do(self.cur, action)
        if self.owed or not self.draw:
            self._settle_draws()

    def _check(self, pos: int, action: int) -> None:
        """Raise RuleError if the player to move may not take `action` now."""
        ph = self.phase
        if action < _PROTECT:
            if ph != PLAY and ph != PLAY_DRAWN and ph != RESPOND:
                raise RuleError("phase", self._phase_hint("play a card"))
            self._check_play(pos, action)
        elif action < _DISCARD:
            if ph != PROTECT:
                raise RuleError("phase", self._phase_hint("lay a protection card"))
            self._check_lay(pos, action - _PROTECT, "protect")
        elif action < _DRAW:
            if ph != DISCARD:
                raise RuleError("phase", self._phase_hint("discard"))
            self._check_lay(pos, action - _DISCARD, "discard")
        elif action == _DRAW:
            if ph != PLAY:
                raise RuleError("phase", self._phase_hint("draw"))
            if not self.draw_any and self.playable(pos) and not self._silenced(pos):
                raise self._refusal(
                    "draw-when-stuck", "You have a card that matches, so you may not draw"
                )
        elif action == _PASS:
            if ph != PLAY_DRAWN:
                raise RuleError("phase", "You can keep a card only right after drawing it.")
            if self.must_play:
                raise self._refusal(
                    "must-play-drawn",
                    f"You drew {C.name(self.drawn)} and can play it, so you must play it",
                )
        elif action == _DONE:
            if ph != DISCARD:
                raise RuleError("phase", self._phase_hint("stop discarding"))
        elif action == _TAKE:
            if ph != PROTECT and ph != RESPOND:
                raise RuleError("phase", self._phase_hint("take the cards"))
        elif action == _CHALLENGE:  # only in RESPOND: the other phases go to _interject
            if self.fx[self.discard[-1]] != "wild_draw4":
                raise RuleError(
                    "challenge-window",
                    "Only a Wild Draw 4 can be challenged, by the player who must draw, before "
                    "they draw.",
                )
        elif _COLOUR <= action < _COLOUR + 4:
            if ph != COLOUR:
                raise RuleError(
                    "colour", "A colour is named with the Wild that needs it, not on its own."
                )
        elif _TARGET <= action < _TARGET + 100:
            if ph != TARGET:
                raise RuleError("phase", self._phase_hint("choose a player"))
            target = self.pos_of.get(action - _TARGET)
            if target is None or target == pos:
                if self.fx[self.trigger] == "swap_hands":
                    raise RuleError(
                        "swap-target",
                        "Choose another player at the table to swap hands with (\"swap hands "
                        "with another player of their choice\").",
                    )
                raise RuleError(
                    "draw2-target",
                    "Choose another player at the table to draw 2 (\"the player gets to chose "
                    "whichever player they want to draw 2 cards\").",
                )
        elif _MISPLAY <= action < _MISPLAY + C.NCARDS:
            self._check_misplay(pos, action - _MISPLAY)
        elif action == _FLIP:
            if ph != FLIP:
                raise RuleError("phase", self._phase_hint("turn over a card"))
        else:
            raise RuleError("unknown", f"Unknown action {action}.")

    def _check_misplay(self, pos: int, card: int) -> None:
        """Classic: "You play the wrong card ... You must reclaim your misplayed card and draw 2
        more cards from the Stock"."""
        if not self.rules.misplay_penalty:
            raise RuleError(
                "misplay",
                f"The {self.rules.title} rules have no penalty for a wrong card: it is simply "
                "taken back.",
            )
        if self.phase != PLAY:
            raise RuleError("phase", self._phase_hint("lay a card"))
        if card >= C.NCARDS or card not in self.hands[pos]:
            raise RuleError("not-in-hand", f"{self.names[pos]} has no {_card_name(card)}.")
        top = self.discard[-1]
        if card >= 64 or _COLOUR_OF[card] == self.colour or _RANK_OF[card] == _RANK_OF[top]:
            raise RuleError(
                "misplay", f"{C.name(card)} matches {C.name(top)}: it is not a wrong card."
            )

    def _do(self, pos: int, action: int) -> None:
        """The changes an action makes, once it is known to be legal."""
        if action < _PROTECT:
            self._do_play(pos, action)
        elif action == _DRAW:
            self._do_draw(pos)
        elif action in (_PASS, _DONE):
            self._advance(pos, 1)
        elif action < _DISCARD:
            self._do_protect(pos, action)
        elif action < _DRAW:
            self._do_discard(pos, action)
        elif action == _TAKE:
            if self.phase == RESPOND:
                # "the next player must Draw 4 cards then end his turn without discarding"
                self._owe(pos, self.pending)
                self.pending = 0
                self._advance(pos, 1)
                return
            self.queue.pop(0)
            self._owe(pos, 4)
            self.vd4_hits += 1
            self._villain_next()
        elif action == _CHALLENGE:
            self._challenge_draw4(pos)
        elif action == _FLIP:
            self._do_flip(pos)
        elif action >= _MISPLAY:
            # the card goes back to the hand (it never left it here); the turn goes on
            if self.catchable:
                self.catchable.clear()  # laying a card began the turn
            self._owe(pos, self.rules.misplay_penalty)
        elif action < _TARGET:  # COLOUR
            self.colour = action - _COLOUR
            self.phase = PLAY
        else:  # TARGET
            target = self.pos_of[action - _TARGET]
            if self.fx[self.trigger] == "swap_hands":
                self._swap(pos, target)
                self._advance(pos, 1)  # "swap hands ... before ending their turn"
                return
            self._owe(target, 2)
            self._advance(target, 1)  # "Play resumes as if it was that player's turn."

    def _phase_hint(self, tried: str) -> str:
        need = {
            PLAY: "play a card or draw",
            PLAY_DRAWN: "play the card just drawn or keep it",
            COLOUR: "name the colour of the Wild turned up",
            TARGET: "choose a player",
            RESPOND: "take the cards, challenge or stack",
            FLIP: "turn over the top card of the draw pile (Vegas)",
            PROTECT: "lay a Pixie Dust Protection card or take four cards",
            DISCARD: "discard cards of Tinker Bell's colour or stop",
        }[self.phase]
        return f"You can't {tried} now: {self.names[self.cur]} must {need}."

    # ---- playing a card from the hand
    def _check_play(self, pos: int, action: int) -> None:
        card, rest = divmod(action, 8)
        chosen, uno = divmod(rest, 2)
        hand = self.hands[pos]
        if card >= C.NCARDS or card not in hand:
            raise RuleError("not-in-hand", f"{self.names[pos]} has no {_card_name(card)} to play.")
        if self.uncalled and len(hand) == 1 and pos in self.uncalled:
            raise _uno_first()
        if self.phase == RESPOND:
            if not self._stacks(card):
                raise self._stack_refusal(card)
        elif self.phase == PLAY_DRAWN and card != self.drawn:
            raise self._refusal(
                "play-drawn",
                f"After drawing, only the card drawn ({C.name(self.drawn)}) may be played",
            )
        top = self.discard[-1]
        if not (card >= 64 or _COLOUR_OF[card] == self.colour or _RANK_OF[card] == _RANK_OF[top]):
            raise self._refusal(  # (in RESPOND `_stacks` has checked the match already)
                "match",
                f"{C.name(card)} does not match {C.name(top)} ({C.COLOURS[self.colour]} in play)",
            )
        if chosen and not self.namer[card]:
            raise RuleError("colour", f"Only a Wild lets you name a colour, not {C.name(card)}.")
        if uno and len(hand) != 2:
            raise self._refusal("uno-call", "UNO is called as you play your next-to-last card")

    def _refusal(self, rule: str, text: str) -> RuleError:
        """A refusal in a player's words, quoting the sentence of this ruleset's own book."""
        quote = self.rules.quotes.get(rule)
        return RuleError(rule, f'{text}: "{quote}"' if quote else f"{text}.")

    def _do_play(self, pos: int, action: int) -> None:
        card = action >> 3
        hand = self.hands[pos]
        if self.phase != PLAY_DRAWN:
            self.turns += 1
            if self.catchable:
                self.catchable.clear()  # the next player has begun their turn
        if card >= 64 and card in _DRAW4S:
            self.vd4_guilty = self._reneged(hand, card)
        hand.remove(card)
        self.discard.append(card)
        self.blocked = 0
        if card < 64:
            self.colour = _COLOUR_OF[card]
        elif self.namer[card]:
            self.colour = (action >> 1) & 3
        if not hand:
            self._go_out(pos, self.fx[card])
            return
        if len(hand) == 1 and not action & 1:
            self.catchable.append(pos)
            if self.uno_rule:
                self.uncalled.append(pos)
        fx = self.fxfn[card]
        if fx is _fx_number:  # the commonest card: inline the turn passing on
            self.cur = (pos + self.direction) % self.k
            self.phase = PLAY
        else:
            fx(self, pos, card)

    def _reneged(self, hand: list[int], card: int) -> bool:
        """Would a challenge of this (Villain or Wild) Draw 4 succeed? ("Reneging")"""
        others = list(hand)
        others.remove(card)
        if self.renege:
            rank = _RANK_OF[self.discard[-1]]
            wilds = self.renege == 2  # "playable" counts wilds; "matching" does not
            return any(
                (c >= 64 and wilds)
                or (c < 64 and (_COLOUR_OF[c] == self.colour or _RANK_OF[c] == rank))
                for c in others
            )
        return any(_COLOUR_OF[c] == self.colour for c in others)

    def _go_out(self, pos: int, fx: str) -> None:
        """"Once a player plays their last card, the hand is over." A last Draw 2 or Villain
        Draw 4 still makes the next player draw ("These cards are counted")."""
        n = _GOING_OUT_DRAWS.get(fx, 0)
        if n:
            self._owe((pos + self.direction) % self.k, n + self.pending)  # a stack counts too
            self.pending = 0
        self.winner = pos
        self.phase = OVER

    def _do_draw(self, pos: int) -> None:
        self.turns += 1
        if self.catchable:
            self.catchable.clear()
        if not self.draw:
            # Nothing to draw anywhere (every card is in a hand): the turn passes. When that
            # happens to everyone in a row, the hand is blocked (RULES-MAP: blocked-hand).
            self.blocked += 1
            if self.blocked >= self.k:
                self._end_blocked()
            else:
                self._advance(pos, 1)
            return
        card = self.draw.pop()
        self.hands[pos].append(card)
        if self.uncalled and pos in self.uncalled:
            self.uncalled.remove(pos)
        top = self.discard[-1]
        if card >= 64 or _COLOUR_OF[card] == self.colour or _RANK_OF[card] == _RANK_OF[top]:
            self.drawn = card
            self.phase = PLAY_DRAWN
        elif self.keep_drawing and not self.playable(pos):
            return  # Keep-Drawing: "draw until they find a playable card"
        else:
            self._advance(pos, 1)

    def _end_blocked(self) -> None:
        order = [(self.cur + self.direction * i) % self.k for i in range(self.k)]
        self.winner = min(order, key=self.points_left)
        self.phase = OVER

    def _check_jump(self, pos: int, action: int) -> None:
        """Jump-In: "If a player has exactly the same card (both number and color) as the top
        card of the discard pile, they may play it immediately, even if it is not their turn." """
        card, rest = divmod(action, 8)
        chosen, uno = divmod(rest, 2)
        top = self.discard[-1]
        if self.phase != PLAY and self.phase != RESPOND:
            raise RuleError(
                "jump-in",
                f"You can jump in only between turns, not while {self.names[self.cur]} must "
                f"{PHASE_NAMES[self.phase].replace('_', ' ')}.",
            )
        if card != top or top >= 64:
            raise RuleError(
                "jump-in",
                f"Only the identical card may jump in: {C.name(top)} is on top, not "
                f"{_card_name(card)} (\"exactly the same card (both number and color)\").",
            )
        if card not in self.hands[pos]:
            raise RuleError("not-in-hand", f"{self.names[pos]} has no {C.name(card)} to play.")
        if self.uncalled and len(self.hands[pos]) == 1 and pos in self.uncalled:
            raise _uno_first()
        if self.phase == RESPOND and not self._stacks(card):
            raise RuleError("jump-in", "Only a card that stacks may jump in on a draw card.")
        if chosen:
            raise RuleError("colour", f"Only a Wild lets you name a colour, not {C.name(card)}.")
        if uno and len(self.hands[pos]) != 2:
            raise RuleError(
                "uno-call", "UNO is called as you play your next-to-last card."
            )

    # ---- Villain Draw 4 protection, Wild Discard All discards
    def _check_lay(self, pos: int, code: int, what: str) -> None:
        """Protection and discards: a card of Tinker Bell's colour from the hand (never a wild)."""
        card, uno = divmod(code, 2)
        hand = self.hands[pos]
        t = self.tb_colour
        if card >= C.NCARDS or card not in hand:
            raise RuleError("not-in-hand", f"{self.names[pos]} has no {_card_name(card)} to lay.")
        if card >= 64 and what == "protect":
            raise RuleError(
                "protect-no-wild", "\"No Wild Card can be played as Pixie Dust Protection.\""
            )
        if _COLOUR_OF[card] != t:
            raise RuleError(
                f"{what}-colour",
                f"Tinker Bell chose {C.COLOURS[t]}: only a {C.COLOURS[t]} card may be laid "
                f"({'protection' if what == 'protect' else 'discard'}), not {C.name(card)}.",
            )
        if uno and len(hand) != 2:
            raise RuleError("uno-call", "UNO is called as you lay your next-to-last card.")

    def _lay(self, pos: int, card: int, uno: int) -> bool:
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

    def _do_protect(self, pos: int, action: int) -> None:
        card, uno = divmod(action - _PROTECT, 2)
        self.queue.pop(0)
        if not self._lay(pos, card, uno):
            self._villain_next()

    def _villain_next(self) -> None:
        """Walk the other players in order of play: those holding Tinker Bell's colour decide,
        the rest draw four ("If a player doesn't have a card in the color selected")."""
        q, t, hands = self.queue, self.tb_colour, self.hands
        while q:
            p = q[0]
            if any(_COLOUR_OF[c] == t for c in hands[p]):
                self.cur = p
                self.phase = PROTECT
                return
            q.pop(0)
            self._owe(p, 4)
            self.vd4_hits += 1
        self.vd4_resolved += 1
        if not self.vd4_hits:
            self.vd4_full += 1
        self._advance(self.actor, 2 if self.skip_after_vd4 else 1)

    def _do_discard(self, pos: int, action: int) -> None:
        card, uno = divmod(action - _DISCARD, 2)
        if self._lay(pos, card, uno):
            return
        t = self.tb_colour
        if not any(_COLOUR_OF[c] == t for c in self.hands[pos]):
            self._advance(pos, 1)

    # ---- out of turn: UNO, catch, challenge
    def _interject(self, action: int, seat: int) -> None:
        pos = self.pos_of.get(seat)
        if pos is None:
            raise RuleError("who", f"Seat {seat} is not playing this hand.")
        if action == A.UNO:
            if pos in self.uncalled:
                self.uncalled.remove(pos)
                if pos in self.catchable:
                    self.catchable.remove(pos)
                return
            if pos not in self.catchable:
                raise RuleError(
                    "uno-late",
                    "A late UNO call is only for a player holding one card who has not called it "
                    "yet, before the next player begins their turn.",
                )
            self.catchable.remove(pos)
        elif action == A.CHALLENGE:
            if not self.challenge_open:
                if "villain_draw4" not in self.fx:
                    raise RuleError(
                        "challenge-window",
                        "Only a Wild Draw 4 can be challenged, by the player who must draw, "
                        "before they draw.",
                    )
                raise RuleError(
                    "challenge-window",
                    "A Villain Draw 4 can be challenged only right after it is played, before "
                    "Tinker Bell chooses.",
                )
            if pos == self.actor:
                raise RuleError("challenge-self", "You can't challenge your own Villain Draw 4.")
            self.challenge_open = False
            if self.vd4_guilty:
                self._owe(self.actor, 4)  # "then they must draw 4 cards"
            else:
                self._owe(pos, 6)  # "if the challenger is wrong, then the challenger must draw 6"
        else:  # CATCH
            target = self.pos_of.get(action - A.CATCH)
            if target is None or target not in self.catchable:
                raise RuleError(
                    "catch-window",
                    "You can catch only a player holding one card who did not say UNO, after "
                    "their next-to-last card touches the DISCARD pile and before the next player "
                    "begins their turn.",
                )
            if target == pos:
                raise RuleError("catch-self", "To catch yourself, call UNO.")
            self.catchable.remove(target)
            self._owe(target, self.uno_penalty)  # "you must pick TWO more cards" (Elvis: five)

    # ------------------------------------------------------------------ chance
    def apply_tinker_bell(self, colour: int) -> None:
        """Tinker Bell's pick, after a Draw 2, Wild Discard All or Villain Draw 4."""
        if self.phase != TINKER:
            raise RuleError("tinker-bell", "Nobody has played a card that calls Tinker Bell.")
        if not 0 <= colour < 4:
            raise RuleError("tinker-bell", f"Tinker Bell picks one of four colours, not {colour}.")
        self.tb_colour = colour
        self.challenge_open = False
        fx = self.fx[self.trigger]
        actor = self.actor
        if fx == "draw2_tinker_bell":
            self.d2_picks += 1
            if colour == _COLOUR_OF[self.trigger]:
                # "the player gets to chose whichever player they want to draw 2 cards"
                self.d2_matches += 1
                self.phase = TARGET
                self.cur = actor
            else:
                # "the next player must draw 2 cards and forfeit their turn"
                victim = (actor + self.direction) % self.k
                self._owe(victim, 2)
                self._advance(victim, 1)
        elif fx == "wild_discard_all":
            self.colour = colour
            if any(_COLOUR_OF[c] == colour for c in self.hands[actor]):
                self.phase = DISCARD
                self.cur = actor
            else:
                self._advance(actor, 1)
        else:  # villain_draw4
            self.colour = colour
            self.queue = [(actor + self.direction * i) % self.k for i in range(1, self.k)]
            self.vd4_hits = 0
            self._villain_next()
        if self.owed or not self.draw:
            self._settle_draws()

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
        self.phase = self.resume
        self._settle_draws()

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
        k, actor = self.k, self.actor
        hands: list[list[int]] = [[] for _ in range(k)]
        for i, c in enumerate(order):
            hands[(actor + 1 + i) % k].append(c)
        self.hands = hands
        self.catchable.clear()  # a dealt hand owes no UNO call (RULES-MAP: shuffle-hands-uno)
        self.uncalled.clear()
        self._advance(actor, 1)
        if self.owed or not self.draw:
            self._settle_draws()

    def shuffle_pool(self) -> list[int]:
        return [c for held in self.hands for c in held]

    # ------------------------------------------------------------------ helpers
    def _advance(self, pos: int, steps: int) -> None:
        self.cur = (pos + self.direction * steps) % self.k
        self.phase = PLAY

    def _owe(self, pos: int, n: int) -> None:
        self.owed.append([pos, n])

    # ---- draw cards with a choice: take, challenge or stack (classic, official 2018)
    def _stacks(self, card: int) -> bool:
        """May `card` be stacked on the draw card on top of the pile?"""
        if not self.stacking:
            return False
        fx, top = self.fx[card], self.discard[-1]
        if fx != self.fx[top] and not (self.stacking == 2 and fx in _DRAW_FX):
            return False
        return card >= 64 or _COLOUR_OF[card] == self.colour or _RANK_OF[card] == _RANK_OF[top]

    def _silenced(self, pos: int) -> bool:
        """Classic: holding one card without having called UNO, so it may not be played."""
        return bool(self.uncalled) and pos in self.uncalled and len(self.hands[pos]) == 1

    def _stack_refusal(self, card: int) -> RuleError:
        top = self.discard[-1]
        choice = " or challenge" if self.fx[top] == "wild_draw4" else ""
        if not self.stacking:
            why = "stacking is not played at this table"
        elif self.fx[card] not in _DRAW_FX:
            why = "only a draw card can be stacked"
        elif self.stacking == 1 and self.fx[card] != self.fx[top]:
            why = 'the same symbol only: "a +4 cannot be stacked on a +2, or vice versa"'
        else:
            why = f"it must match {C.COLOURS[self.colour]}, the colour in play"
        return RuleError(
            "stacking",
            f"You must take the {self.pending} cards{choice}: {C.name(card)} cannot be stacked "
            f"on {C.name(top)} ({why}).",
        )

    def _respond(self, pos: int, draw4: bool) -> None:
        """The next player must take `pending` cards and lose their turn, unless they may
        challenge (a Wild Draw 4) or stack; with no choice the engine takes them at once."""
        victim = (pos + self.direction) % self.k
        self.actor = pos
        if draw4 or (self.stacking and any(self._stacks(c) for c in self.hands[victim])):
            self.phase = RESPOND
            self.cur = victim
        else:
            self._owe(victim, self.pending)
            self.pending = 0
            self._advance(victim, 1)

    def _challenge_draw4(self, pos: int) -> None:
        n, self.pending = self.pending, 0
        if self.vd4_guilty:
            # "the challenged player must draw the four cards instead before play continues"
            self._owe(self.actor, n)
            self.phase = PLAY  # the challenger plays their turn
        else:
            # "the challenger must instead draw 6 cards AND miss their turn" (2018); classic:
            # "draw 4 ... Additionally ... 2 extra cards ... He may then discard as usual."
            self._owe(pos, n + 2)
            if self.rules.failed_challenge_loses_turn:
                self._advance(pos, 1)
            else:
                self.phase = PLAY

    def _do_flip(self, pos: int) -> None:
        """Vegas: "the next player in turn order flips over the top card from the Draw Pile. The
        card they turn over determines what happens next." The flipper keeps the card."""
        self.turns += 1
        if self.catchable:
            self.catchable.clear()  # taking a card from the Draw Pile begins the turn
        self.phase = PLAY
        if not self.draw:
            return  # every other card is in a hand: nothing to turn over (RULES-MAP: vegas)
        card = self.draw.pop()
        self._give(pos, card)
        rank, fx, k = _RANK_OF[card], self.fx[card], self.k
        if card < 64 and rank < 10:
            self._owe(pos, rank)  # "draws a number of cards equal to the number on the card"
        elif fx == "skip":
            if k == 2:  # "The player that plays the Vegas card has to draw the ten cards"
                self._owe(self.actor, 10)
                self._advance(pos, 1)
            else:  # "They also skip their turn. The next player ... adds the ten drawn cards"
                self._owe((pos + self.direction) % k, 10)
                self._advance(pos, 2)
        elif fx == "reverse":
            # "the player who played the Vegas card has to draw the ten cards ... You will also
            # reverse turn order."
            self._owe(self.actor, 10)
            self.direction = -self.direction
            if k == 2:
                self.cur = self.actor
        else:  # "Draw 2, Wild, Wild Draw 4: ... has to draw ten cards in addition to the card"
            self._owe(pos, 10)

    def _swap(self, a: int, b: int) -> None:
        hands = self.hands
        hands[a], hands[b] = hands[b], hands[a]
        self.catchable.clear()  # a received hand owes no UNO call (RULES-MAP: swap-uno)
        self.uncalled.clear()

    def _give(self, pos: int, card: int) -> None:
        self.hands[pos].append(card)
        if self.catchable and pos in self.catchable:
            self.catchable.remove(pos)
        if self.uncalled and pos in self.uncalled:
            self.uncalled.remove(pos)

    def _settle_draws(self) -> None:
        """Deal out owed penalty cards; when the DRAW pile runs out, wait for the reshuffle
        ("If no one is out of cards by the time the DRAW pile is depleted, reshuffle")."""
        owed, draw = self.owed, self.draw
        while owed:
            entry = owed[0]
            pos, n = entry
            while n and draw:
                self._give(pos, draw.pop())
                n -= 1
            if n:
                entry[1] = n
                if len(self.discard) > 1:
                    self._await_reshuffle()
                    return
                owed.clear()  # every card is in a hand: nothing left to draw
                break
            owed.pop(0)
        if not draw and len(self.discard) > 1 and self.phase != OVER:
            self._await_reshuffle()

    def _await_reshuffle(self) -> None:
        if self.phase != RESHUFFLE:
            self.resume = self.phase
            self.phase = RESHUFFLE

    def all_cards(self) -> list[int]:
        return [c for h in self.hands for c in h] + self.draw + self.discard


_MATCHING = [
    frozenset(c for c in range(C.NCARDS) if C.CODE_OF[c] and C.matches(c, colour, rank))
    for colour in range(4)
    for rank in range(80)
]
"""Cards that may be laid on a top card, by colour in play * 80 + the top card's rank."""
_COLOUR_PLAYS = {w: [w * 8 + colour * 2 for colour in range(4)] for w in range(64, C.NCARDS)}


def _variants(acts: list[int], card: int, two: bool, namer: Sequence[bool]) -> None:
    """Append the play actions for one card: a Wild names a colour; UNO with the next-to-last."""
    base = card * 8
    if namer[card]:
        for colour in range(4):
            acts.append(base + colour * 2)
            if two:
                acts.append(base + colour * 2 + 1)
    else:
        acts.append(base)
        if two:
            acts.append(base + 1)


def _uno_first() -> RuleError:
    return RuleError(
        "uno-first",
        "Call UNO first: \"A player cannot win if he forgets to declare Uno because he is not "
        'allowed to discard his last card until he does so."',
    )


def _card_name(card: int) -> str:
    return C.name(card) if 0 <= card < C.NCARDS and C.CODE_OF[card] else f"card {card}"


# ---------------------------------------------------------------------- card effects
def _fx_number(h: Hand, pos: int, card: int) -> None:
    h._advance(pos, 1)


def _fx_skip(h: Hand, pos: int, card: int) -> None:
    # "the next person in line to play after this card is skipped"; with two players, "you may
    # immediately play another card"
    h._advance(pos, 2)


def _fx_reverse(h: Hand, pos: int, card: int) -> None:
    if h.k == 2:
        h._advance(pos, 2)  # "Playing a Reverse card works like playing a Skip card."
    else:
        h.direction = -h.direction
        h._advance(pos, 1)


def _fx_tinker_bell(h: Hand, pos: int, card: int) -> None:
    """Draw 2, Wild Discard All and Villain Draw 4: the player hits the Tinker Bell Button."""
    h.phase = TINKER
    h.trigger = card
    h.actor = h.cur = pos


def _fx_villain(h: Hand, pos: int, card: int) -> None:
    _fx_tinker_bell(h, pos, card)
    h.challenge_open = True  # "Reneging": until Tinker Bell chooses


def _fx_draw2(h: Hand, pos: int, card: int) -> None:
    # "The next player is forced to draw 2 cards from the stock pile then end his turn"
    h.pending += 2
    h._respond(pos, False)


def _fx_wild_draw4(h: Hand, pos: int, card: int) -> None:
    # "the next player must Draw 4 cards then end his turn", unless they challenge
    h.pending += 4
    h._respond(pos, True)


def _fx_swap_hands(h: Hand, pos: int, card: int) -> None:
    """Seven-O's 7 (and a Wild Customizable "swap hands"): "swap hands with another player of
    their choice". With two players there is no choice: the engine swaps at once."""
    if h.k == 2:
        h._swap(pos, 1 - pos)
        h._advance(pos, 1)
    else:
        h.phase = TARGET
        h.trigger = card
        h.actor = h.cur = pos


def _fx_pass_hands(h: Hand, pos: int, card: int) -> None:
    """Seven-O's 0: "all players pass their hands to the next player in the current direction"."""
    k, d, old = h.k, h.direction, h.hands
    h.hands = [old[(p - d) % k] for p in range(k)]
    h.catchable.clear()
    h.uncalled.clear()
    h._advance(pos, 1)


def _fx_vegas(h: Hand, pos: int, card: int) -> None:
    """Vegas: the next player turns over the top card of the Draw Pile (a `flip`)."""
    h.phase = FLIP
    h.actor = pos
    h.cur = (pos + h.direction) % h.k


def _fx_shuffle_hands(h: Hand, pos: int, card: int) -> None:
    """Wild Shuffle Hands: "collect all cards held ... shuffles and re-deals them" (chance)."""
    h.phase = SHUFFLE
    h.actor = h.cur = pos


_EFFECTS = {
    "number": _fx_number,
    "skip": _fx_skip,
    "reverse": _fx_reverse,
    "wild": _fx_number,
    "draw2_tinker_bell": _fx_tinker_bell,
    "wild_discard_all": _fx_tinker_bell,
    "villain_draw4": _fx_villain,
    "draw2": _fx_draw2,
    "wild_draw4": _fx_wild_draw4,
    "swap_hands": _fx_swap_hands,
    "pass_hands": _fx_pass_hands,
    "shuffle_hands": _fx_shuffle_hands,
    "vegas": _fx_vegas,
}
_NO_COLOUR = frozenset({"villain_draw4", "wild_discard_all"})  # Tinker Bell picks the colour

_FX_CACHE: dict[tuple, tuple] = {}


def _effect_table(rules: Ruleset, opts: Mapping[str, Any]) -> tuple:
    """(effect name per card id, effect function per card id, names-a-colour per card id, the
    colour-naming cards of the deck) for this ruleset and its options. Effects come by card id
    first, then by rank; house rules (Seven-O, the Wild Customizable card) overlay them."""
    seven_o, custom = bool(opts.get("seven_o")), opts.get("wild_customizable")
    key = (rules.name, seven_o, custom)
    cached = _FX_CACHE.get(key)
    if cached is None:
        effects = dict(rules.effects)
        if seven_o:
            effects[7] = "swap_hands"  # rank 7 (and the id of Red 7: the same effect)
            effects[0] = "pass_hands"
        if custom:
            effects[C.WILD_CUSTOM] = custom
        table = tuple(
            effects.get(c, effects.get(C.RANK_OF[c], "number")) if C.CODE_OF[c] else "number"
            for c in range(C.NCARDS)
        )
        unknown = set(table) - set(_EFFECTS)
        if unknown:
            raise ValueError(f"ruleset {rules.name} names effects the engine lacks: {unknown}")
        namer = tuple(c >= 64 and table[c] not in _NO_COLOUR for c in range(C.NCARDS))
        wilds = tuple(c for c in sorted(set(rules.deck)) if namer[c])
        cached = (table, tuple(_EFFECTS[n] for n in table), namer, wilds)
        _FX_CACHE[key] = cached
    return cached
