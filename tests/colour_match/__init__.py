"""Colour Match (`game.py`), registered in the engine's registry as any ruleset is: the proof
that the core, digital play, records and simulation know no ruleset by name. Nothing outside
this package mentions it; its tests register it for themselves (conftest.py) and take it away
after, so the rest of the suite sees only the shipped rulesets."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine import registry, simulation
from engine.bots import bot_names
from tests.colour_match.game import NAME, ColourMatch

COUNTERS = ("blocked_hands",)
RATES = {"average_turns_per_hand": ("turns", "hands", 2)}


def new_game(
    names: list[str], dealer: Any, options: Mapping[str, Any], inputs: registry.Inputs
) -> ColourMatch:
    other = set(options) - {"target"}
    if other:
        raise ValueError(f"Colour Match takes no option but a target (not {', '.join(other)})")
    target = options.get("target")
    if target is not None and (
        isinstance(target, bool) or not isinstance(target, int) or target < 1
    ):
        raise ValueError(f"the target is a whole number of points, not {target!r}")
    return ColourMatch(names, target=target)


def from_header(
    header: Mapping[str, Any], players: list[str], options: dict[str, Any]
) -> ColourMatch:
    return new_game(players, None, options, {})


def simulate(asked: registry.Simulation) -> dict[str, Any]:
    rng = random.Random(asked.seed)
    specs = bot_names(list(asked.bots), asked.players)
    names = [spec.partition(":")[0] for spec in specs]
    stats = simulation.new_stats(asked.players, names, COUNTERS)
    stats["ruleset"] = NAME
    for i in range(asked.count):
        game = ColourMatch([f"{n}-{s}" for s, n in enumerate(names)], record=asked.record)
        turns = simulation.play_game(game, specs, rng)
        stats["hands"] += 1
        stats["games"] += 1
        stats["turns"] += turns
        stats["decisions"] += turns
        if game.winner is None:
            stats["blocked_hands"] += 1
        else:
            for by in ("hand", "game"):
                stats[f"{by}_wins_by_seat"][game.winner] += 1
                wins = stats[f"{by}_wins_by_bot"]
                wins[names[game.winner]] = wins.get(names[game.winner], 0) + 1
        if asked.on_game is not None:
            asked.on_game(game)
        if asked.on_progress is not None:
            asked.on_progress(i + 1)
    return simulation.with_rates(stats, RATES)


ENTRY = registry.Entry(
    name=NAME,
    title="Colour Match",
    features=lambda options: frozenset({"points"}) if options.get("target") else frozenset(),
    new_game=new_game,
    from_header=from_header,
    simulate=simulate,
    rates=RATES,
    seats=(2, 4),
    score_sheet=lambda: _keeping(),
)


def _keeping() -> Any:
    """Colour Match's score sheet kept by hand (`sheet.py`), imported when one is first kept."""
    from tests.colour_match.sheet import KEEPING

    return KEEPING
