"""The search bot, for every ruleset: determinised Monte Carlo rollouts, looking only at what its
seat may see.

At each decision with a real choice the bot imagines the cards it cannot see many times over
("determinisation": `state.determinise(seat, rng)`, each ruleset's own, consistent with the
seat's observation). In each imagined world it tries every candidate action and plays on with
greedy players on every seat (chance at random, one shared seed per world so the candidates are
compared on the same luck), and takes the action with the best average result. Which actions
are worth comparing, how far a rollout goes and how its end is scored are the ruleset's hints
(`state.hints`, `engine.protocol.Hints`): a Disney hand is played out and scored by its points;
an Elite game is played a few actions on and scored by the cards held.

The budget is a number of rollouts per move (deterministic for a seed) and optionally seconds,
measured by a `clock` the caller passes in (the engine itself reads no clock).

The Disney family's hints for the search (`DisneyHints`) and its determinisation
(`determinise`: the other hands and the DRAW pile dealt at random from the cards not in the
seat's hand and not on the DISCARD pile, each hand keeping its public size) live here too.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine import actions as A
from engine import cards as C
from engine.bots import GREEDY, greedy_act, greedy_interject, offer_calls
from engine.game import Game
from engine.hand import Hand
from engine.protocol import CHANCE, GameState, Hints

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
    unseen = Counter(game.deck)
    unseen.subtract(own)
    unseen.subtract(h.discard)
    return SeatView(
        pos=pos,
        own=tuple(own),
        unseen=tuple(sorted(unseen.elements())),
        hand_sizes=tuple(len(x) for x in h.hands),
        draw_size=len(h.draw),
    )


def determinise(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of `game` whose hidden cards (other hands, the DRAW pile) are dealt at random from
    the seat's unseen cards, consistent with every public count; it keeps no record."""
    view = _view_of(game, seat)
    world = _bare(game)
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


_ROOT_VIEW: list[tuple[Game, int, SeatView]] = []
"""The root the search bot imagines this move's worlds from (`DisneyHints.root`: a private copy
nobody changes), its seat, and that seat's view, the same for every world."""


def _view_of(game: Game, seat: int) -> SeatView:
    if _ROOT_VIEW and _ROOT_VIEW[0][0] is game and _ROOT_VIEW[0][1] == seat:
        return _ROOT_VIEW[0][2]
    return seat_view(game, seat)


def _bare(game: Game) -> Game:
    """A copy that keeps no record and forgets the decks dealt (hidden, and slow to copy)."""
    g = game.clone()
    g.forget_record()
    return g


class SearchBot:
    """Flat Monte Carlo over determinised worlds with greedy rollouts; the hardest opponent."""

    name = "search"

    def __init__(
        self,
        rng: random.Random,
        rollouts: int | None = None,
        seconds: float | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        """Without a budget, the ruleset's own (`hints.rollouts`, and with a clock
        `hints.move_seconds`); a time budget alone is bounded by its time."""
        if rollouts is not None and rollouts < 1:
            raise ValueError("the search bot needs at least one rollout a move")
        if seconds is not None and clock is None:
            raise ValueError("a time budget for the search bot needs a clock")
        self._rng = random.Random(rng.getrandbits(64))
        self.rollouts = rollouts
        self.seconds = seconds
        self._clock = clock
        self.last_rollouts = 0
        """Rollouts spent on the last move (0 when there was nothing to choose)."""

    def act(self, game: GameState) -> int:
        self.last_rollouts = 0
        hints = game.hints
        candidates = hints.candidates(game, game.legal_actions())
        if len(candidates) == 1:
            return int(candidates[0])
        return self._search(game, hints, candidates)

    def _budget(self, hints: Hints[GameState]) -> tuple[int, float | None]:
        rollouts, seconds = self.rollouts, self.seconds
        if rollouts is None:
            rollouts = hints.rollouts if seconds is None else 1_000_000
            if seconds is None and self._clock is not None:
                seconds = hints.move_seconds
        return rollouts, seconds

    def _search(self, game: GameState, hints: Hints[GameState], candidates: list[int]) -> int:
        clock = self._clock
        rollouts, seconds = self._budget(hints)
        deadline = None if seconds is None or clock is None else clock() + seconds
        seat = game.current_player()
        root = hints.root(game)
        rng = self._rng
        totals = [0.0] * len(candidates)
        worlds = max(1, rollouts // len(candidates))
        last = 0.0  # how long the last imagined world took: do not start one that would overrun
        for _ in range(worlds):
            if deadline is not None:
                now = clock()  # type: ignore[misc]
                if self.last_rollouts and now + last >= deadline:
                    break
            world = root.determinise(seat, rng)
            luck = hints.luck(rng)
            for i, action in enumerate(candidates):
                trial = world.clone()
                trial.apply_action(action)
                totals[i] += hints.playout(trial, seat, random.Random(luck), world)
            self.last_rollouts += len(candidates)
            if deadline is not None:
                last = clock() - now  # type: ignore[misc]
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]

    def interject(self, game: GameState, seat: int, options: list[int]) -> int | None:
        return game.hints.interject(game, seat, options)


class DisneyHints:
    """The Disney family's judgement: the greedy bot's (`engine.bots.greedy_act`), and for the
    search a hand played out to its end and scored by its points."""

    rollouts = DEFAULT_ROLLOUTS
    move_seconds = MOVE_SECONDS
    act = staticmethod(greedy_act)
    interject = staticmethod(greedy_interject)

    @staticmethod
    def candidates(game: Game, legal: list[int]) -> list[int]:
        hand = _hand(game)
        candidates = _candidates(legal, hand.hands[hand.to_move])
        first = greedy_act(game)  # ties go to the greedy choice
        if len(candidates) > 1 and first in candidates:
            candidates.remove(first)
            candidates.insert(0, first)
        return candidates

    @staticmethod
    def root(game: Game) -> Game:
        root, seat = _bare(game), game.current_player()
        _ROOT_VIEW[:] = [(root, seat, seat_view(root, seat))]
        return root

    @staticmethod
    def luck(rng: random.Random) -> int:
        return rng.getrandbits(32)

    @staticmethod
    def playout(game: Game, seat: int, rng: random.Random, start: Game) -> float:
        return _rollout(game, seat, rng, len(start.history))


DISNEY_HINTS = DisneyHints()


def _candidates(legal: list[int], own: Sequence[int] = ()) -> list[int]:
    """The legal actions worth comparing: a card laid without calling UNO is dropped when the
    same card may be laid calling it (the call costs nothing; forgetting it risks two cards),
    and a wild names only colours still held in `own` (any colour when none is)."""
    options = set(legal)
    kept = [a for a in legal if not (a < A.DRAW and not A.UNO_SAID[a] and a + 1 in options)]
    held = {C.COLOUR_OF[c] for c in own if c < 64}  # colours of the coloured cards held
    plays = [A.CARD_OF[a] for a in kept if a < A.PROTECT]
    namers = {card for card in plays if plays.count(card) > 1}  # offered in several colours
    if not held or not namers:
        return kept
    return [
        a
        for a in kept
        if not (a < A.PROTECT and A.CARD_OF[a] in namers and A.COLOUR_NAMED[a] not in held)
    ]


def _rollout(game: Game, seat: int, rng: random.Random, hands_done: int) -> float:
    """Play the hand out with greedy players on every seat, calls out of turn offered as the
    simulations offer them (`engine.bots.offer_calls`; who speaks first shuffled by
    `random.shuffle`, as the search's kept statistics were made: tests/engine/corpus);
    `hands_done`: hands finished before it began, so a hand already won ends the rollout. Its
    value for `seat`."""
    step = getattr(game, "step", game.apply_action)
    history = game.history
    greedy = [GREEDY] * len(game.players)
    while len(history) == hands_done:
        if offer_calls(game, greedy, rng.shuffle) and len(history) != hands_done:
            break
        who = game.current_player()
        if who == CHANCE:
            game.sample_chance(rng)
        else:
            step(greedy_act(game))
    return _value(game, seat)


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
