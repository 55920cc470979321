"""A table's entries through the score sheet of each game's ruleset (`engine.score_sheet`):
what the scoreboard and the journal fold, knowing no ruleset.

A table plays one game after another, of any ruleset that keeps a sheet. Each "start" entry
names its ruleset, and the entries after it go to that ruleset's `Keeping` until the next
start; entries before any game (a pick, a declared card) go to the table's `home` ruleset,
the one its tray is for. The keeping is looked up once per game, not once per entry: a fold of
a long game costs what its ruleset's own fold costs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from engine import registry
from engine.score_sheet import (
    Entry,
    EntryError,
    Keeping,
    NoGameError,
    Sheet,
    UnknownEntryError,
)


def keeping(ruleset: str) -> Keeping:
    """The score sheet `ruleset` keeps by hand; EntryError if it is unknown or keeps none."""
    try:
        return registry.score_sheet(ruleset)
    except ValueError as exc:
        raise EntryError(str(exc)) from None


def kept() -> list[str]:
    """Every ruleset that keeps a sheet by hand, in the registry's order: what a table may
    start a game of."""
    return [name for name in registry.names() if registry.get(name).score_sheet is not None]


def home() -> str:
    """The ruleset a table keeps before its first game says one: the first registered that
    keeps a sheet by hand (the shipped order puts the Disney tray's first)."""
    for name in registry.names():  # the first alone: no later ruleset's entry is made
        if registry.get(name).score_sheet is not None:
            return name
    raise EntryError("no ruleset here keeps a score sheet by hand")


def empty(home: str) -> Sheet:
    """A table with no game yet and no pick, for `home`'s sheet."""
    return keeping(home).adopt(None)


def apply(sheet: Sheet, entry: Entry, home: str) -> Sheet:
    """`sheet` after `entry` (a start: a new game of the ruleset it names, `home` if none), or
    EntryError naming why it is refused."""
    keeper = _keeper_for(sheet, entry, home)
    return keeper.apply(keeper.adopt(sheet), entry)


def fold(entries: Iterable[Entry], home: str, sheet: Sheet | None = None) -> Sheet:
    """`sheet` (None: an empty table) after every entry in turn."""
    keeper = keeping(home) if sheet is None or sheet.game is None else None
    table = keeping(home).adopt(None) if sheet is None else sheet
    for entry in entries:
        if keeper is None or (isinstance(entry, Mapping) and entry.get("kind") == "start"):
            keeper = _keeper_for(table, entry, home)
            table = keeper.adopt(table)
        table = keeper.apply(table, entry)
    return table


def played(sheet: Sheet, hands: Sequence[Entry]) -> Sheet:
    """`sheet`, whose game the engine plays, after the hands of `hands` it does not hold yet
    (`hands`: the game's `finished_hands()`, oldest first; the sheet holds the first
    `len(game.hands)` of them), each through `Keeping.played`. A game the engine plays takes no
    scoring entry (`engine.score_sheet`), so the count is the hands it has had; a journal of an
    earlier release, which entered each finished hand too, holds them as entries already."""
    game = sheet.game
    if game is None:
        raise NoGameError("a game played by the engine has a start entry before its hands")
    keeper = keeping(game.ruleset)
    for hand in hands[len(game.hands) :]:
        sheet = keeper.played(sheet, hand)
    return sheet


def _keeper_for(sheet: Sheet, entry: Entry, home: str) -> Keeping:
    if not isinstance(entry, Mapping):
        raise UnknownEntryError("an entry is an object with a 'kind'")
    if entry.get("kind") == "start":
        ruleset = entry.get("ruleset", home)
        if not isinstance(ruleset, str):
            raise EntryError(f"a start entry's ruleset is a name, not {ruleset!r}")
        return keeping(ruleset)
    return keeping(sheet.game.ruleset if sheet.game is not None else home)
