"""UNO Elite's judgement, which the bots and the search bot of every ruleset play by
(`engine.protocol.Hints`; `EliteState.hints`).

The greedy choice plays what activates its Lineup first, keeps wilds for last, always activates,
aims its powers at the player with fewest cards and drafts the strongest card; it always calls
UNO and always catches. The search compares every legal action, the greedy choice first (ties
go to it); a rollout plays `ROLLOUT_ACTIONS` actions on with greedy players, then counts cards.
How far a rollout goes decides the search's strength more than how many it plays (a game of
Elite turns on luck): in 400 quick games against greedy (bench/elite_search.py's games, other
seeds), 4 actions won 52%, 8 won 57%, 12 won 62% and 16 won 62% at 200 rollouts a move, while
400 rollouts of 8 actions won 57% too (and 12 actions at 160 rollouts 64%, on two more seeds);
with the bench's own seeds 1 and 2, 12 actions won 232 and 225 of 400 (8 actions: 231 with
seed 1, 225 with seed 2), so the gain is within the luck of 400 games. Rollouts to the end
measured weaker, their noise drowning the difference between moves.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Protocol, TypeVar

from engine.bots import GREEDY, offer_calls
from engine.elite import actions as A
from engine.elite import legal as L
from engine.elite import steps as S
from engine.elite.cards import COLOURS, Icon
from engine.elite.state import EliteState
from engine.elite.uno import UnoCard
from engine.errors import RuleError
from engine.protocol import CHANCE, GameState


class World(GameState, Protocol):
    """An Elite game as the search plays it on: the protocol, and the hands a rollout counts
    (`EliteGame`, which declares these hints, so this module cannot import it)."""

    @property
    def n(self) -> int: ...

    @property
    def hands(self) -> list[list[UnoCard]]: ...


W = TypeVar("W", bound=World)

Bot = Callable[[EliteState, int, random.Random], int]


def _legal(game: EliteState, seat: int) -> list[int]:
    legal = L.seat_actions(game, seat)
    if not legal:
        raise RuleError("turn", f"{game.players[seat]} has no move now.")
    return legal


_STRONG = {Icon.DRAW: 3, Icon.SKIP: 2, Icon.PLAY_AGAIN: 2, Icon.DISCARD: 2, Icon.SWAP_HANDS: 1}


def _elite_value(game: EliteState, action: int) -> int:
    card = game.elite_cards[action - A.ELITE]
    return sum(_STRONG.get(p.icon, 1) * p.count for p in card.powers) + len(card.colours) // 2


def greedy_bot(game: EliteState, seat: int, rng: random.Random) -> int:
    """Always calls UNO and always catches; else the greedy choice (`greedy_choice`)."""
    legal = _legal(game, seat)
    calls = [a for a in legal if A.is_call(a)]
    if calls:  # always call UNO, always catch
        return A.UNO if A.UNO in calls else calls[0]
    return greedy_choice(game, legal)


def greedy_choice(game: EliteState, legal: list[int]) -> int:
    """Plays what activates its Lineup first, keeps wilds for last, always activates, aims
    its powers at the player with fewest cards, drafts the strongest card."""
    step = game.steps[0]
    choose = _GREEDY.get(step.kind)
    return choose(game, step, legal) if choose is not None else legal[0]


def _turn(game: EliteState, step: S.Step, legal: list[int]) -> int:
    plays = [a for a in legal if a < A.DRAW]
    if not plays:
        return legal[0]
    colours = {c for card in game.lineups[step.seat] for c in card.colours}

    def worth(a: int) -> tuple[int, int, int]:
        card = game.kinds[a]
        activates = card.elite and (card.colour in colours or card.colour is None)
        return (int(activates), int(not card.wild), int(card.recover))

    return max(plays, key=worth)


def _colour(game: EliteState, step: S.Step, legal: list[int]) -> int:
    held = Counter(c.colour for c in game.hands[step.seat] if c.colour)
    lineup = Counter(c for card in game.lineups[step.seat] for c in card.colours)
    best = max(COLOURS, key=lambda c: (held[c], lineup[c]))
    return A.COLOUR + COLOURS.index(best)


def _fewest_cards(game: EliteState, step: S.Step, legal: list[int]) -> int:
    power = S.detail(step).power
    if power is not None and power.icon == Icon.SWAP_HANDS:
        return min(legal, key=lambda a: len(game.hands[a - A.TARGET]))
    if power is not None and power.icon == Icon.SEARCH:
        return max(legal, key=lambda a: len(game.player_decks[a - A.TARGET]))
    return min(legal, key=lambda a: len(game.hands[a - A.TARGET]))


def _best_elite(game: EliteState, step: S.Step, legal: list[int]) -> int:
    elites = [a for a in legal if a >= A.ELITE]
    return max(elites, key=lambda a: _elite_value(game, a)) if elites else legal[0]


def _shed(game: EliteState, step: S.Step, legal: list[int]) -> int:
    """Discard (or keep) by colour: shed a card of the colour held least, keep a wild."""
    if step.kind == S.DISCARD and legal[0] >= A.ELITE:
        return min(legal, key=lambda a: _elite_value(game, a))
    held = Counter(c.colour for c in game.hands[step.seat])
    cards = [a for a in legal if A.CARD <= a < A.ELITE]
    key = lambda a: (game.kinds[a - A.CARD].wild, held[game.kinds[a - A.CARD].colour])  # noqa: E731
    return max(cards, key=key) if step.kind == S.KEEP else min(cards, key=key)


_GREEDY: dict[str, Callable[[EliteState, S.Step, list[int]], int]] = {
    S.TURN: _turn,
    S.DRAWN: lambda g, s, legal: legal[0],  # play the card drawn
    S.COLOUR: _colour,
    S.RECOVER: _best_elite,
    S.ACTIVATE: _best_elite,
    S.TARGET: _fewest_cards,
    S.DISCARD: _shed,
    S.KEEP: _shed,
    S.SEARCH: lambda g, s, legal: A.BOTTOM,  # send another player's next card away
    S.SUBSTITUTE: _best_elite,
    S.DRAFT: _best_elite,
}


DEFAULT_ROLLOUTS = 200
"""Rollouts a move, shared by the candidates (about 50 ms a move on the development machine)."""
MOVE_SECONDS = 0.2
"""With a clock, a move also stops after this long (digital play answers within 300 ms)."""
ROLLOUT_ACTIONS = 12
"""A rollout stops after this many actions and is scored by the cards held."""


class EliteHints:
    """`engine.protocol.Hints` for UNO Elite."""

    rollouts = DEFAULT_ROLLOUTS
    move_seconds = MOVE_SECONDS

    @staticmethod
    def act(game: EliteState) -> int:
        return greedy_choice(game, L.step_actions(game))

    @staticmethod
    def interject(game: EliteState, seat: int, options: list[int]) -> int | None:
        return (A.UNO if A.UNO in options else options[0]) if options else None

    @staticmethod
    def candidates(game: EliteState, legal: list[int]) -> list[int]:
        """Every legal action, the greedy choice first: ties (a draft's rollouts, which end
        before play, all tie) go to it rather than to the lowest number."""
        if len(legal) < 2:
            return legal
        first = greedy_choice(game, legal)
        return [first, *(a for a in legal if a != first)]

    @staticmethod
    def root(game: W) -> W:
        return game  # its determinisation copies it unrecorded

    @staticmethod
    def luck(rng: random.Random) -> float:
        return rng.random()

    @staticmethod
    def playout(game: World, seat: int, rng: random.Random, start: World) -> float:
        return playout(game, seat, rng)


ELITE_HINTS = EliteHints()


def playout(game: World, seat: int, rng: random.Random) -> float:
    """Greedy bots on every seat for ROLLOUT_ACTIONS (or to the end), asked out of turn as the
    simulations ask (`engine.bots.offer_calls`: a seat's own UNO first, which greedy calls, so
    nobody is ever caught): how good for `seat`."""
    greedy = [GREEDY] * game.n
    for _ in range(ROLLOUT_ACTIONS):
        if game.is_terminal():
            return 1.0 if game.winner == seat else 0.0
        if game.current_player() == CHANCE:
            game.sample_chance(rng)
            continue
        while offer_calls(game, greedy):  # (greedy makes every call it is offered: a few)
            pass
        actor = game.current_player()
        if actor >= 0:
            game.apply_action(GREEDY.act(game), actor)
    if game.is_terminal():
        return 1.0 if game.winner == seat else 0.0
    mine = len(game.hands[seat])
    fewest = min(len(h) for s, h in enumerate(game.hands) if s != seat)
    return 0.5 + 0.5 * (fewest - mine) / (fewest + mine)
