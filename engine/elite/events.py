"""Elite actions as record events and as words: the one codec both ways (docs/record-format.md,
"UNO Elite")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.elite import actions as A
from engine.elite import legal
from engine.elite import steps as S
from engine.elite.cards import COLOURS, Icon
from engine.elite.state import EliteState
from engine.errors import EventError, RuleError

_PLAIN = {
    A.DRAW_KIND: "draw",
    A.PASS_KIND: "pass",
    A.UNO_KIND: "uno",
    A.TOP_KIND: "top",
    A.BOTTOM_KIND: "bottom",
}
_BY_SEAT = {A.CATCH_KIND: "catch", A.TARGET_KIND: "target"}


def event_for(game: EliteState, action: int, seat: int) -> dict[str, Any]:
    """The record event for `action` by `seat`, read before it is applied."""
    kind, arg = A.decode(action)
    ev: dict[str, Any] = {"seat": seat}
    if kind in _PLAIN:
        ev["act"] = _PLAIN[kind]
    elif kind in _BY_SEAT:
        ev.update(act=_BY_SEAT[kind], target=arg)
    elif kind == A.PLAY_KIND:
        ev.update(act="play", card=game.kinds[arg].code)
    elif kind == A.COLOUR_KIND:
        ev.update(act="colour", colour=COLOURS[arg])
    elif kind == A.DONE_KIND:
        ev["act"] = "decline" if game.steps[0].kind == S.ACTIVATE else "done"
    elif kind == A.CARD_KIND:
        ev.update(act=game.steps[0].kind, card=game.kinds[arg].code)
    else:
        ev.update(act=game.steps[0].kind, elite=game.elite_cards[arg].id)
    return ev


_ACT_ACTION = {
    "draw": A.DRAW,
    "pass": A.PASS,
    "uno": A.UNO,
    "top": A.TOP,
    "bottom": A.BOTTOM,
    "decline": A.DONE,
    "done": A.DONE,
}
_CHOOSING = frozenset({"discard", "recover", "keep", "activate", "substitute", "draft"})


def action_for(game: EliteState, event: Mapping[str, Any]) -> tuple[int, int]:
    """(seat, action) for a record event; EventError when it is malformed, RuleError when its
    act is not what the game waits for."""
    seat = event.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise EventError("an event needs an integer 'seat' (or 'chance')")
    act = event.get("act")
    if act in _ACT_ACTION:
        action = _ACT_ACTION[str(act)]
    elif act in ("catch", "target"):
        target = event.get("target")
        if not isinstance(target, int) or isinstance(target, bool):
            raise EventError(f"a {act} event needs an integer 'target'")
        action = (A.CATCH if act == "catch" else A.TARGET) + target
    elif act == "colour":
        if event.get("colour") not in COLOURS:
            raise EventError(f"'colour' must be one of {', '.join(COLOURS)}")
        action = A.COLOUR + COLOURS.index(event["colour"])
    elif act == "play" or act in _CHOOSING:
        action = _card_action(game, event)
    else:
        raise EventError(f"unknown act {act!r}")
    if action in legal.seat_actions(game, seat):
        wanted = event_for(game, action, seat)["act"]
        if wanted != act:
            raise RuleError(game.steps[0].kind, f"The game waits for {wanted!r}, not {act!r}.")
    return seat, action


def _card_action(game: EliteState, event: Mapping[str, Any]) -> int:
    if "card" in event:
        code = event["card"]
        if not isinstance(code, str) or code not in game.kind_of:
            raise EventError(f"no UNO card {code!r} in this deck")
        return (A.PLAY if event["act"] == "play" else A.CARD) + game.kind_of[code]
    card_id = event.get("elite")
    if event["act"] == "play" or not isinstance(card_id, str):
        raise EventError(f"a {event['act']} event needs a 'card' or an 'elite' id")
    if card_id not in game.elite_index:
        raise EventError(f"no Elite Action Card {card_id!r} in this game")
    return A.ELITE + game.elite_index[card_id]


# ---------------------------------------------------------------- words
_TARGET_WORDS = {
    Icon.SKIP: "skip {}",
    Icon.DRAW: "make {} draw",
    Icon.DISCARD: "make {} discard",
    Icon.PEEK: "look at {}'s hand",
    Icon.SWAP_HANDS: "swap hands with {}",
    Icon.SEARCH: "search {}'s Player Deck",
    Icon.RECOVER: "have {} recover",
    Icon.DISCARD_COLOUR: "make {} discard their colour",
    Icon.REFRESH: "make {} refresh",
}
_ELITE_WORDS = {
    S.ACTIVATE: "activate {}",
    S.RECOVER: "put {} under the Player Deck",
    S.DISCARD: "discard {} from the Lineup",
    S.SUBSTITUTE: "take {} back into the Lineup",
    S.DRAFT: "draft {}",
}
_CARD_WORDS = {S.DISCARD: "discard {}", S.RECOVER: "take {} back", S.KEEP: "keep {}"}


def describe(game: EliteState, action: int, seat: int) -> str:
    """An action in words, as the seat choosing it reads it ("play Red 3 (Elite)")."""
    kind, arg = A.decode(action)
    step = game.steps[0] if game.steps else None
    if kind == A.PLAY_KIND:
        return f"play {game.kinds[arg].words()}"
    if kind == A.CATCH_KIND:
        return f"catch {game.players[arg]} (they did not call UNO)"
    if kind == A.TARGET_KIND:
        power = S.detail(step).power if step is not None else None
        icon = power.icon if power is not None else Icon.SKIP
        text = _TARGET_WORDS.get(icon, "choose {}").format(game.players[arg])
        if icon == Icon.DRAW and power is not None:
            text += f" {power.count}"
        return text
    if kind == A.COLOUR_KIND:
        return f"name {COLOURS[arg]}"
    where = step.kind if step is not None else ""
    if kind == A.CARD_KIND:
        return _CARD_WORDS.get(where, "choose {}").format(game.kinds[arg].words())
    if kind == A.ELITE_KIND:
        return _ELITE_WORDS.get(where, "choose {}").format(game.elite_cards[arg].short())
    return _plain_words(kind, where)


def _plain_words(kind: str, where: str) -> str:
    if kind == A.DONE_KIND:
        return "do not activate" if where == S.ACTIVATE else "stop recovering"
    if kind == A.PASS_KIND:
        return "keep the card drawn" if where == S.DRAWN else "pass (nothing to play or draw)"
    return {
        A.DRAW_KIND: "draw a card",
        A.UNO_KIND: "call UNO",
        A.TOP_KIND: "leave it on top",
        A.BOTTOM_KIND: "put it at the bottom",
    }[kind]


def words_of(game: EliteState, action: int, seat: int) -> str:
    """The log line for an action, read before it is applied: public words (a drawn or
    searched card is not named, nor the card kept in a hand)."""
    if game.steps and game.steps[0].kind == S.KEEP:
        return f"{game.players[seat]}: keep one card, discarding the rest of that colour"
    return f"{game.players[seat]}: {describe(game, action, seat)}"
