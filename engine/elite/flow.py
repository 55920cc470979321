"""How an Elite game moves: a player's action on the step waiting for it, then every step the
engine applies by itself (`WORK`, run by the core's one runner, `engine.phases.run`) until a
player (or chance) is needed again."""

from __future__ import annotations

from typing import Final

from engine.elite import actions as A
from engine.elite import legal, powers, setup
from engine.elite import steps as S
from engine.elite.kinds import STEP_KINDS
from engine.elite.state import EliteState
from engine.phases import Work
from engine.phases import run as run_queue


# ---------------------------------------------------------------- a player's action
def apply(game: EliteState, action: int, seat: int) -> None:
    """A call out of turn, or the action of the step's player: its kind's move
    (`engine.elite.kinds.STEP_KINDS`)."""
    kind, arg = A.decode(action)
    if kind == A.UNO_KIND:
        game.uno_state[seat] = "safe"
        return
    if kind == A.CATCH_KIND:  # "you must draw 2 cards!"
        game.owed.append([arg, 2])
        game.uno_state[arg] = "safe"
        return
    step = game.steps[0]
    STEP_KINDS[step.kind].apply(game, step, action)


# ---------------------------------------------------------------- what follows by itself
def _retire(game: EliteState, step: S.Step) -> bool:
    game.steps.pop(0)
    card = S.detail(step).card
    assert card is not None
    game.elite_discards[step.seat].append(card)
    return True


def _power(game: EliteState, step: S.Step) -> bool:
    game.steps[0:1] = powers.expand(game, step)
    return True


def _end_turn(game: EliteState, step: S.Step) -> bool:
    for seat in range(game.n):
        setup.refill(game, seat)
    if game.again:  # "You get to immediately take another turn."
        game.again, nxt = False, step.seat
    else:
        nxt = next_seat(game, step.seat)
    game.to_move = nxt
    now = game.stats["turns"]  # a hand peeked at stays seen until the end of the next turn
    game.peeks[step.seat] = [p for p in game.peeks[step.seat] if p[1] == now]
    game.steps[:] = [S.Step(S.TURN, nxt)]  # (in place: the runner holds the list)
    game.stats["turns"] += 1
    return True


def next_seat(game: EliteState, seat: int) -> int:
    """The next player in current order, passing over (and using up) each skipped turn."""
    s = seat
    while True:
        s = (s + game.direction) % game.n
        if game.skips[s]:
            game.skips[s] -= 1
            continue
        return s


WORK: Final[dict[str, Work[EliteState]]] = {
    S.POWER: Work(S.POWER, _power),
    S.EFFECT: Work(S.EFFECT, powers.apply_effect),
    S.RETIRE: Work(S.RETIRE, _retire),
    S.END_TURN: Work(S.END_TURN, _end_turn),
}
"""The steps UNO Elite applies by itself, by kind (every other kind is a decision, `CHOICES`)."""
SETUP_CHANCE = frozenset({S.DEAL, S.ELITE_SHUFFLE, S.PLAYER_DECKS})


def run(game: EliteState) -> None:
    """Apply every step that needs nobody (the core's runner, `WORK`), until a player or chance
    is needed; a decision with nothing to choose from does nothing and is dropped."""
    while True:
        head = run_queue(game, game.steps, WORK, _ready)
        if head is None:  # chance, or the end
            break
        if head.kind in (S.TURN, S.DRAFT) or legal.for_step(game, head):
            game.phase = head.kind
            break
        game.steps.pop(0)
    update_uno(game)


def _ready(game: EliteState) -> bool:
    """May the next step be applied? Not at the end or in the set-up's chance; not while the
    cards owed wait for a reshuffle; not once a hand is emptied by discarding."""
    if game.phase == S.OVER or game.phase in SETUP_CHANCE:
        return False
    if not settle(game) or (not game.draw and len(game.discard) > 1):
        game.phase = S.RESHUFFLE  # "reshuffle the Discard Pile to form a new Draw Pile"
        return False
    return not (game.options["discard_last_card"] == "discard" and _emptied(game))


def _emptied(game: EliteState) -> bool:
    """`discard_last_card=discard`: a hand emptied by discarding wins at once (the card being
    activated still goes to its Elite discard pile)."""
    for seat, hand in enumerate(game.hands):
        if not hand:
            for step in game.steps:
                card = S.detail(step).card
                if step.kind == S.RETIRE and card is not None:
                    game.elite_discards[step.seat].append(card)
            game.winner, game.phase, game.steps = seat, S.OVER, []
            return True
    return False


def settle(game: EliteState) -> bool:
    """Draw the cards owed, in order; False while the Draw Pile must be reshuffled first. With
    nothing left anywhere to draw, what is still owed is not drawn (`draw-empty`)."""
    while game.owed:
        seat, count = game.owed[0]
        hand = game.hands[seat]
        while count and game.draw:
            hand.append(game.draw.pop())
            count -= 1
        if count and len(game.discard) > 1:
            game.owed[0][1] = count
            return False
        game.owed.pop(0)
    return True


def update_uno(game: EliteState) -> None:
    """ "The moment you only have 1 card in your hand, you must yell UNO.\""""
    for seat, hand in enumerate(game.hands):
        if len(hand) != 1:
            game.uno_state[seat] = None
        elif game.uno_state[seat] is None and game.phase not in SETUP_CHANCE:
            game.uno_state[seat] = "due"
