"""The Elite search bot: determinised rollouts, using only what its seat may see.

At a decision with a real choice the bot imagines the cards it cannot see ("determinisation"):
the other hands and the Draw Pile are dealt at random from the UNO cards not in its hand and
not on the Discard Pile, each hand keeping its size; the face-down Player Decks are dealt again
from the Elite cards it cannot tell apart, each deck keeping its size (in draft mode every
deck's make-up is public, as the picks were made in the open, so only their order is imagined;
in quick mode nobody knows which cards went where; in dynasty a player knows their own deck).
In each imagined world it tries every candidate action and plays a few actions on with greedy
bots on every seat, the same luck for every candidate, then scores where it got to: 1 for a win,
0 for a loss, else by how many cards it holds beside the player holding fewest. It takes the
action with the best average.

What a Peek or a Search showed is not used: the bot reasons from the table alone.
The budget is rollouts per move (deterministic for a seed), optionally capped by seconds on a
`clock` the caller passes (the engine reads no clock).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.elite import actions as A
from engine.elite.game import EliteGame
from engine.elite.hints import greedy_bot, interject

DEFAULT_ROLLOUTS = 200
"""Rollouts a move, shared by the candidates (about 0.1 s a move on the development machine)."""
MOVE_SECONDS = 0.2
"""With a clock, a move also stops after this long (digital play answers within 300 ms)."""
ROLLOUT_ACTIONS = 8
"""A rollout looks this many actions ahead, then counts cards (see `playout`): a game of Elite
turns on luck, and longer rollouts (20, 40, to the end) measured weaker against greedy, their
noise drowning the difference between moves."""
"""A rollout stops after this many actions and is scored by the cards held."""


def search_bot(
    game: EliteGame,
    seat: int,
    rng: random.Random,
    rollouts: int = DEFAULT_ROLLOUTS,
    clock: Callable[[], float] | None = None,
    seconds: float = MOVE_SECONDS,
) -> int:
    """The action with the best average over `rollouts` imagined games (at least one each)."""
    legal = game.legal_actions(seat)
    if len(legal) < 2 or any(A.is_call(a) for a in legal):  # as greedy: always call and catch
        return greedy_bot(game, seat, rng)
    deadline = None if clock is None else clock() + seconds
    totals = [0.0] * len(legal)
    tries = 0
    while tries * len(legal) < rollouts or tries == 0:
        world = imagine(game, seat, rng)
        luck = rng.random()
        for i, action in enumerate(legal):
            trial = world.clone()
            trial.apply_action(action, seat)
            totals[i] += playout(trial, seat, random.Random(luck))
        tries += 1
        if deadline is not None and clock is not None and clock() >= deadline:
            break
    best = max(range(len(legal)), key=lambda i: totals[i])
    return legal[best]


def imagine(game: EliteGame, seat: int, rng: random.Random) -> EliteGame:
    """A copy of `game` whose hidden cards are dealt again at random (`determinise`)."""
    return game.determinise(seat, rng)


def playout(game: EliteGame, seat: int, rng: random.Random) -> float:
    """Greedy bots on every seat for ROLLOUT_ACTIONS (or to the end): how good for `seat`."""
    for _ in range(ROLLOUT_ACTIONS):
        if game.is_terminal():
            return 1.0 if game.winner == seat else 0.0
        if game.is_chance_node():
            game.sample_chance(rng)
            continue
        for who in range(game.n):
            if game.uno_state[who] == "due":
                call = interject(game, who, rng, True)
                if call is not None:
                    game.apply_action(call, who)
        actor = game.current_player()
        if actor >= 0:
            game.apply_action(greedy_bot(game, actor, rng), actor)
    if game.is_terminal():
        return 1.0 if game.winner == seat else 0.0
    mine = len(game.hands[seat])
    fewest = min(len(h) for s, h in enumerate(game.hands) if s != seat)
    return 0.5 + 0.5 * (fewest - mine) / (fewest + mine)
