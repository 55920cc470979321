"""What each seat may do now, and why anything else is refused (before anything changes)."""

from __future__ import annotations

from collections.abc import Callable

from engine.elite import actions as A
from engine.elite import steps as S
from engine.elite.cards import COLOURS, Icon
from engine.elite.state import EliteState
from engine.errors import RuleError


def _kinds(game: EliteState, cards: list) -> list[int]:
    return sorted({game.kind_of[c.code] for c in cards})


def _elites(game: EliteState, cards: list) -> list[int]:
    return [A.ELITE + game.elite_index[c.id] for c in cards]


def _turn(game: EliteState, step: S.Step) -> list[int]:
    hand = game.hands[step.seat]
    acts = [A.PLAY + k for k in _kinds(game, [c for c in hand if game.is_playable(c)])]
    if can_draw(game):
        acts.append(A.DRAW)
    elif not acts:
        acts.append(A.PASS)  # nothing to play and nothing to draw
    return acts


def _drawn(game: EliteState, step: S.Step) -> list[int]:
    card = step.drawn
    assert card is not None
    return [A.PLAY + game.kind_of[card.code], A.PASS]


def _colour(game: EliteState, step: S.Step) -> list[int]:
    return [A.COLOUR + i for i in range(len(COLOURS))]


def _recover(game: EliteState, step: S.Step) -> list[int]:
    assert step.power is not None
    if step.power.on == "uno":
        acts = [A.CARD + k for k in _kinds(game, game.discard[:-1])]
    else:
        acts = _elites(game, game.elite_discards[step.seat])
    return [*acts, A.DONE] if acts and step.optional else acts


def _activate(game: EliteState, step: S.Step) -> list[int]:
    lineup = game.lineups[step.seat]
    eligible = [c for c in lineup if game.colour in c.colours]
    return [*_elites(game, eligible), A.DONE] if eligible else []


def _target(game: EliteState, step: S.Step) -> list[int]:
    assert step.power is not None
    others = [s for s in range(game.n) if s != step.seat]
    if step.power.icon == Icon.SEARCH:
        others = [s for s in others if game.player_decks[s]]
    return [A.TARGET + s for s in others]


def _discard(game: EliteState, step: S.Step) -> list[int]:
    assert step.power is not None
    if step.power.on == "elite":
        return _elites(game, game.lineups[step.seat])
    hand = game.hands[step.seat]
    if len(hand) <= 1 and game.options["discard_last_card"] == "keep":
        return []
    return [A.CARD + k for k in _kinds(game, hand)]


def _keep(game: EliteState, step: S.Step) -> list[int]:
    return [A.CARD + k for k in _kinds(game, game.hands[step.seat])]


def _search(game: EliteState, step: S.Step) -> list[int]:
    return [A.TOP, A.BOTTOM] if game.player_decks[step.subject] else []


def _substitute(game: EliteState, step: S.Step) -> list[int]:
    pile = game.elite_discards[step.seat]
    return _elites(game, [c for c in pile if Icon.SUBSTITUTE not in c.icons()])


def _draft(game: EliteState, step: S.Step) -> list[int]:
    return _elites(game, game.draft.showing)


FOR_STEP: dict[str, Callable[[EliteState, S.Step], list[int]]] = {
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


def for_step(game: EliteState, step: S.Step) -> list[int]:
    return FOR_STEP[step.kind](game, step)


def can_draw(game: EliteState) -> bool:
    return bool(game.draw) or len(game.discard) > 1


def interjections(game: EliteState, seat: int) -> list[int]:
    """UNO by a seat holding one card it has not called; a catch of any other such seat
    ("before the next player begins their turn")."""
    if not 0 <= seat < game.n:
        return []
    acts = [A.UNO] if game.uno_state[seat] == "due" else []
    acts += [A.CATCH + s for s in range(game.n) if s != seat and game.uno_state[s] == "due"]
    return acts


def step_actions(game: EliteState) -> list[int]:
    """The actions of the seat to act on the step waiting for it (no out-of-turn call)."""
    if game.phase == S.OVER or game.phase in S.CHANCE_PHASES:
        return []
    return for_step(game, game.steps[0])


def seat_actions(game: EliteState, seat: int) -> list[int]:
    """What `seat` may do now: on its step, the step's actions; and its out-of-turn calls."""
    if game.phase == S.OVER or game.phase in S.CHANCE_PHASES:
        return []
    acts = for_step(game, game.steps[0]) if seat == game.steps[0].seat else []
    return acts + interjections(game, seat)


def check(game: EliteState, action: int, seat: int | None) -> int:
    """The acting seat, once `action` is known to be legal for it; RuleError otherwise."""
    if game.phase == S.OVER:
        raise RuleError("game-over", "The game is over.")
    if game.phase in S.CHANCE_PHASES:
        raise RuleError("chance", f"The game waits for chance ({game.phase}), not a player.")
    actor = game.steps[0].seat
    who = actor if seat is None else seat
    if not isinstance(who, int) or not 0 <= who < game.n:
        raise RuleError("seat", f"There is no seat {who!r}.")
    if (who == actor and action in for_step(game, game.steps[0])) or action in interjections(
        game, who
    ):  # `seat_actions`, its calls asked for only when the step's actions did not answer
        return who
    raise RuleError(*refusal(game, action, who))


NOT_IN_HAND = (
    "not-in-hand",
    "You can only play or choose an UNO card from your own hand.",
)
NOT_IN_LINEUP = (
    "not-in-lineup",
    "You activate (or discard) only an Elite Action Card of your own Lineup, the 3 cards "
    "flipped over from your Player Deck: not one still in your Player Deck, nor one in another "
    "player's Lineup.",
)
_FROM_HAND = frozenset({S.TURN, S.DISCARD, S.KEEP})
_FROM_LINEUP = frozenset({S.ACTIVATE, S.DISCARD})


def refusal(game: EliteState, action: int, seat: int) -> tuple[str, str]:
    """The rule key and a sentence for a refused action: the rule actually broken."""
    try:
        kind, arg = A.decode(action)
    except ValueError:
        return "action", f"There is no action {action}."
    step = game.steps[0]
    if kind == A.UNO_KIND:
        return "uno-call", "Only a player holding one card who has not yet called may call UNO."
    if kind == A.CATCH_KIND:
        return "catch-window", (
            "You may catch a player only while they hold one card without having called UNO, "
            "before the next player begins their turn."
        )
    if seat != step.seat:
        return "turn", f"It is {game.players[step.seat]}'s move, not {game.players[seat]}'s."
    if kind in (A.PLAY_KIND, A.CARD_KIND) and step.kind in _FROM_HAND:
        return _from_hand(game, step, kind, arg)
    if kind == A.ELITE_KIND and step.kind in _FROM_LINEUP:
        lineup = game.lineups[step.seat]
        if arg >= len(game.elite_cards) or game.elite_cards[arg] not in lineup:
            return NOT_IN_LINEUP
        if step.kind == S.ACTIVATE:
            return "activate-colour", (
                "You may ONLY activate an Elite Action Card if it matches the color of the UNO "
                "Card you played."
            )
    return step.kind, f"That is not a choice the game is waiting for ({step.kind})."


def _from_hand(game: EliteState, step: S.Step, kind: str, arg: int) -> tuple[str, str]:
    """A card named by kind: not held at all, or held but not what the rule allows."""
    codes = {c.code for c in game.hands[step.seat]}
    if arg >= len(game.kinds) or game.kinds[arg].code not in codes:
        return NOT_IN_HAND
    if kind == A.PLAY_KIND and step.kind == S.TURN:
        return "match", (
            "You can only play a card if it matches at least one attribute of the top card on "
            "the Discard Pile: its color, number or symbol (Elite Icons do not count)."
        )
    return step.kind, f"That is not a choice the game is waiting for ({step.kind})."
