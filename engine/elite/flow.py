"""How an Elite game moves: a player's action on the step waiting for it, then every step the
engine applies by itself until a player (or chance) is needed again."""

from __future__ import annotations

from collections.abc import Callable

from engine.elite import actions as A
from engine.elite import knowledge, legal, powers, setup
from engine.elite import steps as S
from engine.elite.cards import COLOURS, Icon, Power
from engine.elite.state import EliteState
from engine.elite.uno import WILD_RECOVER, UnoCard

RECOVER_ELITE = Power(Icon.RECOVER, on="elite")


# ---------------------------------------------------------------- a player's action
def apply(game: EliteState, action: int, seat: int) -> None:
    kind, arg = A.decode(action)
    if kind == A.UNO_KIND:
        game.uno_state[seat] = "safe"
        return
    if kind == A.CATCH_KIND:  # "you must draw 2 cards!"
        game.owed.append([arg, 2])
        game.uno_state[arg] = "safe"
        return
    step = game.steps[0]
    ON_STEP[step.kind](game, step, kind, arg)


def _turn(game: EliteState, step: S.Step, kind: str, arg: int) -> None:
    if kind == A.PLAY_KIND:
        play(game, step.seat, game.kinds[arg])
    elif kind == A.DRAW_KIND:
        draw(game, step.seat)
    else:  # pass: nothing could be played or drawn
        game.stuck += 1
        if game.stuck >= game.n:  # a whole round: the game is blocked
            game.blocked, game.phase, game.steps = True, S.OVER, []
            game.log.append("Nobody can play or draw: the game is blocked, with no winner.")
            return
        game.steps[0] = S.Step(S.END_TURN, step.seat)


def _drawn(game: EliteState, step: S.Step, kind: str, arg: int) -> None:
    if kind == A.PLAY_KIND:
        play(game, step.seat, game.kinds[arg])
    else:
        game.steps[0] = S.Step(S.END_TURN, step.seat)


def begin_turn(game: EliteState, seat: int) -> None:
    """A play or a draw begins a turn: whoever forgot UNO before it is safe now."""
    game.stuck = 0
    for s in range(game.n):
        if s != seat and game.uno_state[s] == "due":
            game.uno_state[s] = "safe"


def play(game: EliteState, seat: int, card: UnoCard) -> None:
    hand = game.hands[seat]
    hand.remove(card)
    knowledge.left(game, seat, card)
    game.discard.append(card)
    if card.colour is not None:
        game.colour = card.colour
    begin_turn(game, seat)
    if not hand:  # "When a player plays their final UNO Card from their hand, they win."
        game.winner, game.phase, game.steps = seat, S.OVER, []
        return
    new: list[S.Step] = []
    if card.wild:
        new.append(S.Step(S.COLOUR, seat))
    if card.recover:
        up_to = card.rank == WILD_RECOVER  # "Take up to 3 ... in any order"
        new.append(
            S.Step(S.RECOVER, seat, power=RECOVER_ELITE, count=3 if up_to else 1, optional=up_to)
        )
    if card.elite:
        new.append(S.Step(S.ACTIVATE, seat))
    new.append(S.Step(S.END_TURN, seat))
    game.steps[0:1] = new


def draw(game: EliteState, seat: int) -> None:
    """ "DRAW ONE CARD ... If your new card can be played, then you may play it now.\""""
    begin_turn(game, seat)
    card = game.draw.pop()
    game.hands[seat].append(card)
    if game.is_playable(card):
        game.steps[0] = S.Step(S.DRAWN, seat, drawn=card)
    else:
        game.steps[0] = S.Step(S.END_TURN, seat)


def _colour(game: EliteState, step: S.Step, kind: str, arg: int) -> None:
    game.colour = COLOURS[arg]
    game.steps.pop(0)


def _done_one(game: EliteState, step: S.Step) -> None:
    if step.count > 1:
        game.steps[0] = step.less()
    else:
        game.steps.pop(0)


def _recover(game: EliteState, step: S.Step, kind: str, arg: int) -> None:
    if kind == A.DONE_KIND:
        game.steps.pop(0)
        return
    if kind == A.CARD_KIND:  # an UNO card from below the top of the Discard Pile
        card = game.kinds[arg]
        below = game.discard[:-1]
        del game.discard[len(below) - 1 - below[::-1].index(card)]
        game.hands[step.seat].append(card)
        knowledge.gained(game, step.seat, card)
    else:  # "put it under your Player Deck"
        elite = game.elite_cards[arg]
        game.elite_discards[step.seat].remove(elite)
        game.player_decks[step.seat].append(elite)
    _done_one(game, step)


def _activate(game: EliteState, step: S.Step, kind: str, arg: int) -> None:
    game.steps.pop(0)
    if kind == A.DONE_KIND:  # "you may choose NOT to activate"
        return
    card = game.elite_cards[arg]
    game.lineups[step.seat].remove(card)
    game.stats["elite_activations"] += 1
    icons = game.stats["icons"]
    for power in card.powers:
        icons[power.icon.value] = icons.get(power.icon.value, 0) + 1
    todo = [S.Step(S.POWER, step.seat, power=p, colour=game.colour) for p in card.powers]
    game.steps[0:0] = [*todo, S.Step(S.RETIRE, step.seat, card=card)]


def _target(game: EliteState, step: S.Step, kind: str, arg: int) -> None:
    assert step.power is not None
    game.steps[0:1] = powers.effect_steps(step.power, step.seat, arg, step.colour)


def _discard(game: EliteState, step: S.Step, kind: str, arg: int) -> None:
    """ "put one of the indicated cards in its Discard Pile. That card doesn't take effect"
    (an UNO card goes under the top card; an Elite card from the Lineup to the Elite
    discard pile)."""
    if kind == A.CARD_KIND:
        card = game.kinds[arg]
        game.hands[step.seat].remove(card)
        knowledge.left(game, step.seat, card)
        powers.under_top(game, [card])
    else:
        elite = game.elite_cards[arg]
        game.lineups[step.seat].remove(elite)
        game.elite_discards[step.seat].append(elite)
    _done_one(game, step)


def _keep(game: EliteState, step: S.Step, kind: str, arg: int) -> None:
    keep = game.kinds[arg]
    hand = game.hands[step.seat]
    rest = list(hand)
    rest.remove(keep)
    game.hands[step.seat] = [keep]
    knowledge.kept(game, step.seat, keep)
    powers.under_top(game, rest)
    game.steps.pop(0)


def _search(game: EliteState, step: S.Step, kind: str, arg: int) -> None:
    deck = game.player_decks[step.subject]
    if kind == A.BOTTOM_KIND:
        deck.append(deck.pop(0))
    game.steps.pop(0)


def _substitute(game: EliteState, step: S.Step, kind: str, arg: int) -> None:
    """ "Exchange this Elite Action Card with an Elite Action Card in your Discard Pile with a
    different Elite Action Symbol": that card joins the Lineup (this one is discarded)."""
    card = game.elite_cards[arg]
    game.elite_discards[step.seat].remove(card)
    game.lineups[step.seat].append(card)
    game.steps.pop(0)


def _draft(game: EliteState, step: S.Step, kind: str, arg: int) -> None:
    setup.draft_pick(game, game.elite_cards[arg])


ON_STEP: dict[str, Callable[[EliteState, S.Step, str, int], None]] = {
    S.TURN: _turn,
    S.DRAWN: _drawn,
    S.COLOUR: _colour,
    S.RECOVER: _recover,
    S.ACTIVATE: _activate,
    S.TARGET: _target,
    S.DISCARD: _discard,
    S.KEEP: _keep,
    S.SEARCH: _search,
    S.SUBSTITUTE: _substitute,
    S.DRAFT: _draft,
}


# ---------------------------------------------------------------- what follows by itself
def _retire(game: EliteState, step: S.Step) -> None:
    game.steps.pop(0)
    assert step.card is not None
    game.elite_discards[step.seat].append(step.card)


def _power(game: EliteState, step: S.Step) -> None:
    game.steps[0:1] = powers.expand(game, step)


def _end_turn(game: EliteState, step: S.Step) -> None:
    for seat in range(game.n):
        setup.refill(game, seat)
    if game.again:  # "You get to immediately take another turn."
        game.again, nxt = False, step.seat
    else:
        nxt = next_seat(game, step.seat)
    game.to_move = nxt
    now = game.stats["turns"]  # a hand peeked at stays seen until the end of the next turn
    game.peeks[step.seat] = [p for p in game.peeks[step.seat] if p[1] == now]
    game.steps = [S.Step(S.TURN, nxt)]
    game.stats["turns"] += 1


def next_seat(game: EliteState, seat: int) -> int:
    """The next player in current order, passing over (and using up) each skipped turn."""
    s = seat
    while True:
        s = (s + game.direction) % game.n
        if game.skips[s]:
            game.skips[s] -= 1
            continue
        return s


AUTO: dict[str, Callable[[EliteState, S.Step], None]] = {
    S.POWER: _power,
    S.EFFECT: powers.apply_effect,
    S.RETIRE: _retire,
    S.END_TURN: _end_turn,
}
SETUP_CHANCE = frozenset({S.DEAL, S.ELITE_SHUFFLE, S.PLAYER_DECKS})


def run(game: EliteState) -> None:
    """Apply every step that needs nobody, until a player or chance is needed."""
    while game.phase != S.OVER and game.phase not in SETUP_CHANCE:
        if not settle(game) or (not game.draw and len(game.discard) > 1):
            game.phase = S.RESHUFFLE  # "reshuffle the Discard Pile to form a new Draw Pile"
            break
        if game.options["discard_last_card"] == "discard" and _emptied(game):
            break
        step = game.steps[0]
        if step.kind not in S.CHOICES:
            AUTO[step.kind](game, step)
        elif step.kind in (S.TURN, S.DRAFT) or legal.for_step(game, step):
            game.phase = step.kind
            break
        else:
            game.steps.pop(0)  # a choice with nothing to choose from does nothing
    update_uno(game)


def _emptied(game: EliteState) -> bool:
    """`discard_last_card=discard`: a hand emptied by discarding wins at once (the card being
    activated still goes to its Elite discard pile)."""
    for seat, hand in enumerate(game.hands):
        if not hand:
            for step in game.steps:
                if step.kind == S.RETIRE and step.card is not None:
                    game.elite_discards[step.seat].append(step.card)
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
