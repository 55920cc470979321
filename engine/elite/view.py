"""What one seat may see of an Elite game (and what a kiosk may: `seat=None`).

Public: the top card and colour, pile sizes, every Lineup and Elite discard pile, Player Deck
and hand sizes, UNO calls, the draft table. Private: a seat's own hand; a hand it peeked at
(until its next turn); the top card of the Player Deck it is searching (while it chooses).
"""

from __future__ import annotations

from typing import Any

from engine import observation as shape
from engine.elite import actions as A
from engine.elite import events, legal
from engine.elite import steps as S
from engine.elite.cards import EliteCard
from engine.elite.state import EliteState
from engine.elite.uno import UnoCard

LOG_LINES = 12


def _elite(cards: list[EliteCard]) -> list[dict[str, Any]]:
    return [c.as_dict() for c in cards]


def _card(card: UnoCard) -> dict[str, Any]:
    """An UNO card as every observation shows one (`engine.observation.CARD_KEYS`)."""
    out = card.as_dict()
    out["name"] = out["words"]
    return out


def _seat(game: EliteState, s: int) -> dict[str, Any]:
    return {
        "name": game.players[s],
        "hand_count": len(game.hands[s]),
        "lineup": _elite(game.lineups[s]),
        "player_deck": len(game.player_decks[s]),
        "elite_discard": _elite(game.elite_discards[s]),
        "called_uno": game.uno_state[s] == "safe",
    }


def _shelf_card(card: EliteCard) -> dict[str, Any]:
    """An Elite card on a shelf: as `as_dict`, with its `short` name (name and colours)."""
    out = card.as_dict()
    out["short"] = card.short()
    return out


def _player(game: EliteState, s: int) -> dict[str, Any]:
    """A seat's public facts in the shape every renderer reads (`engine.observation`): its
    cards, its facts in words, its UNO! call and its shelves (the Lineup, the Elite discard
    pile)."""
    return {
        "seat": s,
        "name": game.players[s],
        "cards": len(game.hands[s]),
        "facts": [
            f"Player Deck {len(game.player_decks[s])}",
            f"Elite discards {len(game.elite_discards[s])}",
        ],
        "called_uno": game.uno_state[s] == "safe",
        "shelves": [
            {"name": "Lineup", "cards": [_shelf_card(c) for c in game.lineups[s]], "listed": True},
            {
                "name": "Elite discard pile",
                "cards": [_shelf_card(c) for c in game.elite_discards[s]],
                "listed": False,
            },
        ],
    }


def _draft_panel(game: EliteState, seat: int | None) -> dict[str, Any]:
    """The draft as a public panel: the cards showing, and what each seat has drafted."""
    notes = []
    for s, picked in enumerate(game.draft.picked):
        name = "You" if s == seat else game.players[s]
        names = ", ".join(card.name for card in picked) or "nothing yet"
        notes.append(f"{name} drafted {len(picked)}: {names}")
    showing = [_shelf_card(c) for c in game.draft.showing]
    return {"title": "Draft: the cards showing", "cards": showing, "notes": notes}


def prompt(game: EliteState, seat: int | None) -> str:
    """What the game waits for, in words, from `seat`'s point of view: a sentence, as the
    Disney games say it (`engine.disney.observer.says`), so one renderer shows either."""
    if game.phase == S.OVER:
        won = game.players[game.winner] if game.winner is not None else "nobody"
        return f"Game over: {won} won."
    if game.phase in S.CHANCE_PHASES:
        return f"Waiting for {S.phase_words(game.phase)}."
    step = game.steps[0]
    asked_by = S.detail(step).power
    what = S.phase_words(step.kind, asked_by.words() if asked_by is not None else "")
    if step.seat == seat:
        return f"Your move: {what}."
    return f"{game.players[step.seat]} to {what}."


def observation(game: EliteState, seat: int | None) -> dict[str, Any]:
    """Everything public, and with `seat` what that seat alone may see: its hand, the hands it
    peeked at, the card it is searching, and what it may do (`legal`: every action of the seat
    now, calls included, with its words; `moves` and `calls` as every ruleset gives them)."""
    out = _public(game, seat)
    if seat is not None:
        _add_seats_own(out, game, seat)
    return out


def _public(game: EliteState, seat: int | None) -> dict[str, Any]:
    """What every page may see (a kiosk's whole observation), with `seat`'s empty places for
    what only that seat sees: the prompt and the draft panel are said from its point of view."""
    acting = game.current_player()
    out: dict[str, Any] = {
        "ruleset": "elite",
        "mode": game.mode,
        "seat": seat,
        "players": [_player(game, s) for s in range(game.n)],
        "to_move": acting if acting >= 0 else None,
        "phase": game.phase,
        "prompt": prompt(game, seat),
        "top": _card(game.discard[-1]) if game.discard else None,
        "colour": game.colour or None,
        "direction": "left" if game.direction == 1 else "right",
        "draw_pile": len(game.draw),
        "discard_pile": len(game.discard),
        "seats": [_seat(game, s) for s in range(game.n)],
        "winner": game.winner,
        "log": game.log[-LOG_LINES:],
        "hand": [],
        "legal": [],
        "uno_call": True,
        "calls": [],
        "panels": [],
        "seen": [],
    }
    if game.mode == "draft" and game.draft.picked:
        out["draft"] = {
            "showing": _elite(game.draft.showing),
            "order": list(game.draft.order),
            "picked": [_elite(p) for p in game.draft.picked],
        }
        out["panels"].append(_draft_panel(game, seat))
    return out


def _add_seats_own(out: dict[str, Any], game: EliteState, seat: int) -> None:
    """Add to the public `out` what `seat` alone may see: its hand, the hands it peeked at, the
    card it is searching, and its moves and calls."""
    out["hand"] = [_card(c) for c in game.hands[seat]]
    if game.peeks[seat]:
        peeks = [
            {"seat": s, "hand": [c.as_dict() for c in seen]} for s, _, seen in game.peeks[seat]
        ]
        out["peeked"] = peeks[-1]
        out["peeks"] = peeks
        peeked, _, cards = game.peeks[seat][-1]
        out["seen"].append(
            {
                "title": f"You peeked at {game.players[peeked]}'s hand:",
                "cards": [c.as_dict() for c in cards],
            }
        )
    if game.phase == S.SEARCH and game.steps[0].seat == seat:
        target = game.steps[0].subject
        out["searched"] = {"seat": target, "card": game.player_decks[target][0].as_dict()}
        out["seen"].append(
            {"title": "You searched:", "cards": [_shelf_card(game.player_decks[target][0])]}
        )
    calls = legal.interjections(game, seat) if game.current_player() >= 0 else []
    out["legal"] = [_move(game, a, seat, a in calls) for a in legal.seat_actions(game, seat)]
    out["calls"] = [{"a": a, "text": events.describe(game, a, seat)} for a in calls]


def _move(game: EliteState, action: int, seat: int, out_of_turn: bool) -> dict[str, Any]:
    """A legal action in the shape every ruleset gives (`engine.observation.move`), its kind
    `actions.decode`'s; `card` the UNO card's code it names, and for an Elite card, the card
    itself (`elite`) and its powers (`hint`)."""
    kind, arg = A.decode(action)
    words = events.describe(game, action, seat)
    if kind in (A.PLAY_KIND, A.CARD_KIND):
        return shape.move(action, kind, words, card=game.kinds[arg].code, out_of_turn=out_of_turn)
    if kind == A.ELITE_KIND:
        elite = game.elite_cards[arg]
        hint = " + ".join(p.words() for p in elite.powers) or "no power"
        move = shape.move(action, kind, words, hint=hint, out_of_turn=out_of_turn)
        move["elite"] = elite.as_dict()
        return move
    return shape.move(action, kind, words, out_of_turn=out_of_turn)
