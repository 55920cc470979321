"""The `pocket` ruleset's registry entry: classic UNO's rules renamed, and one input file (a
list of house-rule notes) to carry the generic input path through. Registered by `register()`
and removed by `unregister()`, so it lives only as long as the test that asks for it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine import registry
from engine.disney import cards as C
from engine.disney.game import Game, features_of
from engine.disney.rulesets import CLASSIC
from engine.protocol import GameState

NAME = "pocket"
RULES = CLASSIC._replace(name=NAME, title="Pocket UNO")


def parse_notes(text: str, where: str) -> list[str]:
    """One note a line; a line that is only spaces is an error naming the file and line."""
    notes = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line and not line.strip():
            raise ValueError(f"{where}, line {number}: a note of nothing but spaces")
        if line:
            notes.append(line)
    return notes


NOTES = registry.InputFile("notes", "house notes", parse_notes)
NOTES_GIVEN: list[list[str]] = []
"""The house notes each new game was given, in order (what a test asks of the entry)."""


def new_game(
    names: list[str], dealer: Any, options: Mapping[str, Any], inputs: registry.Inputs
) -> GameState:
    NOTES_GIVEN.append(list(inputs["notes"]))  # (a compiled Game takes no attribute of ours)
    return Game(RULES, names, dealer, options)


def from_header(header: Mapping[str, Any], players: list[str], options: dict[str, Any]) -> Game:
    game = Game(RULES, players, header.get("dealer", 0), options)
    if not isinstance(header.get("deck"), list):
        raise ValueError("a pocket record's header needs its 'deck'")
    game.start_hand(C.cards(header["deck"]))
    return game


def simulate(asked: registry.Simulation) -> dict[str, Any]:
    """Classic's statistics: the game pocket plays is classic's (its notes change no rule)."""
    stats = registry.get("classic").simulate(replace(asked, inputs={}))
    return {**stats, "ruleset": NAME}


ENTRY = registry.Entry(
    name=NAME,
    title=RULES.title,
    features=lambda options: features_of(RULES, options),
    new_game=new_game,
    from_header=from_header,
    simulate=simulate,
    inputs=(NOTES,),
    report=lambda stats: [f"Pocket notes: {stats.get('notes', 0)}"],
    about="Pocket UNO is classic UNO under a name of its own.",
)


def register() -> registry.Entry:
    return registry.register(ENTRY)


def unregister() -> None:
    registry.unregister(NAME)
