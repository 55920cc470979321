"""UNO Elite's own fields of a record's header: its UNO deck and its cards.

The record is every ruleset's (`engine.record`: `tinker-tray-record/1`, JSON Lines;
docs/record-format.md, "UNO Elite"); an Elite header holds everything a replay needs, the Elite
cards included, so a record replays without the card files it was played with. Its events are
the game's (`engine.elite.events`; chance events `engine.elite.chance`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.elite.cards import parse_cards
from engine.elite.game import EliteGame
from engine.elite.uno import card_of_code


def _rows(value: Any, what: str) -> str:
    if not isinstance(value, list) or not all(isinstance(r, str) for r in value):
        raise ValueError(f"{what} must be a list of card-file rows")
    return "\n".join(value)


def game_from_header(
    header: Mapping[str, Any], players: list[str], options: dict[str, Any]
) -> EliteGame:
    """The game an Elite header describes (its UNO deck, and its Elite cards or Player Decks as
    card-file rows); ValueError (a card file's error, naming its row) if they are bad."""
    codes = header.get("deck")
    if not isinstance(codes, list):
        raise ValueError("'deck' must be the list of the UNO cards' codes")
    deck = [card_of_code(str(c)) for c in codes]
    options = dict(options)
    cards = None
    if options.get("mode") == "dynasty":
        decks = header.get("player_decks")
        if not isinstance(decks, list):
            raise ValueError("a dynasty record needs 'player_decks'")
        options["decks"] = [
            parse_cards(_rows(d, "a Player Deck"), f"record header, seat {s}")
            for s, d in enumerate(decks)
        ]
    else:
        cards = parse_cards(_rows(header.get("elite_cards"), "'elite_cards'"), "header")
    return EliteGame(players, options, cards=cards, deck=deck, record=True)
