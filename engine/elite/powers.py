"""What an activated Elite Action Card does: each power becomes steps, each step an effect.

Who does a power: Skip, Draw and Discard fall on "the next player in current order"; Peek,
Swap Hands and Search on "another player" the activating player chooses; the other icons on
the activating player. Target: "you get to choose which other player must do the action";
Everyone: "every other player must do the action", in order of play from the next player.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.elite import knowledge
from engine.elite import steps as S
from engine.elite.cards import Icon, Power
from engine.elite.state import EliteState

ON_NEXT = frozenset({Icon.SKIP, Icon.DRAW, Icon.DISCARD})
CHOSEN = frozenset({Icon.PEEK, Icon.SWAP_HANDS, Icon.SEARCH})


def others_in_order(game: EliteState, seat: int) -> list[int]:
    return [(seat + game.direction * k) % game.n for k in range(1, game.n)]


def expand(game: EliteState, step: S.Step) -> list[S.Step]:
    """The steps of one power (read when it comes up: a Reverse before a Skip turns it)."""
    power, colour, actor = S.detail(step).power, S.detail(step).colour, step.seat
    assert power is not None
    if power.everyone:
        return [
            s
            for subject in others_in_order(game, actor)
            for s in effect_steps(power, actor, subject, colour)
        ]
    if power.target or power.icon in CHOSEN:
        return [S.step(S.TARGET, actor, power=power, colour=colour)]
    subject = (actor + game.direction) % game.n if power.icon in ON_NEXT else actor
    return effect_steps(power, actor, subject, colour)


def effect_steps(power: Power, actor: int, subject: int, colour: str | None) -> list[S.Step]:
    """One power on one subject: a choice when the book gives one, else an effect."""
    icon = power.icon
    if icon == Icon.DISCARD:  # "The next player must put one of the indicated cards" down
        return [S.step(S.DISCARD, subject, power=power, count=power.count, extra=(actor,))]
    if icon == Icon.RECOVER:
        return [S.step(S.RECOVER, subject, power=power, count=power.count)]
    if icon == Icon.SEARCH:
        return [S.step(S.SEARCH, actor, power=power, subject=subject)]
    if icon == Icon.SUBSTITUTE:
        return [S.step(S.SUBSTITUTE, actor, power=power)]
    return [S.step(S.EFFECT, actor, power=power, subject=subject, colour=colour)]


def _skip(game: EliteState, step: S.Step) -> None:
    game.skips[step.subject] += 1


def _reverse(game: EliteState, step: S.Step) -> None:
    if game.n == 2 and game.options["two_player_reverse"] == "skip":
        game.skips[1 - step.seat] += 1
    else:
        game.direction = -game.direction


def _draw(game: EliteState, step: S.Step) -> None:
    power = S.detail(step).power
    assert power is not None
    game.owed.append([step.subject, power.count])


def _peek(game: EliteState, step: S.Step) -> None:
    seen = tuple(game.hands[step.subject])
    game.peeks[step.seat].append((step.subject, game.stats["turns"], seen))
    knowledge.peeked(game, step.seat, step.subject)


def _play_again(game: EliteState, step: S.Step) -> None:
    game.again = True


def _swap(game: EliteState, step: S.Step) -> None:
    a, b = step.seat, step.subject
    game.hands[a], game.hands[b] = game.hands[b], game.hands[a]
    knowledge.swapped(game, a, b)


def _refresh(game: EliteState, step: S.Step) -> None:
    """ "Discard your hand to the bottom of the Discard Pile and then draw cards from the Draw
    Pile equal to the number you discarded.\""""
    hand = game.hands[step.subject]
    game.discard[0:0] = hand
    game.hands[step.subject] = []
    knowledge.emptied(game, step.subject)
    game.owed.append([step.subject, len(hand)])


def _discard_colour(game: EliteState, step: S.Step) -> None:
    """ "Discard all cards from your hand that match this Elite Action Card's color" (a dual or
    wild card's colour is the one it was activated with). They go under the top card."""
    hand, colour = game.hands[step.subject], S.detail(step).colour
    matching = [c for c in hand if c.colour == colour]
    if not matching:
        return
    if len(matching) == len(hand) and game.options["discard_last_card"] == "keep":
        game.steps.insert(0, S.step(S.KEEP, step.subject, colour=colour))
        return
    for card in matching:
        hand.remove(card)
        knowledge.left(game, step.subject, card)
    under_top(game, matching)


def under_top(game: EliteState, cards: list) -> None:
    game.discard[len(game.discard) - 1 : len(game.discard) - 1] = cards


EFFECTS: dict[Icon, Callable[[EliteState, S.Step], None]] = {
    Icon.SKIP: _skip,
    Icon.REVERSE: _reverse,
    Icon.DRAW: _draw,
    Icon.PEEK: _peek,
    Icon.PLAY_AGAIN: _play_again,
    Icon.SWAP_HANDS: _swap,
    Icon.REFRESH: _refresh,
    Icon.DISCARD_COLOUR: _discard_colour,
}


def apply_effect(game: EliteState, step: S.Step) -> bool:
    """One power on one subject (`EFFECTS`, by its icon): work the runner applies."""
    game.steps.pop(0)
    power = S.detail(step).power
    assert power is not None
    EFFECTS[power.icon](game, step)
    return True
