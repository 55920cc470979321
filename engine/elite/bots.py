"""Elite bots by name: `random`, `greedy` (engine/elite/hints.py) and `search`
(engine/elite/search.py), as `simulate` and digital play ask for them."""

from __future__ import annotations

from engine.elite.hints import Bot, greedy_bot, interject, random_bot
from engine.elite.search import search_bot

BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot, "search": search_bot}

__all__ = ["BOTS", "Bot", "greedy_bot", "interject", "random_bot", "search_bot"]
