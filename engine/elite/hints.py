"""Elite's own hints for its bots: a uniformly random player and a greedy one that uses its
Lineup.

`random_bot(game, seat, rng)` and `greedy_bot(game, seat, rng)` answer with one of
`game.legal_actions(seat)`, for the seat to move or for a seat out of turn (then a call: UNO
or a catch); `interject(...)` says whether a seat calls UNO or catches someone out of turn or
does nothing (None), as the simulations ask it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from engine.elite import actions as A
from engine.elite import steps as S
from engine.elite.cards import COLOURS, Icon
from engine.elite.game import EliteGame
from engine.errors import RuleError

Bot = Callable[[EliteGame, int, random.Random], int]


def _legal(game: EliteGame, seat: int) -> list[int]:
    legal = game.legal_actions(seat)
    if not legal:
        raise RuleError("turn", f"{game.players[seat]} has no move now.")
    return legal


def random_bot(game: EliteGame, seat: int, rng: random.Random) -> int:
    """Any legal action of `seat`, uniformly."""
    legal = _legal(game, seat)
    return legal[int(rng.random() * len(legal))]


_STRONG = {Icon.DRAW: 3, Icon.SKIP: 2, Icon.PLAY_AGAIN: 2, Icon.DISCARD: 2, Icon.SWAP_HANDS: 1}


def _elite_value(game: EliteGame, action: int) -> int:
    card = game.elite_cards[action - A.ELITE]
    return sum(_STRONG.get(p.icon, 1) * p.count for p in card.powers) + len(card.colours) // 2


def greedy_bot(game: EliteGame, seat: int, rng: random.Random) -> int:
    """Plays what activates its Lineup first, keeps wilds for last, always activates, aims
    its powers at the player with fewest cards, drafts the strongest card."""
    legal = _legal(game, seat)
    calls = [a for a in legal if A.is_call(a)]
    if calls:  # always call UNO, always catch
        return A.UNO if A.UNO in calls else calls[0]
    step = game.steps[0]
    choose = _GREEDY.get(step.kind)
    return choose(game, step, legal) if choose is not None else legal[0]


def _turn(game: EliteGame, step: S.Step, legal: list[int]) -> int:
    plays = [a for a in legal if a < A.DRAW]
    if not plays:
        return legal[0]
    colours = {c for card in game.lineups[step.seat] for c in card.colours}

    def worth(a: int) -> tuple[int, int, int]:
        card = game.kinds[a]
        activates = card.elite and (card.colour in colours or card.colour is None)
        return (int(activates), int(not card.wild), int(card.recover))

    return max(plays, key=worth)


def _colour(game: EliteGame, step: S.Step, legal: list[int]) -> int:
    held = Counter(c.colour for c in game.hands[step.seat] if c.colour)
    lineup = Counter(c for card in game.lineups[step.seat] for c in card.colours)
    best = max(COLOURS, key=lambda c: (held[c], lineup[c]))
    return A.COLOUR + COLOURS.index(best)


def _fewest_cards(game: EliteGame, step: S.Step, legal: list[int]) -> int:
    if step.power is not None and step.power.icon == Icon.SWAP_HANDS:
        return min(legal, key=lambda a: len(game.hands[a - A.TARGET]))
    if step.power is not None and step.power.icon == Icon.SEARCH:
        return max(legal, key=lambda a: len(game.player_decks[a - A.TARGET]))
    return min(legal, key=lambda a: len(game.hands[a - A.TARGET]))


def _best_elite(game: EliteGame, step: S.Step, legal: list[int]) -> int:
    elites = [a for a in legal if a >= A.ELITE]
    return max(elites, key=lambda a: _elite_value(game, a)) if elites else legal[0]


def _shed(game: EliteGame, step: S.Step, legal: list[int]) -> int:
    """Discard (or keep) by colour: shed a card of the colour held least, keep a wild."""
    if step.kind == S.DISCARD and legal[0] >= A.ELITE:
        return min(legal, key=lambda a: _elite_value(game, a))
    held = Counter(c.colour for c in game.hands[step.seat])
    cards = [a for a in legal if A.CARD <= a < A.ELITE]
    key = lambda a: (game.kinds[a - A.CARD].wild, held[game.kinds[a - A.CARD].colour])  # noqa: E731
    return max(cards, key=key) if step.kind == S.KEEP else min(cards, key=key)


_GREEDY: dict[str, Callable[[EliteGame, S.Step, list[int]], int]] = {
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


def interject(game: EliteGame, seat: int, rng: random.Random, greedy: bool) -> int | None:
    """UNO or a catch out of turn: the greedy bot always calls and always catches; the
    random bot does one of its options half the time."""
    options = [a for a in game.legal_actions(seat) if A.is_call(a)]
    if not options:
        return None
    if greedy:
        return A.UNO if A.UNO in options else options[0]
    return options[int(rng.random() * len(options))] if rng.random() < 0.5 else None
