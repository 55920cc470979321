"""Transitional: UNO Elite's bots by name, as functions `(game, seat, rng) -> action`, the way
digital/elite_link.py calls them. The bots of every ruleset are `engine.bots` (random, greedy
by `engine.elite.hints`) and `engine.search`; remove this once digital play no longer imports
it."""

from __future__ import annotations

from collections.abc import Callable

from engine.elite.hints import Bot, greedy_bot, interject, random_bot
from engine.elite.search import search_bot

BOTS: dict[str, Callable[..., int]] = {
    "random": random_bot,
    "greedy": greedy_bot,
    "search": search_bot,
}

__all__ = ["BOTS", "Bot", "greedy_bot", "interject", "random_bot", "search_bot"]
