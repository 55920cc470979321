"""UNO Elite (the Formula 1 edition's rule book): Elite Action Cards as data, the game as code.

The public API (docs/rulesets.md, docs/engine.md): the cards (`Icon`,
`Power`, `EliteCard`, `parse_cards`), the UNO deck (`UnoCard`, `parse_deck`, `default_deck`),
`EliteGame` (one more `engine.protocol.GameState`), and `RuleError` for a refused action.
Importing the package registers UNO Elite (`ENTRY`, `engine.elite.registration`) with
`engine.registry`. Pure: its files are read by the caller (cli/inputs.py), as the entry's
`inputs` describe them.

Inside, dependencies flow one way: `game` (the protocol) on the rules (`setup`, `chance`,
`flow`, `powers`, `legal`; what each seat has seen of the others' hands: `knowledge`), the
record's codec (`events`), the observer (`view`), the determinisation (`imagine`) and the
bots' judgement (`hints`), all on `state` (the data) and the cards; `record` and `simulate`
sit above `game`. The bots of every ruleset are `engine.bots` and `engine.search`.
"""

from engine.elite.cards import EliteCard, EliteDataError, Icon, Power, box, parse_cards
from engine.elite.dynasty import DeckRuleError, check_deck
from engine.elite.game import EliteGame
from engine.elite.registration import ENTRY
from engine.elite.uno import UnoCard, default_deck, parse_deck
from engine.errors import RuleError
from engine.protocol import CHANCE, TERMINAL

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
