"""The games digital play can start, by ruleset name: which engine makes which ruleset's game is
the engine's own factory's choice (`engine.factory`). Everything after the start reads the game
through the protocol and its declared `features`, never its name.

The engine reads no files and neither does digital play: UNO Elite's Action Cards and deck are
loaded by the command line (`cli.elite_files`) and handed down as an `EliteBox`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from engine import factory, record
from engine.disney import rulesets
from engine.elite import EliteCard, UnoCard
from engine.protocol import GameState
from scoreboard.names import MAX_GAME_NAME

RULESETS = f"{', '.join(rulesets.PLAYED[:-1])} or {rulesets.PLAYED[-1]}"


@dataclasses.dataclass(frozen=True)
class EliteBox:
    """What is in UNO Elite's box: the Elite Action Cards (quick play and the draft deal from
    them) and the 112 UNO cards (None: the engine's default deck)."""

    cards: Sequence[EliteCard]
    deck: Sequence[UnoCard] | None = None


def new_game(
    ruleset: str, names: list[str], dealer: Any, options: Mapping[str, Any] | None, box: Any
) -> GameState:
    """A new game of `ruleset`. ValueError, naming the problem, for a ruleset, options or a
    table the engine refuses."""
    if not factory.card_files(ruleset):
        return factory.new_game(ruleset, names, dealer, options)  # ValueError: bad ruleset ...
    if box is None:
        raise ValueError("UNO Elite needs its cards: this display was started without them")
    return factory.new_game(ruleset, names, dealer, options, list(box.cards), box.deck)


def replay(header: Any, events: Sequence[dict[str, Any]]) -> GameState:
    """A game rebuilt from its record, by the engine its header names (RecordError, KeyError,
    ValueError... if it does not replay)."""
    if not isinstance(header, dict):
        raise ValueError("its record's header is not an object")
    return record.replay_objects(enumerate((header, *events), start=1))[0]


def title(ruleset: str) -> str:
    """The ruleset's name for a person ("UNO Elite", "Disney UNO with the Tinker Bell tray")."""
    return factory.title(ruleset)


def kept_name(ruleset: str, players: Sequence[str]) -> str:
    """The name a digital game is kept under in the journal's list of games: its rules and its
    players ("UNO Elite: Player 1, Bot Bea, Bot Cy"), not one "digital game" like every other.
    It fits a game's name in the journal (`MAX_GAME_NAME`): where every name would not, the first
    names and how many more ("UNO Elite: Annabelle-Marie, Bot Bartholomew +2")."""
    head = f"{title(ruleset)}: "
    for shown in range(len(players), 0, -1):
        more = f" +{len(players) - shown}" if shown < len(players) else ""
        kept = f"{head}{', '.join(players[:shown])}{more}"
        if len(kept) <= MAX_GAME_NAME:
            return kept
    return kept[: MAX_GAME_NAME - 1] + "…"
