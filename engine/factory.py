"""The engine's one factory: a new game of any ruleset, a simulation of one, a game read back
from its record, and what a replay prints of it. The one place where a ruleset's name chooses
code (UNO Elite has its own game and record reader, `engine.elite`): the layers above (the
command line, digital play) ask here, or ask the game, never the name.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from engine import record, rulesets
from engine.elite import EliteCard, EliteGame, UnoCard
from engine.elite import record as elite_record
from engine.game import Game, features_of
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
    """The statistics of bots playing `ruleset` (`engine.simulate.simulate`; UNO Elite's game is
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
    from engine.simulate import simulate as disney_simulate

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


def game_from_header(header: dict[str, Any], line: int = 1) -> GameState:
    """A new game from a record's header, by the ruleset it names (RecordError if it is bad)."""
    if header.get("ruleset") == ELITE:
        return elite_record.game_from_header(header, line)
    return record.game_from_header(header, line)


def replay_objects(objects: Iterable[tuple[int, dict[str, Any]]]) -> tuple[GameState, int]:
    """Replay a parsed record of any ruleset ((line number, object) pairs, the header first): the
    game and the number of events applied. RecordError as `engine.record.replay_objects`."""
    pairs = iter(objects)
    first = next(pairs, None)
    if first is None:
        return record.replay_objects(())  # (its error: an empty record)
    rest = itertools.chain((first,), pairs)
    if first[1].get("ruleset") == ELITE:
        return elite_record.replay_objects(rest)
    return record.replay_objects(rest)


def replay(text: str) -> tuple[GameState, int]:
    """Replay a whole record (JSON Lines) of any ruleset."""
    return replay_objects(record.lines(text))


def summary(game: GameState) -> dict[str, Any]:
    """The state as `replay` prints it (docs/record-format.md), in its ruleset's terms."""
    if isinstance(game, Game):
        return game.summary()
    assert isinstance(game, EliteGame), game
    return elite_record.summary(game)
