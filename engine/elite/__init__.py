"""UNO Elite (the Formula 1 edition's rule book): Elite Action Cards as data, the game as code.

The public API (docs/rulesets.md, docs/engine.md): the cards (`Icon`,
`Power`, `EliteCard`, `parse_cards`), the UNO deck (`UnoCard`, `parse_deck`, `default_deck`),
`EliteGame` (one more `engine.protocol.GameState`), and `RuleError` for a refused action; its
registry entry is `ENTRY` (`engine.elite.registration` registers it by name, `entries.py` makes
it on its first lookup). Pure: its files are read by the caller (cli/inputs.py), as the entry's
`inputs` describe them.

Inside, dependencies flow one way: `game` (the protocol) on the rules (`setup`, `chance`,
`flow`, `powers`, `legal`; what each seat has seen of the others' hands: `knowledge`), the
record's codec (`events`), the observer (`view`), the determinisation (`imagine`) and the
bots' judgement (`hints`), all on `state` (the data) and the cards; `record` and `simulate`
sit above `game`. The bots of every ruleset are `engine.bots` and `engine.search`.
"""

import importlib
from typing import Any

_HOMES = {
    "EliteCard": "cards", "EliteDataError": "cards", "Icon": "cards", "Power": "cards",
    "box": "cards", "parse_cards": "cards", "DeckRuleError": "dynasty", "check_deck": "dynasty",
    "EliteGame": "game", "UnoCard": "uno", "default_deck": "uno", "parse_deck": "uno",
}  # fmt: skip
"""Where each name of the public API lives: imported when first asked for (PEP 562), so that
the registry's import of `engine.elite.registration`, which runs this file first, loads no
more of UNO Elite than that."""


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(f"engine.elite.{_HOMES[name]}"), name)
    if name in ("CHANCE", "TERMINAL"):
        return getattr(importlib.import_module("engine.protocol"), name)
    if name == "RuleError":
        return importlib.import_module("engine.errors").RuleError
    if name == "ENTRY":
        return importlib.import_module("engine.registry").get("elite")
    raise AttributeError(f"module 'engine.elite' has no attribute {name!r}")


__all__ = [
    "CHANCE",
    "ENTRY",
    "TERMINAL",
    "DeckRuleError",
    "EliteCard",
    "EliteDataError",
    "EliteGame",
    "Icon",
    "Power",
    "RuleError",
    "UnoCard",
    "box",
    "check_deck",
    "default_deck",
    "parse_cards",
    "parse_deck",
]
