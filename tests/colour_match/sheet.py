"""Colour Match's score sheet kept by hand (`engine.score_sheet.Keeping`): the worked example of
docs/engine.md's "A score sheet". Going out scores the numbers left in the others' hands; the
first to the target (100 unless the start says) wins. Undo takes back a hand, an edit or a void.

Written against the core's protocol alone, as a ruleset outside this project would write it: the
scoreboard, the journal and the TV show it without a line of theirs naming it."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from engine.score_sheet import EntryError, NoGameError, Pick, Sheet, UnknownEntryError
from tests.colour_match.game import DECK, NAME, awarded, card_of, face, won

FIELDS = {
    "start": ({"players"}, {"dealer", "options", "ruleset"}),
    "hand": ({"winner", "held"}, set()),
    "edit": ({"hand", "winner", "held"}, set()),
    "void": ({"hand"}, set()),
    "undo": (set(), set()),
    "pick": ({"seq", "colour"}, {"t", "source"}),
}


@dataclasses.dataclass(frozen=True)
class Hand:
    winner: int
    dealer: int
    held: tuple[tuple[str, ...] | int | None, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]

    def as_dict(self, number: int) -> dict[str, Any]:
        scored = [sum(self.points) if s == self.winner else 0 for s in range(len(self.points))]
        held = [list(x) if isinstance(x, tuple) else x for x in self.held]
        return {
            "number": number, "dealer": self.dealer, "winner": self.winner, "held": held,
            "points": list(self.points), "scored": scored, "totals": list(self.totals), "out": [],
        }  # fmt: skip


@dataclasses.dataclass(frozen=True)
class Game:
    players: tuple[str, ...]
    first_dealer: int
    target: int
    hands: tuple[Hand, ...] = ()
    ruleset: str = NAME
    out: frozenset[int] = frozenset()

    @property
    def opts(self) -> dict[str, Any]:
        return {"target": self.target}

    @property
    def scores(self) -> tuple[int, ...]:
        return self.hands[-1].totals if self.hands else (0,) * len(self.players)

    @property
    def dealer(self) -> int:
        return (self.first_dealer + len(self.hands)) % len(self.players)

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def winner(self) -> int | None:
        return won(self.scores, self.target)

    def winner_names(self) -> list[str]:
        return [] if self.winner is None else [self.players[self.winner]]

    def scored(self, records: list[tuple[int, tuple[Any, ...]]]) -> Game:
        """This game with its hands scored again from (winner, held) each, in turn."""
        game = dataclasses.replace(self, hands=())
        for winner, held in records:
            if game.over:
                raise EntryError(f"{game.winner_names()[0]} has won: start a new game")
            points = tuple(0 if s == winner else _points(h) for s, h in enumerate(held))
            totals = awarded(game.scores, winner, points)
            game = dataclasses.replace(
                game, hands=(*game.hands, Hand(winner, game.dealer, held, points, totals))
            )
        return game  # fmt: skip


@dataclasses.dataclass(frozen=True)
class Table:
    game: Game | None = None
    before: tuple[Game, ...] = ()  # what each undo returns to, latest last
    last_pick: Pick | None = None
    declared: str | None = None
    declared_by: int | None = None

    @property
    def can_undo(self) -> bool:
        return bool(self.before)


class ColourMatchKeeping:
    undoable = frozenset({"hand", "edit", "void"})

    def adopt(self, sheet: Sheet | None) -> Sheet:
        if isinstance(sheet, Table):
            return sheet
        return Table(last_pick=None if sheet is None else sheet.last_pick)

    def apply(self, sheet: Sheet, entry: Mapping[str, Any]) -> Sheet:
        assert isinstance(sheet, Table)
        kind = entry.get("kind")
        if kind not in FIELDS:
            raise UnknownEntryError(f"Colour Match's sheet takes no {kind!r} entry")
        needed, optional = FIELDS[str(kind)]
        if needed - set(entry) or set(entry) - needed - optional - {"kind"}:
            raise UnknownEntryError(f"a {kind} entry has {', '.join(sorted(needed))}")
        if kind == "start":
            return Table(_start(entry), last_pick=sheet.last_pick)
        if kind == "pick":
            says = f"Tinker Bell chose {entry['colour']}: Colour Match has no card she answers."
            return dataclasses.replace(
                sheet, last_pick=Pick(entry["seq"], entry["colour"], None, None, says)
            )
        game = sheet.game
        if game is None:
            raise NoGameError("no game yet: start a new game first")
        if kind == "undo":
            if not sheet.before:
                raise EntryError("nothing to undo in this game")
            return dataclasses.replace(sheet, game=sheet.before[-1], before=sheet.before[:-1])
        records = [(h.winner, h.held) for h in game.hands]
        if kind == "hand":
            records.append(_record(game, entry))
        else:
            i = entry["hand"]
            if not isinstance(i, int) or not 0 <= i < len(records):
                raise EntryError(f"there is no hand {i!r}")
            records[i : i + 1] = [_record(game, entry)] if kind == "edit" else []
        before = (*sheet.before, game)
        return dataclasses.replace(sheet, game=game.scored(records), before=before)

    def played(self, sheet: Sheet, hand: Mapping[str, Any]) -> Sheet:
        """A hand digital play scored (`ColourMatch.finished_hands`): on the sheet as a hand
        entered is, with nothing for Undo to take back (the game's record holds it)."""
        assert isinstance(sheet, Table) and sheet.game is not None
        game, winner = sheet.game, hand["winner"]
        records = [(h.winner, h.held) for h in game.hands]
        held = tuple(None if s == winner else p for s, p in enumerate(hand["held"]))
        return dataclasses.replace(sheet, game=game.scored([*records, (winner, held)]))

    def keyboard(self, ruleset: str) -> list[dict[str, Any]]:
        return [
            {**face(card), "label": str(card % 10), "points": card % 10, "copies": 1}
            for card in DECK
        ]

    def card_name(self, code: str) -> str:
        return str(face(card_of(code))["name"])

    def meanings(self, colour: str) -> list[tuple[str, str]]:
        return []

    def rules(self, game: Any) -> dict[str, Any]:
        says = (
            "Going out scores the numbers left in the others' hands: "
            f"the first to {game.target} wins."
        )
        return {
            "scoring": "standard", "target": game.target, "partners": False,
            "lowest_wins": False, "title": "Colour Match", "says": says,
        }  # fmt: skip


def _start(entry: Mapping[str, Any]) -> Game:
    players = entry["players"]
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        raise EntryError("Colour Match seats 2 to 4 players")
    target = (entry.get("options") or {}).get("target", 100)
    if not isinstance(target, int) or target < 1:
        raise EntryError(f"the target is a whole number of points, not {target!r}")
    return Game(tuple(players), _seat(entry.get("dealer", 0), len(players)), target)


def _record(game: Game, entry: Mapping[str, Any]) -> tuple[int, tuple[Any, ...]]:
    winner, held = _seat(entry["winner"], len(game.players)), entry["held"]
    if not isinstance(held, list) or len(held) != len(game.players):
        raise EntryError(f"held lists what each of the {len(game.players)} seats holds")
    for cards in held:
        if (isinstance(cards, int) and not 0 <= cards <= 1000) or isinstance(cards, bool):
            raise EntryError(f"a total held is from 0 to 1000 points, not {cards!r}")
        for card in cards if isinstance(cards, list) else ():
            try:
                card_of(card)
            except ValueError as exc:  # a card that is none of the deck's, named
                raise EntryError(str(exc)) from None
    return winner, tuple(tuple(h) if isinstance(h, list) else h for h in held)


def _points(held: Any) -> int:
    if isinstance(held, tuple):
        return sum(card_of(c) % 10 for c in held)
    return held if isinstance(held, int) else 0


def _seat(value: Any, n: int) -> int:
    if not isinstance(value, int) or not 0 <= value < n:
        raise EntryError(f"a seat is from 0 to {n - 1}, not {value!r}")
    return value


KEEPING = ColourMatchKeeping()
