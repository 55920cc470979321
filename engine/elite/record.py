"""Elite game records: the header (cards, deck, options), the events, and replay.

Same file format as every ruleset (`tinker-tray-record/1`, JSON Lines; docs/record-format.md,
"UNO Elite"): the header holds everything a replay needs, the Elite cards included, so a
record replays without the card files it was played with.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.elite.cards import EliteDataError, parse_cards
from engine.elite.events import EventError
from engine.elite.game import EliteGame
from engine.elite.uno import card_of_code
from engine.errors import RuleError
from engine.record import RecordError, players_and_options, replay_with


def _rows(value: Any, what: str) -> str:
    if not isinstance(value, list) or not all(isinstance(r, str) for r in value):
        raise ValueError(f"{what} must be a list of card-file rows")
    return "\n".join(value)


def game_from_header(header: dict[str, Any], line: int = 1) -> EliteGame:
    players, options = players_and_options(header, line)
    try:
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
    except (ValueError, EliteDataError) as exc:
        raise RecordError(line, str(exc)) from None


def replay_objects(objects: Iterable[tuple[int, dict[str, Any]]]) -> tuple[EliteGame, int]:
    """Replay a parsed record: (line number, object) pairs, the header first. A broken rule
    raises RecordError with `event` set and the game before it attached as `exc.game`."""
    return replay_with(game_from_header, objects, (RuleError, EventError, ValueError))


def dumps(game: EliteGame) -> str:
    return game.record()


def summary(game: EliteGame) -> dict[str, Any]:
    """The state as `replay` prints it (docs/record-format.md, "UNO Elite")."""
    acting = game.current_player()
    return {
        "ruleset": "elite",
        "mode": game.mode,
        "turn": game.to_move,
        "direction": game.direction,
        "colour": game.colour or None,
        "discard_top": game.discard[-1].code if game.discard else None,
        "draw_pile": len(game.draw),
        "hands": {str(s): [c.code for c in h] for s, h in enumerate(game.hands)},
        "lineups": {str(s): [c.id for c in x] for s, x in enumerate(game.lineups)},
        "player_decks": {str(s): len(d) for s, d in enumerate(game.player_decks)},
        "elite_discards": {str(s): [c.id for c in x] for s, x in enumerate(game.elite_discards)},
        "awaiting": {"kind": game.phase, "seat": acting if acting >= 0 else None},
        "winner": game.winner,
        "blocked": game.blocked,
    }
