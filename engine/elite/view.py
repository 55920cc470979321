"""What one seat may see of an Elite game (and what a kiosk may: `seat=None`).

Public: the top card and colour, pile sizes, every Lineup and Elite discard pile, Player Deck
and hand sizes, UNO calls, the draft table. Private: a seat's own hand; a hand it peeked at
(until its next turn); the top card of the Player Deck it is searching (while it chooses).
"""

from __future__ import annotations

from typing import Any

from engine.elite import actions as A
from engine.elite import events, legal
from engine.elite import steps as S
from engine.elite.cards import EliteCard
from engine.elite.state import EliteState
from engine.phases import phase_words

LOG_LINES = 12


def _elite(cards: list[EliteCard]) -> list[dict[str, Any]]:
    return [c.as_dict() for c in cards]


def _seat(game: EliteState, s: int) -> dict[str, Any]:
    return {
        "name": game.players[s],
        "hand_count": len(game.hands[s]),
        "lineup": _elite(game.lineups[s]),
        "player_deck": len(game.player_decks[s]),
        "elite_discard": _elite(game.elite_discards[s]),
        "called_uno": game.uno_state[s] == "safe",
    }


def prompt(game: EliteState) -> str:
    if game.phase == S.OVER:
        return "the game is over"
    if game.phase in S.CHANCE_PHASES:
        return f"waiting for {phase_words(game.phase)}"
    step = game.steps[0]
    return phase_words(step.kind, step.power.words() if step.power is not None else "")


def observation(game: EliteState, seat: int | None) -> dict[str, Any]:
    """Everything public, and with `seat` what that seat alone may see: its hand, the hands it
    peeked at, the card it is searching, and what it may do (`legal`: every action of the seat
    now, calls included, with its words; `moves` and `calls` as every ruleset gives them)."""
    acting = game.current_player()
    out: dict[str, Any] = {
        "ruleset": "elite",
        "mode": game.mode,
        "players": list(game.players),
        "to_move": acting if acting >= 0 else None,
        "phase": game.phase,
        "prompt": prompt(game),
        "top": game.discard[-1].as_dict() if game.discard else None,
        "colour": game.colour or None,
        "direction": game.direction,
        "draw_pile": len(game.draw),
        "discard_pile": len(game.discard),
        "seats": [_seat(game, s) for s in range(game.n)],
        "winner": game.winner,
        "log": game.log[-LOG_LINES:],
        "hand": [],
        "moves": [],
        "calls": [],
    }
    if game.mode == "draft" and game.draft.picked:
        out["draft"] = {
            "showing": _elite(game.draft.showing),
            "order": list(game.draft.order),
            "picked": [_elite(p) for p in game.draft.picked],
        }
    if seat is None:
        return out
    out["hand"] = [c.as_dict() for c in game.hands[seat]]
    if game.peeks[seat]:
        peeks = [
            {"seat": s, "hand": [c.as_dict() for c in seen]} for s, _, seen in game.peeks[seat]
        ]
        out["peeked"] = peeks[-1]
        out["peeks"] = peeks
    if game.phase == S.SEARCH and game.steps[0].seat == seat:
        target = game.steps[0].subject
        out["searched"] = {"seat": target, "card": game.player_decks[target][0].as_dict()}
    out["legal"] = [_move(game, a, seat) for a in legal.seat_actions(game, seat)]
    mine = legal.step_actions(game) if acting == seat else []
    out["moves"] = [{"a": a, "text": events.describe(game, a, seat)} for a in mine]
    calls = legal.interjections(game, seat) if acting >= 0 else []
    out["calls"] = [{"a": a, "text": events.describe(game, a, seat)} for a in calls]
    return out


def _move(game: EliteState, action: int, seat: int) -> dict[str, Any]:
    """A legal action as a display needs it: its number, its kind (`actions.decode`), its words,
    and the card it names: an UNO card's code (`card`), or the Elite card itself (`elite`)."""
    kind, arg = A.decode(action)
    move: dict[str, Any] = {
        "action": action,
        "kind": kind,
        "words": events.describe(game, action, seat),
    }
    if kind in (A.PLAY_KIND, A.CARD_KIND):
        move["card"] = game.kinds[arg].code
    elif kind == A.ELITE_KIND:
        move["elite"] = game.elite_cards[arg].as_dict()
    return move
