"""The Disney family's entries in the registry (`engine.registry`): the Disney tray game,
classic, official 2018 and Elvis, one entry each, all played by `engine.disney.game.Game`.

Made on a ruleset's first lookup (`registration.py` registers their names): this module reads
only the family's data (`rulesets`, its decks and options), and what an entry does with a game
imports the game then. None of the family needs an input file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import registry
from engine.disney import rulesets
from engine.disney.stats import RATES
from engine.protocol import GameState
from engine.score_sheet import Keeping


def entry(name: str) -> registry.Entry:
    """The entry of the family's ruleset `name`."""
    return _entry(rulesets.get(name))


def _entry(rules: rulesets.Ruleset) -> registry.Entry:
    name = rules.name

    def features(options: Mapping[str, Any]) -> frozenset[str]:
        from engine.disney.game import features_of

        return features_of(rules, options)

    def new_game(
        names: list[str], dealer: Any, options: Mapping[str, Any], inputs: registry.Inputs
    ) -> GameState:
        from engine.disney.game import Game

        return Game(name, names, dealer, options)

    def simulate(asked: registry.Simulation) -> dict[str, Any]:
        from engine.disney.simulate import simulate as disney_simulate

        return disney_simulate(
            players=asked.players,
            seed=asked.seed,
            hands=asked.hands,
            games=asked.games,
            bots=asked.bots,
            options=asked.options,
            ruleset=name,
            record=asked.record,
            on_game=asked.on_game,
            on_progress=asked.on_progress,
        )

    return registry.Entry(
        name=name,
        title=rules.title,
        features=features,
        new_game=new_game,
        from_header=_from_header,
        simulate=simulate,
        rates=RATES,
        seats=(rules.min_players, rules.max_players),
        house_rules=tuple((o, HOUSE_RULES[o]) for o in HOUSE_RULES if o in rules.options),
        offers=tuple(
            _offer(option, declared)
            for option, declared in rules.options.items()
            if option not in OFFERED_APART
        ),
        score_sheet=_keeping,
    )


def _from_header(
    header: Mapping[str, Any], players: list[str], options: dict[str, Any]
) -> GameState:
    from engine.disney.game import from_header

    return from_header(header, players, options)


def _keeping() -> Keeping:
    """The family's score sheet kept by hand, imported when a table first keeps one."""
    from engine.disney.keeping import KEEPING

    return KEEPING


OFFERED_APART = ("mode", "target")
"""Options a new game's form has a control of its own for (the mode's list, "Play to")."""


def _offer(name: str, option: rulesets.Option) -> registry.Offer:
    """A house rule (`HOUSE_OPTIONS`) is titled by the form's words for it, else by its
    sentence's lead ("Seven-O: ..." is "Seven-O"); any other option by its name."""
    house = name in rulesets.HOUSE_OPTIONS
    lead, colon, _ = option.doc.partition(":")
    title = HOUSE_RULES.get(name) or (
        lead if house and colon and len(lead) <= 40 else registry.Offer.titled(name)
    )
    return registry.Offer(
        name, title, option.doc, option.default, option.choices, option.bounds, house
    )


HOUSE_RULES = {
    "six_smackdown": "6-Smackdown (a 6 played: everyone slaps it, the last hand draws 2)"
}
"""The house rules a new game's form offers as a box to tick, where a ruleset has them (the rest
of the options are the command line's and the table's)."""
