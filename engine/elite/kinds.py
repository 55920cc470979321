"""UNO Elite's decisions, one kind at a time: for each, what its player may do while it is
awaited (its legal actions) and what an action then does, side by side, and their one table
(`STEP_KINDS`, by the step's kind; the words are `engine.elite.steps.WORDS`). Legality is
membership in these lists (`engine.elite.legal.check`); the steps the engine applies itself,
and the run of the queue, are `engine.elite.flow`'s.
"""

from __future__ import annotations

from typing import Final

from engine.elite import actions as A
from engine.elite import knowledge, powers, setup
from engine.elite import steps as S
from engine.elite.cards import COLOURS, Icon, Power
from engine.elite.state import EliteState
from engine.elite.uno import WILD_RECOVER, UnoCard
from engine.phases import StepKind

RECOVER_ELITE = Power(Icon.RECOVER, on="elite")


# ---------------------------------------------------------------- what the kinds share
def _kinds(game: EliteState, cards: list) -> list[int]:
    return sorted({game.kind_of[c.code] for c in cards})


def _elites(game: EliteState, cards: list) -> list[int]:
    return [A.ELITE + game.elite_index[c.id] for c in cards]


def can_draw(game: EliteState) -> bool:
    return bool(game.draw) or len(game.discard) > 1


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
            S.step(S.RECOVER, seat, power=RECOVER_ELITE, count=3 if up_to else 1, optional=up_to)
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
        game.steps[0] = S.step(S.DRAWN, seat, drawn=card)
    else:
        game.steps[0] = S.Step(S.END_TURN, seat)


def _done_one(game: EliteState, step: S.Step) -> None:
    if step.count > 1:
        game.steps[0] = step.less()
    else:
        game.steps.pop(0)


# ---------------------------------------------------------------- TURN
def _legal_turn(game: EliteState, step: S.Step) -> list[int]:
    hand = game.hands[step.seat]
    acts = [A.PLAY + k for k in _kinds(game, [c for c in hand if game.is_playable(c)])]
    if can_draw(game):
        acts.append(A.DRAW)
    elif not acts:
        acts.append(A.PASS)  # nothing to play and nothing to draw
    return acts


def _apply_turn(game: EliteState, step: S.Step, action: int) -> None:
    kind, arg = A.decode(action)
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


# ---------------------------------------------------------------- DRAWN
def _legal_drawn(game: EliteState, step: S.Step) -> list[int]:
    card = S.detail(step).drawn
    assert card is not None
    return [A.PLAY + game.kind_of[card.code], A.PASS]


def _apply_drawn(game: EliteState, step: S.Step, action: int) -> None:
    kind, arg = A.decode(action)
    if kind == A.PLAY_KIND:
        play(game, step.seat, game.kinds[arg])
    else:
        game.steps[0] = S.Step(S.END_TURN, step.seat)


# ---------------------------------------------------------------- COLOUR
def _legal_colour(game: EliteState, step: S.Step) -> list[int]:
    return [A.COLOUR + i for i in range(len(COLOURS))]


def _apply_colour(game: EliteState, step: S.Step, action: int) -> None:
    arg = A.decode(action)[1]
    game.colour = COLOURS[arg]
    game.steps.pop(0)


# ---------------------------------------------------------------- RECOVER
def _legal_recover(game: EliteState, step: S.Step) -> list[int]:
    more = S.detail(step)
    assert more.power is not None
    if more.power.on == "uno":
        acts = [A.CARD + k for k in _kinds(game, game.discard[:-1])]
    else:
        acts = _elites(game, game.elite_discards[step.seat])
    return [*acts, A.DONE] if acts and more.optional else acts


def _apply_recover(game: EliteState, step: S.Step, action: int) -> None:
    kind, arg = A.decode(action)
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


# ---------------------------------------------------------------- ACTIVATE
def _legal_activate(game: EliteState, step: S.Step) -> list[int]:
    lineup = game.lineups[step.seat]
    eligible = [c for c in lineup if game.colour in c.colours]
    return [*_elites(game, eligible), A.DONE] if eligible else []


def _apply_activate(game: EliteState, step: S.Step, action: int) -> None:
    kind, arg = A.decode(action)
    game.steps.pop(0)
    if kind == A.DONE_KIND:  # "you may choose NOT to activate"
        return
    card = game.elite_cards[arg]
    game.lineups[step.seat].remove(card)
    game.stats["elite_activations"] += 1
    icons = game.stats["icons"]
    for power in card.powers:
        icons[power.icon.value] = icons.get(power.icon.value, 0) + 1
    todo = [S.step(S.POWER, step.seat, power=p, colour=game.colour) for p in card.powers]
    game.steps[0:0] = [*todo, S.step(S.RETIRE, step.seat, card=card)]


# ---------------------------------------------------------------- TARGET
def _legal_target(game: EliteState, step: S.Step) -> list[int]:
    power = S.detail(step).power
    assert power is not None
    others = [s for s in range(game.n) if s != step.seat]
    if power.icon == Icon.SEARCH:
        others = [s for s in others if game.player_decks[s]]
    return [A.TARGET + s for s in others]


def _apply_target(game: EliteState, step: S.Step, action: int) -> None:
    arg = A.decode(action)[1]
    more = S.detail(step)
    assert more.power is not None
    game.steps[0:1] = powers.effect_steps(more.power, step.seat, arg, more.colour)


# ---------------------------------------------------------------- DISCARD
def _legal_discard(game: EliteState, step: S.Step) -> list[int]:
    power = S.detail(step).power
    assert power is not None
    if power.on == "elite":
        return _elites(game, game.lineups[step.seat])
    hand = game.hands[step.seat]
    if len(hand) <= 1 and game.options["discard_last_card"] == "keep":
        return []
    return [A.CARD + k for k in _kinds(game, hand)]


def _apply_discard(game: EliteState, step: S.Step, action: int) -> None:
    """ "put one of the indicated cards in its Discard Pile. That card doesn't take effect"
    (an UNO card goes under the top card; an Elite card from the Lineup to the Elite
    discard pile)."""
    kind, arg = A.decode(action)
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


# ---------------------------------------------------------------- KEEP
def _legal_keep(game: EliteState, step: S.Step) -> list[int]:
    return [A.CARD + k for k in _kinds(game, game.hands[step.seat])]


def _apply_keep(game: EliteState, step: S.Step, action: int) -> None:
    arg = A.decode(action)[1]
    keep = game.kinds[arg]
    hand = game.hands[step.seat]
    rest = list(hand)
    rest.remove(keep)
    game.hands[step.seat] = [keep]
    knowledge.kept(game, step.seat, keep)
    powers.under_top(game, rest)
    game.steps.pop(0)


# ---------------------------------------------------------------- SEARCH
def _legal_search(game: EliteState, step: S.Step) -> list[int]:
    return [A.TOP, A.BOTTOM] if game.player_decks[step.subject] else []


def _apply_search(game: EliteState, step: S.Step, action: int) -> None:
    kind = A.decode(action)[0]
    deck = game.player_decks[step.subject]
    if kind == A.BOTTOM_KIND:
        deck.append(deck.pop(0))
    game.steps.pop(0)


# ---------------------------------------------------------------- SUBSTITUTE
def _legal_substitute(game: EliteState, step: S.Step) -> list[int]:
    pile = game.elite_discards[step.seat]
    return _elites(game, [c for c in pile if Icon.SUBSTITUTE not in c.icons()])


def _apply_substitute(game: EliteState, step: S.Step, action: int) -> None:
    """ "Exchange this Elite Action Card with an Elite Action Card in your Discard Pile with a
    different Elite Action Symbol": that card joins the Lineup (this one is discarded)."""
    arg = A.decode(action)[1]
    card = game.elite_cards[arg]
    game.elite_discards[step.seat].remove(card)
    game.lineups[step.seat].append(card)
    game.steps.pop(0)


# ---------------------------------------------------------------- DRAFT
def _legal_draft(game: EliteState, step: S.Step) -> list[int]:
    return _elites(game, game.draft.showing)


def _apply_draft(game: EliteState, step: S.Step, action: int) -> None:
    arg = A.decode(action)[1]
    setup.draft_pick(game, game.elite_cards[arg])


STEP_KINDS: Final[dict[str, StepKind[EliteState]]] = {
    S.TURN: StepKind(S.TURN, S.WORDS[S.TURN], _legal_turn, _apply_turn),
    S.DRAWN: StepKind(S.DRAWN, S.WORDS[S.DRAWN], _legal_drawn, _apply_drawn),
    S.COLOUR: StepKind(S.COLOUR, S.WORDS[S.COLOUR], _legal_colour, _apply_colour),
    S.RECOVER: StepKind(S.RECOVER, S.WORDS[S.RECOVER], _legal_recover, _apply_recover),
    S.ACTIVATE: StepKind(S.ACTIVATE, S.WORDS[S.ACTIVATE], _legal_activate, _apply_activate),
    S.TARGET: StepKind(S.TARGET, S.WORDS[S.TARGET], _legal_target, _apply_target),
    S.DISCARD: StepKind(S.DISCARD, S.WORDS[S.DISCARD], _legal_discard, _apply_discard),
    S.KEEP: StepKind(S.KEEP, S.WORDS[S.KEEP], _legal_keep, _apply_keep),
    S.SEARCH: StepKind(S.SEARCH, S.WORDS[S.SEARCH], _legal_search, _apply_search),
    S.SUBSTITUTE: StepKind(
        S.SUBSTITUTE, S.WORDS[S.SUBSTITUTE], _legal_substitute, _apply_substitute
    ),
    S.DRAFT: StepKind(S.DRAFT, S.WORDS[S.DRAFT], _legal_draft, _apply_draft),
}
"""Every decision of UNO Elite, by its kind: its legal actions, its move, its words."""
