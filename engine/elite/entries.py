"""UNO Elite's entry in the registry (`engine.registry`), made on its first lookup
(`registration.py` registers its name). It reads only the cards' parsers, the options and the
simulation's counts; what it does with a game imports the game then.

Its cards come in files, which the engine never reads: the entry names them (`INPUTS`: the Elite
Action Cards, the UNO deck table and, for dynasty, one Player Deck per seat), says where the
shipped ones lie (engine/elite/data/) and parses their text; the caller reads them and hands
the parsed cards over as `inputs`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from engine import registry
from engine.elite.cards import parse_cards
from engine.elite.counts import RATES
from engine.elite.options import OPTIONS
from engine.elite.uno import parse_deck
from engine.protocol import GameState

NAME = "elite"
TITLE = "UNO Elite"
# (os.path, not pathlib: a path string is all the entry gives; the caller opens it)
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")

INPUTS = (
    registry.InputFile("cards", "cards", parse_cards, default=os.path.join(DATA, "f1-2025.tsv")),
    registry.InputFile(
        "deck", "deck", parse_deck, default=os.path.join(DATA, "deck.tsv"), required=False
    ),
    registry.InputFile("decks", "dynasty Player Decks", parse_cards, many=True, required=False),
)
"""The Elite Action Cards (quick play and the draft deal from them), the 112 UNO cards (read
from the shipped table where none is given; a game handed none deals `uno.default_deck`, the
same cards), and dynasty's Player Decks (`decks=PATH,PATH,...`, one per seat; their
construction rules are checked when the game is made)."""


def _options(options: Mapping[str, Any], inputs: registry.Inputs) -> dict[str, Any]:
    """The game's options: dynasty's Player Decks travel in them (`engine.elite.setup`)."""
    given = dict(options)
    if "decks" in inputs:
        given["decks"] = inputs["decks"]
    return given


def features(options: Mapping[str, Any]) -> frozenset[str]:
    from engine.elite.game import EliteGame

    return EliteGame.features


def new_game(
    names: list[str], dealer: Any, options: Mapping[str, Any], inputs: registry.Inputs
) -> GameState:
    """A recording game (UNO Elite's deal needs no dealer: its rule book deals by chance)."""
    from engine.elite.game import EliteGame

    return EliteGame(
        players=names,
        options=_options(options, inputs),
        cards=inputs.get("cards"),
        deck=inputs.get("deck"),
        record=True,
    )


def from_header(
    header: Mapping[str, Any], players: list[str], options: dict[str, Any]
) -> GameState:
    from engine.elite.record import game_from_header

    return game_from_header(header, players, options)


def simulate(asked: registry.Simulation) -> dict[str, Any]:
    """`engine.elite.simulate.simulate`: UNO Elite's game is a single hand, so its `hands` and
    `games` agree."""
    from engine.elite.simulate import simulate as elite_simulate

    return elite_simulate(
        players=asked.players,
        seed=asked.seed,
        games=asked.count,
        bots=asked.bots,
        options=_options(asked.options, asked.inputs),
        cards=asked.inputs.get("cards"),
        deck=asked.inputs.get("deck"),
        record=asked.record,
        on_game=asked.on_game,
        on_progress=asked.on_progress,
    )


def report(stats: Mapping[str, Any]) -> list[str]:
    """A simulation's Elite Action Cards activated, and of which icon."""
    icons = ", ".join(f"{k} {v}" for k, v in sorted(stats["elite_icons"].items()))
    return [f"Elite Action Cards activated: {stats['elite_activations']} ({icons})"]


def entry() -> registry.Entry:
    """UNO Elite's entry."""
    return registry.Entry(
        name=NAME,
        title=TITLE,
        features=features,
        new_game=new_game,
        from_header=from_header,
        simulate=simulate,
        rates=RATES,
        inputs=INPUTS,
        report=report,
        modes=(("quick", "quick play"), ("draft", "draft")),
        offers=tuple(
            registry.Offer(name, registry.Offer.titled(name), "", values[0], values)
            for name, values in OPTIONS.items()
            if name != "mode"
        ),
        about="Every choice of an activation (whom to target, which card, in what order) is a "
        "move of its own, offered when the game asks for it.",
    )
