"""The Disney family's judgement for the search bot (`engine.search`, every ruleset's): which
moves are worth comparing, a hand played out to its end with greedy players and scored by its
points, and the world a seat imagines (`determinise`: every card it cannot see dealt again,
consistent with every count it can). It reads a game as a `Match` (`engine.disney.match`):
the game offers this judgement (`Game.hints`, `Game.determinise`), so it cannot import it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from engine.bots import GREEDY, offer_calls
from engine.disney import actions as A
from engine.disney import cards as C
from engine.disney.greedy import greedy_act, greedy_interject
from engine.disney.hand import Hand
from engine.disney.match import Match
from engine.protocol import CHANCE
from engine.search import DEFAULT_ROLLOUTS, MOVE_SECONDS

WIN_HAND = 0.5
"""Value of winning the hand, beside its points (points / 100)."""
WIN_GAME = 5.0
"""Value of winning the game (the rollout's hand ends it)."""

M = TypeVar("M", bound=Match)
"""The game read (`Game`): a copy of it is one too."""


@dataclass(frozen=True)
class SeatView:
    """What one seat knows: its own cards, the multiset of cards it cannot see, and how many
    cards each other position holds and the DRAW pile has."""

    pos: int
    own: tuple[int, ...]
    unseen: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    draw_size: int


def _hand(game: Match) -> Hand:
    if game.hand is None:
        raise ValueError("no hand has been dealt")
    return game.hand


def seat_view(game: Match, seat: int) -> SeatView:
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


def determinise(game: M, seat: int, rng: random.Random) -> M:
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


_ROOT_VIEW: list[tuple[Match, int, SeatView]] = []
"""The root the search bot imagines this move's worlds from (`DisneyHints.root`: a private copy
nobody changes), its seat, and that seat's view, the same for every world."""


def _view_of(game: Match, seat: int) -> SeatView:
    if _ROOT_VIEW and _ROOT_VIEW[0][0] is game and _ROOT_VIEW[0][1] == seat:
        return _ROOT_VIEW[0][2]
    return seat_view(game, seat)


def _bare(game: M) -> M:
    """A copy that keeps no record and forgets the decks dealt (hidden, and slow to copy)."""
    g = game.clone()
    g.forget_record()
    return g


class DisneyHints:
    """The Disney family's judgement: the greedy bot's (`engine.bots.greedy_act`), and for the
    search a hand played out to its end and scored by its points."""

    rollouts = DEFAULT_ROLLOUTS
    move_seconds = MOVE_SECONDS
    act = staticmethod(greedy_act)
    interject = staticmethod(greedy_interject)

    @staticmethod
    def candidates(game: Match, legal: list[int]) -> list[int]:
        hand = _hand(game)
        candidates = _candidates(legal, hand.hands[hand.to_move])
        first = greedy_act(game)  # ties go to the greedy choice
        if len(candidates) > 1 and first in candidates:
            candidates.remove(first)
            candidates.insert(0, first)
        return candidates

    @staticmethod
    def root(game: M) -> M:
        root, seat = _bare(game), game.current_player()
        _ROOT_VIEW[:] = [(root, seat, seat_view(root, seat))]
        return root

    @staticmethod
    def luck(rng: random.Random) -> int:
        return rng.getrandbits(32)

    @staticmethod
    def playout(game: Match, seat: int, rng: random.Random, start: Match) -> float:
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


def _rollout(game: Match, seat: int, rng: random.Random, hands_done: int) -> float:
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


def _value(game: Match, seat: int) -> float:
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
