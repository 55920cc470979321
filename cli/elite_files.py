"""UNO Elite's files: the Elite Action Cards, the UNO deck table and dynasty Player Decks.

The engine parses text (`engine.elite.parse_cards`, `parse_deck`); reading files is done here,
and every problem is an `EliteFileError` naming the file (and the line, for a parse error).
With no path, the files shipped in engine/elite/data/ are read: the Formula 1 2025 set and
the assumed 112-card deck (docs/rulesets.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.elite import EliteCard, UnoCard, parse_cards, parse_deck
from engine.elite.cards import EliteDataError

DATA = Path(__file__).resolve().parent.parent / "engine" / "elite" / "data"
CARDS = DATA / "f1-2025.tsv"
DECK = DATA / "deck.tsv"


class EliteFileError(ValueError):
    """A file that cannot be read or parsed, in a sentence."""


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise EliteFileError(f"cannot read {path}: {(exc.strerror or str(exc)).lower()}") from None
    except UnicodeDecodeError:
        raise EliteFileError(f"{path} is not UTF-8 text") from None


def load_cards(path: Path | str | None = None) -> list[EliteCard]:
    """Every Elite Action Card of a card file (None: the bundled Formula 1 2025 set)."""
    where = CARDS if path is None else Path(path)
    try:
        return parse_cards(_text(where), str(where))
    except EliteDataError as exc:
        raise EliteFileError(str(exc)) from None


def load_deck(path: Path | str | None = None) -> list[UnoCard]:
    """The UNO deck of a deck table (None: the default, assumed, 112 cards)."""
    where = DECK if path is None else Path(path)
    try:
        return parse_deck(_text(where), str(where))
    except EliteDataError as exc:
        raise EliteFileError(str(exc)) from None


def load_dynasty_deck(path: Path | str) -> list[EliteCard]:
    """One player's own Player Deck (a card file with one print per row; the construction
    rules are checked when the game is made)."""
    return load_cards(path)


def game_inputs(options: Mapping[str, Any]) -> dict[str, Any]:
    """What `EliteGame` needs besides the players, from command-line options: `deck=PATH`
    (a deck table), `cards=PATH` (a card file) and, for dynasty, `decks=PATH,PATH,...` (one
    Player Deck per seat). Returns {"options", "cards", "deck"} with the paths taken out."""
    rest = dict(options)
    deck = load_deck(rest.pop("deck", None))
    cards = load_cards(rest.pop("cards", None))
    decks = rest.pop("decks", None)
    if decks is not None:
        if not isinstance(decks, str):
            raise EliteFileError("decks=PATH,PATH,... (one dynasty Player Deck file per seat)")
        rest["decks"] = [load_dynasty_deck(p.strip()) for p in decks.split(",") if p.strip()]
    return {"options": rest, "cards": cards, "deck": deck}
