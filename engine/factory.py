"""The engine's one factory: a new game of any ruleset, a simulation of one, and a game made
from a record's header. The one place where a ruleset's name chooses code (UNO Elite has its
own game and header reader, `engine.elite`): the layers above (the command line, digital play)
ask here, or ask the game, never the name; a record is read and written for every ruleset by
`engine.record`, which asks here for the game its header describes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine import simulation
from engine.disney import rulesets
from engine.disney.game import Game, features_of
from engine.disney.game import from_header as disney_from_header
from engine.elite import EliteCard, EliteGame, UnoCard
from engine.elite import record as elite_record
from engine.protocol import GameState

ELITE = "elite"
"""UNO Elite's ruleset name, as a record's header writes it."""


def card_files(ruleset: str) -> bool:
    """Whether the ruleset's cards come in files that the caller reads and hands to `new_game`
    and `simulate` (`cards`, `deck`: UNO Elite's Action Cards and deck); the engine reads none."""
    return ruleset == ELITE


def title(ruleset: str) -> str:
    """The ruleset's name for a person ("UNO Elite", "Disney UNO with the Tinker Bell tray");
    ValueError for a ruleset there is not."""
    return "UNO Elite" if ruleset == ELITE else rulesets.get(ruleset).title


def features(ruleset: str, options: Mapping[str, Any] | None = None) -> frozenset[str]:
    """What a game of `ruleset` with `options` declares (`GameState.features`), before one is
    made."""
    if ruleset == ELITE:
        return EliteGame.features
    return features_of(rulesets.get(ruleset), options or {})


def new_game(
    ruleset: str,
    names: list[str],
    dealer: Any = None,
    options: Mapping[str, Any] | None = None,
    cards: Sequence[EliteCard] | None = None,
    deck: Sequence[UnoCard] | None = None,
) -> GameState:
    """A new recording game of `ruleset` (`cards`, `deck`: its files, where `card_files`).
    ValueError, naming the problem, for a ruleset, options or a table the engine refuses."""
    if ruleset == ELITE:
        return EliteGame(players=names, options=options, cards=cards, deck=deck, record=True)
    return Game(ruleset, names, dealer, options)


def simulate(
    ruleset: str,
    *,
    players: int,
    seed: int,
    hands: int | None,
    games: int | None,
    bots: Sequence[str],
    options: Mapping[str, Any],
    cards: Sequence[EliteCard] | None = None,
    deck: Sequence[UnoCard] | None = None,
    record: bool = False,
    on_game: Callable[[GameState], None] | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """The statistics of bots playing `ruleset` (`disney.simulate.simulate`; UNO Elite's game is
    a single hand, so its `hands` and `games` agree)."""
    if ruleset == ELITE:
        from engine.elite.simulate import simulate as elite_simulate

        return elite_simulate(
            players=players,
            seed=seed,
            games=hands or games or 0,
            bots=bots,
            options=options,
            cards=cards,
            deck=deck,
            record=record,
            on_game=on_game,
            on_progress=on_progress,
        )
    from engine.disney.simulate import simulate as disney_simulate

    return disney_simulate(
        players=players,
        seed=seed,
        hands=hands,
        games=games,
        bots=bots,
        options=options,
        ruleset=ruleset,
        record=record,
        on_game=on_game,
        on_progress=on_progress,
    )


def rates(ruleset: str) -> simulation.Rates:
    """The rates a simulation of `ruleset` works out from its counters (`engine.simulation`),
    for merging chunks of it."""
    if ruleset == ELITE:
        from engine.elite.simulate import RATES as elite_rates

        return elite_rates
    from engine.disney.simulate import RATES

    return RATES


def game_from_header(
    header: Mapping[str, Any], players: list[str], options: dict[str, Any]
) -> GameState:
    """A new game from a record's header, by the ruleset it names: its own fields read by
    the ruleset (a Disney deck or seed, UNO Elite's cards), `players` and `options` already
    read by `engine.record`. ValueError, naming the problem, if it is bad."""
    if header.get("ruleset") == ELITE:
        return elite_record.game_from_header(header, players, options)
    return disney_from_header(header, players, options)
