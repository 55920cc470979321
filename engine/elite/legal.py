"""What each seat may do now, and why anything else is refused (before anything changes)."""

from __future__ import annotations

from collections.abc import Callable

from engine.elite import actions as A
from engine.elite import steps as S
from engine.elite.kinds import STEP_KINDS
from engine.elite.state import EliteState
from engine.errors import RuleError


def for_step(game: EliteState, step: S.Step) -> list[int]:
    """The legal actions of the step's player (`engine.elite.kinds`: its kind's entry)."""
    return STEP_KINDS[step.kind].legal(game, step)


def interjections(game: EliteState, seat: int) -> list[int]:
    """UNO by a seat holding one card it has not called; a catch of any other such seat
    ("before the next player begins their turn"). Nobody's call due is the common case: one
    look at every seat's state answers it (asked for every seat after every action)."""
    if not 0 <= seat < game.n or "due" not in game.uno_state:
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


def refusal(game: EliteState, action: int, seat: int) -> tuple[str, str]:
    """The rule key and a sentence for a refused action (asked only once it is found in no list
    of the seat's): the rule actually broken, by the kind of action and the step waiting."""
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
    if kind in TAKES.get(step.kind, ()):
        return REFUSE[step.kind](game, step, kind, arg)
    asked_by = S.detail(step).power
    power = asked_by.words() if asked_by is not None else ""
    return "phase", (
        f"You can't {_VERBS[kind]} now: {game.players[seat]} must "
        f"{STEP_KINDS[step.kind].words(power)}."
    )


_VERBS = {
    A.PLAY_KIND: "play a card",
    A.DRAW_KIND: "draw",
    A.PASS_KIND: "pass",
    A.DONE_KIND: "stop",
    A.TOP_KIND: "leave a searched card on top",
    A.BOTTOM_KIND: "put a searched card at the bottom",
    A.COLOUR_KIND: "name a colour",
    A.TARGET_KIND: "choose a player",
    A.CARD_KIND: "choose an UNO card",
    A.ELITE_KIND: "choose an Elite Action Card",
}
"""What a kind of action does, in words (a refusal's: "You can't draw now")."""


def _why_turn(game: EliteState, step: S.Step, kind: str, arg: int) -> tuple[str, str]:
    if kind == A.PLAY_KIND:
        return _held(game, step, arg) or (
            "match",
            "You can only play a card if it matches at least one attribute of the top card "
            "on the Discard Pile: its color, number or symbol (Elite Icons do not count).",
        )
    if kind == A.DRAW_KIND:
        return "draw-empty", "There is nothing left to draw: the Draw and Discard Piles are empty."
    return "pass", "You may pass only when you can neither play a card nor draw one."


def _why_play_drawn(game: EliteState, step: S.Step, kind: str, arg: int) -> tuple[str, str]:
    return _held(game, step, arg) or (
        S.DRAWN,
        'After drawing, only the card drawn may be played ("If your new card can be played, '
        'then you may play it now").',
    )


def _why_recover(game: EliteState, step: S.Step, kind: str, arg: int) -> tuple[str, str]:
    if kind == A.DONE_KIND:
        return "recover-must", f"{game.players[step.seat]} must recover a card: it is not optional."
    return S.RECOVER, (
        "Recover an UNO card from under the top of the Discard Pile, or an Elite Action Card "
        "from your own Elite discard pile, as the power says."
    )


def _why_activate(game: EliteState, step: S.Step, kind: str, arg: int) -> tuple[str, str]:
    return _in_lineup(game, step, arg) or (
        "activate-colour",
        "You may ONLY activate an Elite Action Card if it matches the color of the UNO Card you "
        "played.",
    )


def _why_target(game: EliteState, step: S.Step, kind: str, arg: int) -> tuple[str, str]:
    return S.TARGET, (
        "Choose another player at the table (for a Search, one whose Player Deck has a card)."
    )


def _why_discard(game: EliteState, step: S.Step, kind: str, arg: int) -> tuple[str, str]:
    if kind == A.ELITE_KIND:
        return _in_lineup(game, step, arg) or NOT_IN_LINEUP
    return _held(game, step, arg) or (
        "discard-last-card",
        "Your last UNO card is kept: at this table a player never discards it (discard_last_card).",
    )


def _why_keep(game: EliteState, step: S.Step, kind: str, arg: int) -> tuple[str, str]:
    return _held(game, step, arg) or NOT_IN_HAND


def _why_substitute(game: EliteState, step: S.Step, kind: str, arg: int) -> tuple[str, str]:
    return S.SUBSTITUTE, (
        "Exchange it with an Elite Action Card in your own Elite discard pile with a different "
        "Elite Action Symbol."
    )


def _why_draft(game: EliteState, step: S.Step, kind: str, arg: int) -> tuple[str, str]:
    return S.DRAFT, "Draft one of the Elite Action Cards showing on the table."


Refuse = Callable[[EliteState, S.Step, str, int], tuple[str, str]]
REFUSE: dict[str, Refuse] = {
    S.TURN: _why_turn,
    S.DRAWN: _why_play_drawn,
    S.RECOVER: _why_recover,
    S.ACTIVATE: _why_activate,
    S.TARGET: _why_target,
    S.DISCARD: _why_discard,
    S.KEEP: _why_keep,
    S.SUBSTITUTE: _why_substitute,
    S.DRAFT: _why_draft,
}
"""Why an action of a kind the step takes is refused, by step: the rule it breaks."""
TAKES: dict[str, frozenset[str]] = {
    S.TURN: frozenset({A.PLAY_KIND, A.DRAW_KIND, A.PASS_KIND}),
    S.DRAWN: frozenset({A.PLAY_KIND}),
    S.RECOVER: frozenset({A.CARD_KIND, A.ELITE_KIND, A.DONE_KIND}),
    S.ACTIVATE: frozenset({A.ELITE_KIND}),
    S.TARGET: frozenset({A.TARGET_KIND}),
    S.DISCARD: frozenset({A.CARD_KIND, A.ELITE_KIND}),
    S.KEEP: frozenset({A.CARD_KIND}),
    S.SUBSTITUTE: frozenset({A.ELITE_KIND}),
    S.DRAFT: frozenset({A.ELITE_KIND}),
}
"""The kinds of action each step takes (any other kind is refused by the step's phase)."""


def _held(game: EliteState, step: S.Step, arg: int) -> tuple[str, str] | None:
    """NOT_IN_HAND for a card kind the seat does not hold."""
    codes = {c.code for c in game.hands[step.seat]}
    return NOT_IN_HAND if arg >= len(game.kinds) or game.kinds[arg].code not in codes else None


def _in_lineup(game: EliteState, step: S.Step, arg: int) -> tuple[str, str] | None:
    """NOT_IN_LINEUP for an Elite card not in the seat's Lineup."""
    lineup = game.lineups[step.seat]
    if arg >= len(game.elite_cards) or game.elite_cards[arg] not in lineup:
        return NOT_IN_LINEUP
    return None
