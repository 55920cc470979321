"""The games digital play can start, by ruleset name: which engine makes which ruleset's game is
the ruleset's registry entry's choice (`engine.registry`). Everything after the start reads the
game through the protocol, its declared `features` and its observation, never its name.

The engine reads no files and neither does digital play: the files a ruleset needs (its entry's
`inputs`: UNO Elite's Action Cards and deck) are read by the command line (cli/inputs.py) and
handed down, parsed, as a mapping.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import record, registry
from engine.protocol import GameState
from scoreboard.names import listed


def rulesets_said() -> str:
    """Every ruleset's name, for a sentence ("disney, classic, official-2018, elvis or elite")."""
    played = registry.names()
    return played[0] if len(played) == 1 else f"{', '.join(played[:-1])} or {played[-1]}"


def choices(inputs: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """What a new game's form offers, ruleset by ruleset, in the registry's order: the setup
    page draws its list of rules from this and names none itself. `tinker_bell` and `points`
    are what a game with the defaults declares (the form offers the people's press for Tinker
    Bell, and a target score); `seats`, `modes` and `house_rules` are the entry's
    (`engine.registry.Entry`); `missing` names the files this display was started without
    (`inputs`: by ruleset, as digital play holds them), so the form says why it cannot start
    that ruleset ("" if none is missing)."""
    out = []
    for name in registry.names():
        entry = registry.get(name)
        declared = entry.features({})
        out.append(
            {
                "name": name,
                "title": entry.title,
                "tinker_bell": "tinker_bell" in declared,
                "points": "points" in declared,
                "seats": list(entry.seats),
                "modes": [list(mode) for mode in entry.modes],
                "house_rules": [list(rule) for rule in entry.house_rules],
                "options": options_of(entry),
                "missing": " and ".join(f.what for f in entry.missing(inputs.get(name, {}))),
            }
        )
    return out


def options_of(entry: registry.Entry) -> list[dict[str, Any]]:
    """Every option the ruleset offers (`registry.Offer`), as the form draws it: `name`,
    `title`, `says`, `kind` ("yes-no", "choice" or "number"), `default`, `choices`, `bounds`
    and `house` (shown open; the rest fold away). A ruleset that declares no offers has its
    `house_rules` as boxes to tick."""
    offers = entry.offers or tuple(
        registry.Offer(name, words, "", False, (False, True), house=True)
        for name, words in entry.house_rules
    )
    return [
        {
            "name": offer.name,
            "title": offer.title,
            "says": offer.says,
            "kind": offer.kind,
            "default": offer.default,
            "choices": None if offer.choices is None else list(offer.choices),
            "bounds": None if offer.bounds is None else list(offer.bounds),
            "house": offer.house,
        }
        for offer in offers
    ]


def new_game(
    ruleset: str,
    names: list[str],
    dealer: Any,
    options: Mapping[str, Any] | None,
    inputs: Mapping[str, Any] | None = None,
) -> GameState:
    """A new game of `ruleset`, with the files it needs (parsed, by `InputFile.name`).
    ValueError, naming the problem, for a ruleset, a file it lacks, options or a table the
    engine refuses."""
    return registry.new_game(ruleset, names, dealer, options, inputs)


def replay(header: Any, events: Sequence[dict[str, Any]]) -> GameState:
    """A game rebuilt from its record, by the engine its header names (RecordError, KeyError,
    ValueError... if it does not replay)."""
    if not isinstance(header, dict):
        raise ValueError("its record's header is not an object")
    return record.replay_objects(enumerate((header, *events), start=1))[0]


def title(ruleset: str) -> str:
    """The ruleset's name for a person ("UNO Elite", "Disney UNO with the Tinker Bell tray")."""
    return registry.get(ruleset).title


def about(ruleset: str) -> str:
    """How the ruleset offers its moves, in a sentence for a help ("" : nothing to add)."""
    return registry.get(ruleset).about


def kept_name(ruleset: str, players: Sequence[str]) -> str:
    """The name a digital game is kept under in the journal's list of games: its rules and its
    players (`scoreboard.names.listed`), not one "digital game" like every other."""
    return listed(f"{title(ruleset)}: ", players)
