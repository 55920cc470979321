"""A score sheet kept by hand, as the core knows it: the shape every ruleset's sheet has, which a
ruleset's registry entry provides (`registry.Entry.score_sheet`) and the scoreboard, the journal
and their exports read, knowing no ruleset.

A family at a real table plays with real cards, and the scoreboard keeps their score sheet from
what they enter. Which entries a sheet takes, how a hand is scored, who deals next and when the
game is won are the ruleset's own rules (the Disney family's: `engine.disney.table`; the tests'
Colour Match has one of its own). What every sheet shares is written here:

- Entries are plain data with a `kind`, so a journal stores exactly what `Keeping.apply`
  consumes and a restart folds them again (`engine.sheets.fold`). A refused entry raises an
  `EntryError` naming the problem for the players, and changes nothing.
- Every sheet takes "start" (players, dealer, options, ruleset: a new game), "undo" (takes back
  the latest entry still standing of a kind in `Keeping.undoable`) and "pick" (the tray's
  choice of colour, `Pick`: the tray is on every table, whatever is played on it).
- A game the engine plays (digital play) is kept on the same sheet, but not by entries: its
  record is the journal's, and each hand it finishes goes on the sheet through
  `Keeping.played` (`engine.sheets.played`), scored by the sheet's own rules.
- A sheet (`Sheet`) holds the game in play (`KeptGame`: players, scored hands, totals, who is
  out, who deals, the winner) and the tray's latest pick.

This module is a leaf: it imports nothing of the engine, so a ruleset's sheet and the registry
both build on it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any, Protocol

Entry = Mapping[str, Any]


class EntryError(ValueError):
    """An entry a score sheet refuses; the message names the problem for the players."""


class UnknownEntryError(EntryError):
    """An entry of a kind the sheet does not know, or with missing or extra fields."""


class NoGameError(EntryError):
    """A scoring entry before any game was started."""


@dataclasses.dataclass(frozen=True, slots=True)
class Pick:
    """The tray's latest choice of colour, as the sheet kept it: `seq`, the tray's count;
    `declared`, the card the table said the pick answers (the ruleset's code; None: none) and
    `seat`, who played it; `says`, what the pick means, in a player's words."""

    seq: int
    colour: str
    declared: str | None
    seat: int | None
    says: str


class KeptHand(Protocol):
    """One scored hand of a kept game."""

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total after this hand."""
        ...

    def as_dict(self, number: int) -> dict[str, Any]:
        """The hand as a display and an export show it: {"number", "dealer", "winner", "held",
        "points", "scored", "totals", "out"}."""
        ...


class KeptHands(Protocol):
    """A game's scored hands, oldest first (reading from the end walks only that far)."""

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[KeptHand]: ...

    def __getitem__(self, index: slice) -> Any: ...


class KeptGame(Protocol):
    """The game a sheet keeps."""

    @property
    def ruleset(self) -> str: ...

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def hands(self) -> KeptHands: ...

    @property
    def opts(self) -> dict[str, Any]:
        """Its options, resolved by its ruleset."""
        ...

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's total now."""
        ...

    @property
    def out(self) -> frozenset[int]:
        """Seats out of the game (eliminated)."""
        ...

    @property
    def dealer(self) -> int:
        """Who deals the next hand."""
        ...

    @property
    def over(self) -> bool: ...

    @property
    def winner(self) -> int | tuple[int, ...] | None:
        """The winning seat (a team's seats), once the game is over."""
        ...

    def winner_names(self) -> list[str]: ...


class Sheet(Protocol):
    """A table's sheet after its entries: the game in play (None before a game starts), the
    card declared for the next pick (its code and seat, or None) and the latest pick."""

    @property
    def game(self) -> KeptGame | None: ...

    @property
    def can_undo(self) -> bool: ...

    @property
    def declared(self) -> str | None: ...

    @property
    def declared_by(self) -> int | None: ...

    @property
    def last_pick(self) -> Pick | None: ...


class Keeping(Protocol):
    """How a ruleset keeps a score sheet by hand: what its registry entry's `score_sheet`
    gives."""

    @property
    def undoable(self) -> frozenset[str]:
        """The kinds of entry an "undo" takes back (the rest, picks among them, stand)."""
        ...

    def adopt(self, sheet: Sheet | None) -> Sheet:
        """This keeping's sheet to go on from `sheet`: `sheet` itself if it is one of its own,
        else a sheet with no game that keeps `sheet`'s latest pick (a game of another ruleset
        came before)."""
        ...

    def apply(self, sheet: Sheet, entry: Entry) -> Sheet:
        """The sheet after `entry`, or `EntryError` naming why the entry is refused."""
        ...

    def played(self, sheet: Sheet, hand: Entry) -> Sheet:
        """`sheet` after a hand the engine played and scored (one of a game's
        `engine.protocol.ScoreSheet.finished_hands()`: {"hand", "winner", "held": points left by
        seat}), scored by the same rules as a hand kept by hand. Nothing is entered: the game's
        record, which the journal keeps, is where the hand is written."""
        ...

    def keyboard(self, ruleset: str) -> list[dict[str, Any]]:
        """The keys a hand's cards are tapped in with, for a game of `ruleset`: each
        {"code", "name", "label", "colour", "points", "copies"}."""
        ...

    def card_name(self, code: str) -> str:
        """A declared card's name, for a person."""
        ...

    def meanings(self, colour: str) -> list[tuple[str, str]]:
        """For a pick with no card declared: (card, what the pick means for it), each."""
        ...

    def rules(self, game: KeptGame) -> dict[str, Any]:
        """How `game` is scored, for the page: {"scoring", "target", "partners",
        "lowest_wins", "title", "says"}."""
        ...
