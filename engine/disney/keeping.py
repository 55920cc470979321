"""The Disney family's score sheet kept by hand, in the core's shape (`engine.score_sheet.Keeping`):
what the family's registry entries give as `score_sheet`.

The sheet itself is the table session (`engine.disney.table`): its entries, its fold, its
referee for Tinker Bell's picks. This module adds what the scoreboard shows of it without
knowing the family: the card keyboard of a ruleset's deck, the names of its cards and how a
game of it is scored, in words.
"""

from __future__ import annotations

from typing import Any

from engine.disney import cards as C
from engine.disney import rulesets
from engine.disney import table as T
from engine.score_sheet import Entry, KeptGame, Sheet

LABELS = {
    C.SKIP: "Skip",
    C.REVERSE: "Rev",
    C.DRAW2: "+2",
    C.WILD: "Wild",
    C.WILD_DISCARD_ALL: "Discard All",
    C.VILLAIN_DRAW4: "Villain +4",
}
"""A key's short label, for the cards that are not a number."""


class DisneyKeeping:
    """The table session of every ruleset of the Disney family (they differ in their decks
    and options, which the session reads from `rulesets`)."""

    undoable = T.UNDOABLE

    def adopt(self, sheet: Sheet | None) -> Sheet:
        if isinstance(sheet, T.Table):
            return sheet
        return T.Table(last_pick=None if sheet is None else sheet.last_pick)

    def apply(self, sheet: Sheet, entry: Entry) -> Sheet:
        if not isinstance(sheet, T.Table):
            raise TypeError("a Disney table's entry applies to its own sheet (adopt it first)")
        return T.apply(sheet, entry)

    def played(self, sheet: Sheet, hand: Entry) -> Sheet:
        if not isinstance(sheet, T.Table):
            raise TypeError("a Disney game's hand goes on its own sheet (adopt it first)")
        return T.played(sheet, hand)

    def keyboard(self, ruleset: str) -> list[dict[str, Any]]:
        deck = rulesets.get(ruleset)
        keys = []
        for cid in sorted(set(deck.deck)):
            rank = C.RANK_OF[cid]
            coloured = cid < 64
            keys.append(
                {
                    "code": C.code(cid),
                    "name": C.name(cid),
                    "label": str(rank) if coloured and rank < 10 else LABELS.get(rank, C.code(cid)),
                    "colour": C.COLOURS[C.COLOUR_OF[cid]] if coloured else "wild",
                    "points": deck.card_points(cid),
                    "copies": deck.deck.count(cid),
                }
            )
        return keys

    def card_name(self, code: str) -> str:
        return C.name(C.card(code))

    def meanings(self, colour: str) -> list[tuple[str, str]]:
        return T.meanings(colour)

    def rules(self, game: KeptGame) -> dict[str, Any]:
        opts = game.opts
        target = opts.get("target", 500)
        mode = opts.get("scoring", "standard")
        partners = bool(opts.get("partners"))
        return {
            "scoring": mode,
            "target": target,
            "partners": partners,
            "lowest_wins": mode != "standard",
            "title": rulesets.get(game.ruleset).title,
            "says": _says(mode, target, partners),
        }


def _says(mode: str, target: int, partners: bool) -> str:
    if mode == "lowest":
        return (
            f"Points are what you are caught holding. When someone reaches {target}, "
            "the lowest total wins."
        )
    if mode == "challenge":
        return f"Challenge UNO: reach {target} and you are out. The last player left wins."
    who = "the first team" if partners else "the first player"
    return f"Going out scores the cards left in the others' hands: {who} to {target} wins."


KEEPING = DisneyKeeping()
