"""The search bot: determinised Monte Carlo rollouts, looking only at what its seat may see.

At each decision with a real choice the bot imagines the cards it cannot see many times over
("determinisation"): the other hands and the DRAW pile are dealt at random from the cards not in
its hand and not on the DISCARD pile, each hand keeping its public size. In each imagined deal it
tries every candidate action and plays the hand out with greedy players on every seat (Tinker
Bell and reshuffles at random, one shared seed per deal so the candidates are compared on the
same luck). It takes the action with the best average result: the points of the hand, from its
own side, plus a bonus for winning the hand and the game.

The budget is a number of rollouts per move (deterministic for a seed) and optionally seconds,
measured by a `clock` the caller passes in (the engine itself reads no clock).

What a seat may see is read in one place, `seat_view` / `imagine`: re-point them when the
engine's state changes shape.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine import actions as A
from engine.bots import GreedyBot
from engine.game import CHANCE, Game
from engine.hand import Hand

DEFAULT_ROLLOUTS = 400
"""Rollouts a move by default (about 0.1 s on the development machine; a clock caps it)."""
MOVE_SECONDS = 0.15
"""With a clock and no budget given, a move also stops after this long (digital play answers
within 300 ms)."""
WIN_HAND = 0.5
"""Value of winning the hand, beside its points (points / 100)."""
WIN_GAME = 5.0
"""Value of winning the game (the rollout's hand ends it)."""


@dataclass(frozen=True)
class SeatView:
    """What one seat knows: its own cards, the multiset of cards it cannot see, and how many
    cards each other position holds and the DRAW pile has."""

    pos: int
    own: tuple[int, ...]
    unseen: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    draw_size: int


def _hand(game: Game) -> Hand:
    if game.hand is None:
        raise ValueError("no hand has been dealt")
    return game.hand


def seat_view(game: Game, seat: int) -> SeatView:
    """The seat's knowledge: everything here is on the table or in its own hand."""
    h = _hand(game)
    pos = h.pos_of[seat]
    own = h.hands[pos]
    unseen = Counter(game.rules.deck)
    unseen.subtract(own)
    unseen.subtract(h.discard)
    return SeatView(
        pos=pos,
        own=tuple(own),
        unseen=tuple(sorted(unseen.elements())),
        hand_sizes=tuple(len(x) for x in h.hands),
        draw_size=len(h.draw),
    )


def imagine(root: Game, view: SeatView, rng: random.Random) -> Game:
    """A copy of `root` whose hidden cards (other hands, the DRAW pile) are dealt at random from
    the seat's unseen cards, consistent with every public count."""
    world = root.clone()
    h = _hand(world)
    cards = list(view.unseen)
    rng.shuffle(cards)
    at = 0
    for p, size in enumerate(view.hand_sizes):
        if p != view.pos:
            h.hands[p] = cards[at : at + size]
            at += size
    h.draw = cards[at : at + view.draw_size]
    # Whether the Draw 4 just played could be challenged is hidden too (named so before and
    # after the engine's rewrite).
    for hidden in ("draw4_reneged", "vd4_guilty"):
        if hasattr(h, hidden):
            setattr(h, hidden, False)
    return world


def _bare(game: Game) -> Game:
    """A copy that keeps no record and forgets the decks dealt (hidden, and slow to copy)."""
    g = game.clone()
    g.recording = False
    g.events = []
    g.decks = []
    if hasattr(g, "_discard_event"):
        g._discard_event = None  # the record's half-written discard event, gone with the record
    return g


class SearchBot:
    """Flat Monte Carlo over determinised deals with greedy rollouts; the hardest opponent."""

    name = "search"

    def __init__(
        self,
        rng: random.Random,
        rollouts: int | None = None,
        seconds: float | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        if rollouts is None:  # a time budget alone is bounded by its time
            rollouts = DEFAULT_ROLLOUTS if seconds is None else 1_000_000
            if seconds is None and clock is not None:
                seconds = MOVE_SECONDS
        if rollouts < 1:
            raise ValueError("the search bot needs at least one rollout a move")
        if seconds is not None and clock is None:
            raise ValueError("a time budget for the search bot needs a clock")
        self._rng = random.Random(rng.getrandbits(64))
        self.rollouts = rollouts
        self.seconds = seconds
        self._clock = clock
        self._greedy = GreedyBot()
        self.last_rollouts = 0
        """Rollouts spent on the last move (0 when there was nothing to choose)."""

    def act(self, game: Game) -> int:
        self.last_rollouts = 0
        hand = _hand(game)
        candidates = _candidates(game.legal_actions(), hand.hands[hand.to_move])
        if len(candidates) == 1:
            return candidates[0]
        first = self._greedy.act(game)  # ties go to the greedy choice
        if first in candidates:
            candidates.remove(first)
            candidates.insert(0, first)
        return self._search(game, candidates)

    def _search(self, game: Game, candidates: list[int]) -> int:
        clock = self._clock
        deadline = None if self.seconds is None or clock is None else clock() + self.seconds
        seat = game.current_player()
        view = seat_view(game, seat)
        root = _bare(game)
        rng = self._rng
        totals = [0.0] * len(candidates)
        worlds = max(1, self.rollouts // len(candidates))
        greedy = self._greedy
        hands_done = len(root.history)
        last = 0.0  # how long the last imagined deal took: do not start one that would overrun
        for _ in range(worlds):
            if deadline is not None:
                now = clock()  # type: ignore[misc]
                if self.last_rollouts and now + last >= deadline:
                    break
            world = imagine(root, view, rng)
            luck = rng.getrandbits(32)
            for i, action in enumerate(candidates):
                g = world.clone()
                g.apply_action(action)
                totals[i] += _rollout(g, seat, greedy, random.Random(luck), hands_done)
            self.last_rollouts += len(candidates)
            if deadline is not None:
                last = clock() - now  # type: ignore[misc]
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]

    def interject(self, game: Game, seat: int, options: list[int]) -> int | None:
        return self._greedy.interject(game, seat, options)


def _candidates(legal: list[int], own: Sequence[int] = ()) -> list[int]:
    """The legal actions worth comparing: a card laid without calling UNO is dropped when the
    same card may be laid calling it (the call costs nothing; forgetting it risks two cards),
    and a wild names only colours still held in `own` (any colour when none is)."""
    options = set(legal)
    kept = [a for a in legal if not (a < A.DRAW and a % 2 == 0 and a + 1 in options)]
    held = {c >> 4 for c in own if c < 64}  # colours of the coloured cards held
    plays = [a >> 3 for a in kept if a < A.PROTECT]
    namers = {card for card in plays if plays.count(card) > 1}  # offered in several colours
    if not held or not namers:
        return kept
    return [
        a for a in kept if not (a < A.PROTECT and a >> 3 in namers and (a >> 1) & 3 not in held)
    ]


def _rollout(game: Game, seat: int, bot: GreedyBot, rng: random.Random, hands_done: int) -> float:
    """Play the hand out with `bot` on every seat (`hands_done`: hands finished before it began,
    so a hand already won ends the rollout); its value for `seat`."""
    step = getattr(game, "step", game.apply_action)
    history = game.history
    interjections = game.interjections
    while len(history) == hands_done:
        offered = interjections()
        if offered:
            _interject(game, offered, bot, rng)
            if len(history) != hands_done:
                break
        who = game.current_player()
        if who == CHANCE:
            game.sample_chance(rng)
        else:
            step(bot.act(game))
    return _value(game, seat)


def _interject(
    game: Game, offered: list[tuple[int, int]], bot: GreedyBot, rng: random.Random
) -> None:
    """Out-of-turn calls, in an order left to chance, as `engine.simulate` offers them."""
    offers: dict[int, list[int]] = {}
    for who, offer in offered:
        offers.setdefault(who, []).append(offer)
    seats = list(offers)
    rng.shuffle(seats)
    for who in seats:
        action = bot.interject(game, who, offers[who])
        if action is not None:
            try:
                game.apply_action(action, who)
            except ValueError:  # RuleError: overtaken by someone faster
                continue
            return


def _value(game: Game, seat: int) -> float:
    last = game.history[-1]
    held = last["held"]
    others = [p for s, p in enumerate(held) if s != seat]
    value = (sum(others) / max(len(others), 1) - held[seat]) / 100
    if last["winner"] == seat:
        value += WIN_HAND
    winner = game.sheet.winner
    if winner is not None:
        won = seat in winner if isinstance(winner, tuple) else bool(seat == winner)
        value += WIN_GAME if won else -WIN_GAME
    return value


def parse_budget(text: str) -> tuple[int | None, float | None]:
    """`300` -> 300 rollouts a move; `200ms` or `0.2s` -> 0.2 seconds. ValueError otherwise."""
    text = text.strip().lower()
    try:
        if text.endswith("ms"):
            return None, float(text[:-2]) / 1000
        if text.endswith("s"):
            return None, float(text[:-1])
        return int(text), None
    except ValueError:
        raise ValueError(
            f"the search bot's budget is rollouts a move (search:300) or a time (search:200ms), "
            f"not {text!r}"
        ) from None
