"""The table session: real cards on a real table, the engine keeping the score sheet.

Everything here is an event-sourced fold over plain-data entries (JSON-friendly dicts with a
`kind`), so the journal stores exactly what `apply` consumes and a restart replays it:

    state = fold(entries)            # == reduce(apply, entries, EMPTY)

`apply` is pure (no I/O, no clock) and either returns a new `Table` or raises an `EntryError`
naming the problem; a rejected entry changes nothing. Scoring is not re-implemented here: every
hand goes through `engine.disney.scoring.settle` on a `Sheet`, exactly as digital play counts.

Entry kinds:
  start    {"players": [names], "dealer": seat, "options": {...}, "ruleset": "disney"}
  hand     {"winner": seat, "held": [per seat: [card codes] | total | None]}
  edit     {"hand": index, "winner": seat, "held": [...]}     replace a past hand
  void     {"hand": index}                                      strike a past hand
  dealer   {"seat": seat}                                       correct who deals next
  undo     {}                    take back the last hand/edit/void/dealer entry (a compensating
                                 entry: the journal keeps both, the sheet returns exactly)
  declare  {"card": "RD2" | "WDA" | "VD4" | None, "seat": seat | None}
  pick     {"seq": n, "colour": "red"}                         Tinker Bell's choice, from the tray

Picks and declarations are the referee's business: they are journaled (an audit trail) but undo
does not touch them, so an undo after a pick still restores the score sheet exactly.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cache
from typing import Any, overload

from engine.disney import cards as C
from engine.disney import rulesets
from engine.disney.scoring import (
    Sheet,
    check_options,
    collected_points,
    partner,
    rotation_team,
    settle,
)
from engine.score_sheet import EntryError as EntryError  # the core's errors, raised here too
from engine.score_sheet import NoGameError as NoGameError
from engine.score_sheet import Pick
from engine.score_sheet import UnknownEntryError as UnknownEntryError

Entry = Mapping[str, Any]
Held = tuple[str, ...] | int | None
"""What a seat holds at the end of a hand: card codes tapped in, a typed total, or nothing."""

MAX_TYPED_TOTAL = 10_000
"""A typed total above this is a typo (a whole Disney deck is worth 1,540 points)."""

UNDOABLE = frozenset({"hand", "edit", "void", "dealer"})
PIXIE_DUST = "pixie-dust"


class GameOverError(EntryError):
    """A hand entered after the game has a winner."""


class SeatError(EntryError):
    """A seat number that is not at this table, or a player who cannot take part."""


class HeldError(EntryError):
    """A hand's cards or totals that cannot be right."""


class NothingToUndoError(EntryError):
    """Undo with no scoring entry left to take back."""


class DeclareError(EntryError):
    """A declared card that is not a pixie-dust card."""


# --- state -----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class ScoredHand:
    """One hand of the per-hand history, as scored."""

    winner: int
    dealer: int
    held: tuple[Held, ...]
    points: tuple[int, ...]
    """What each seat was caught holding, in points (the winner's is 0)."""
    delta: tuple[int, ...]
    """What `settle` awarded (standard) or charged (lowest, challenge) each seat for this hand."""
    totals: tuple[int, ...]
    eliminated: frozenset[int]
    """Seats out of the game after this hand (Challenge UNO)."""

    def as_dict(self, number: int) -> dict[str, Any]:
        """Plain JSON for the display and the export (both show a hand alike)."""
        return {
            "number": number,
            "dealer": self.dealer,
            "winner": self.winner,
            "held": [list(x) if isinstance(x, tuple) else x for x in self.held],
            "points": list(self.points),
            "scored": list(self.delta),
            "totals": list(self.totals),
            "out": sorted(self.eliminated),
        }


class ScoredHands:
    """A game's scored hands, oldest first: an immutable sequence kept as a linked list, newest
    first, in which each hand added shares every hand before it. Adding a hand and taking the
    last one back (undo) are one step whatever the game's length, so folding a game of N hands
    is O(N) (a tuple rebuilt per hand made it quadratic: 100,000 hands did not start), and an
    edit of hand k keeps the first k - 1 as they are.

    Reading from the end (`last`, `[-1]`, `[-20:]`) walks only that far; iterating, or reading
    hand k, walks the list once (nothing is cached: every version of a long game would keep its
    own tuple alive through the versions after it)."""

    __slots__ = ("_count", "before", "last")

    def __init__(self, last: ScoredHand | None = None, before: ScoredHands | None = None):
        if (last is None) != (before is None):
            raise ValueError("a list of hands is empty, or a hand added to a list of hands")
        self.last = last
        self.before = before
        self._count: int = 0 if before is None else before._count + 1

    def add(self, hand: ScoredHand) -> ScoredHands:
        """These hands and `hand` after them (these are shared, not copied)."""
        return ScoredHands(hand, self)

    def first(self, count: int) -> ScoredHands:
        """The first `count` hands (shared): a walk back over the hands after them."""
        if not 0 <= count <= self._count:
            raise IndexError(f"there are {self._count} hands, not {count}")
        kept = self
        while kept._count > count:
            kept = kept.before  # type: ignore[assignment]  # not None while _count > 0
        return kept

    def newest(self, count: int) -> list[ScoredHand]:
        """The last `count` hands (fewer if there are fewer), oldest first."""
        found: list[ScoredHand] = []
        node = self
        while len(found) < count and node.last is not None and node.before is not None:
            found.append(node.last)
            node = node.before
        found.reverse()
        return found

    def __len__(self) -> int:
        return self._count

    def __bool__(self) -> bool:
        return self._count > 0

    def __iter__(self) -> Iterator[ScoredHand]:
        return iter(self.newest(self._count))

    def __reversed__(self) -> Iterator[ScoredHand]:
        node = self
        while node.last is not None and node.before is not None:
            yield node.last
            node = node.before

    @overload
    def __getitem__(self, index: int) -> ScoredHand: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[ScoredHand, ...]: ...

    def __getitem__(self, index: int | slice) -> ScoredHand | tuple[ScoredHand, ...]:
        if isinstance(index, slice):
            if index.step is None and index.stop is None:  # the newest hands: walk only those
                first = range(self._count)[index].start
                return tuple(self.newest(self._count - first))
            return tuple(self)[index]
        at = index + self._count if index < 0 else index
        if not 0 <= at < self._count:
            raise IndexError(f"hand index {index} out of range ({self._count} hands)")
        hand = self.first(at + 1).last
        assert hand is not None
        return hand

    def __eq__(self, other: object) -> bool:
        if isinstance(other, tuple):
            return tuple(self) == other
        if not isinstance(other, ScoredHands) or len(other) != self._count:
            return False
        mine: ScoredHands | None = self
        theirs: ScoredHands | None = other
        while mine is not None and theirs is not None and mine is not theirs:
            if mine.last != theirs.last:
                return False
            mine, theirs = mine.before, theirs.before
        return True  # the rest is shared (or both lists ended)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"ScoredHands({list(self)!r})"

    def __reduce__(self) -> tuple[Any, tuple[tuple[ScoredHand, ...]]]:
        """Pickled and copied as a tuple: link by link, a long game would overflow the stack."""
        return scored_hands, (tuple(self),)


def scored_hands(hands: Iterable[ScoredHand]) -> ScoredHands:
    """`hands` as a `ScoredHands`, oldest first."""
    made = NO_HANDS
    for hand in hands:
        made = made.add(hand)
    return made


NO_HANDS = ScoredHands()


@dataclasses.dataclass(frozen=True, slots=True)
class TableGame:
    players: tuple[str, ...]
    options: tuple[tuple[str, Any], ...]
    """Resolved ruleset options as sorted pairs (hashable, comparable)."""
    first_dealer: int
    dealer_fixes: tuple[tuple[int, int], ...] = ()
    """(hands played when set, seat): corrections of who deals, from `dealer` entries."""
    hands: ScoredHands = NO_HANDS
    sheet: Sheet | None = None
    ruleset: str = "disney"

    @property
    def opts(self) -> dict[str, Any]:
        return dict(self.options)

    @property
    def dealer(self) -> int:
        """Who deals the next hand."""
        return _dealer_for(self, len(self.hands))

    @property
    def over(self) -> bool:
        return self.sheet is not None and self.sheet.over

    @property
    def winner(self) -> int | tuple[int, ...] | None:
        return self.sheet.winner if self.sheet else None

    @property
    def scores(self) -> tuple[int, ...]:
        return self.sheet.scores if self.sheet else (0,) * len(self.players)

    @property
    def out(self) -> frozenset[int]:
        return self.sheet.eliminated if self.sheet else frozenset()

    def winner_names(self) -> list[str]:
        w = self.winner
        if w is None:
            return []
        seats = w if isinstance(w, tuple) else (w,)
        return [self.players[s] for s in seats]


TinkerPick = Pick
"""Tinker Bell's pick as the sheet keeps it: the core's (`engine.score_sheet.Pick`)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Undo:
    """What an undo returns to, latest first: a linked stack, so a push shares the rest of the
    stack instead of copying it. After a new hand it keeps only the sheet from before it (the
    game is the current one less its last hand, one step back in `ScoredHands`)."""

    game: TableGame | None
    """The game to return to; None: the current game without its last hand, on `sheet`."""
    below: Undo | None = None
    sheet: Sheet | None = None

    def restore(self, current: TableGame) -> TableGame:
        if self.game is not None:
            return self.game
        hands = current.hands.first(len(current.hands) - 1)
        return dataclasses.replace(current, hands=hands, sheet=self.sheet)


@dataclasses.dataclass(frozen=True, slots=True)
class Table:
    game: TableGame | None = None
    undo_stack: Undo | None = None
    declared: str | None = None
    declared_by: int | None = None
    last_pick: TinkerPick | None = None

    @property
    def can_undo(self) -> bool:
        return self.undo_stack is not None


EMPTY = Table()

# The names these classes had before the engine's own Game and Hand (and the tray's Pick) made
# them ambiguous; kept so score-sheet code written against them still imports (`Pick`, the
# core's, is imported above under its own name).
Game = TableGame
Hand = ScoredHand


# --- the fold --------------------------------------------------------------------------------


def fold(entries: Iterable[Entry], table: Table = EMPTY) -> Table:
    for entry in entries:
        table = apply(table, entry)
    return table


def apply(table: Table, entry: Entry) -> Table:
    """The table after `entry`, or EntryError naming why the entry is refused."""
    if not isinstance(entry, Mapping):
        raise UnknownEntryError("an entry is an object with a 'kind'")
    kind = entry.get("kind")
    handler = _HANDLERS.get(kind)  # type: ignore[arg-type]
    if handler is None:
        raise UnknownEntryError(
            f"unknown entry kind {kind!r} (kinds: {', '.join(sorted(_HANDLERS))})"
        )
    fields, optional = _FIELDS[str(kind)]
    given = set(entry) - {"kind"}
    missing = fields - given
    extra = given - fields - optional
    if missing:
        raise UnknownEntryError(f"a {kind} entry needs {', '.join(sorted(missing))}")
    if extra:
        raise UnknownEntryError(f"a {kind} entry has no field {', '.join(sorted(extra))}")
    if (kind in UNDOABLE or kind == "undo") and table.game is None:
        raise NoGameError("no game yet: start a new game first")
    return handler(table, entry)


def _start(table: Table, e: Entry) -> Table:
    ruleset = _ruleset(e.get("ruleset", "disney"))
    names = e["players"]
    if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
        raise SeatError("players is a list of names")
    names = tuple(n.strip() for n in names)
    if not ruleset.min_players <= len(names) <= ruleset.max_players:
        raise SeatError(
            f"{ruleset.title} is for {ruleset.min_players} to {ruleset.max_players} players, "
            f"not {len(names)}"
        )
    if any(not n for n in names):
        raise SeatError("every player needs a name")
    if any(len(n) > 24 for n in names):
        raise SeatError("names are at most 24 characters")
    dupes = [n for n, k in Counter(n.casefold() for n in names).items() if k > 1]
    if dupes:
        raise SeatError(f"two players are called {dupes[0]!r}: names must differ")
    options = e.get("options") or {}
    if not isinstance(options, Mapping):
        raise UnknownEntryError("options is an object of name: value")
    try:
        resolved = ruleset.resolve_options(options)
        check_options(resolved, len(names), ruleset.quotes)
    except ValueError as exc:
        raise EntryError(str(exc)) from None
    dealer = _seat(e.get("dealer", 0), len(names), "dealer")
    game = TableGame(
        players=names,
        options=tuple(sorted(resolved.items())),
        first_dealer=dealer,
        sheet=Sheet.new(len(names)),
        ruleset=ruleset.name,
    )
    return Table(game=game, last_pick=table.last_pick)


def _hand(table: Table, e: Entry) -> Table:
    game = _game(table)
    if game.over:
        raise GameOverError(
            f"the game is over ({' and '.join(game.winner_names())} won): start a new game"
        )
    winner = _seat(e["winner"], len(game.players), "winner")
    added = _add_hand(game, winner, _held_list(game, e["held"]))
    undo = Undo(None, table.undo_stack, game.sheet)
    # Table(...), not dataclasses.replace: once per hand of every fold, and replace costs more
    return Table(added, undo, table.declared, table.declared_by, table.last_pick)


def played(table: Table, hand: Entry) -> Table:
    """The table after a hand the engine played (`Game.finished_hands`: points left by seat),
    scored as a hand entry is, with nothing for Undo to take back: the game's record, not an
    entry, holds the hand."""
    game = _game(table)
    winner = _seat(hand["winner"], len(game.players), "winner")
    held = [None if seat == winner else points for seat, points in enumerate(hand["held"])]
    added = _add_hand(game, winner, _held_list(game, held))
    return Table(added, table.undo_stack, table.declared, table.declared_by, table.last_pick)


def _edit(table: Table, e: Entry) -> Table:
    game = _game(table)
    i = _hand_index(game, e["hand"])
    edited = (_seat(e["winner"], len(game.players), "winner"), _held_list(game, e["held"]))
    return _push(table, _rescore(game, [edited, *_records(game, i + 1)], kept=i))


def _void(table: Table, e: Entry) -> Table:
    game = _game(table)
    i = _hand_index(game, e["hand"])
    later = _records(game, i + 1)
    fixes = tuple((n - (n > i), s) for n, s in game.dealer_fixes)
    return _push(table, _rescore(dataclasses.replace(game, dealer_fixes=fixes), later, kept=i))


def _set_dealer(table: Table, e: Entry) -> Table:
    game = _game(table)
    seat = _seat(e["seat"], len(game.players), "dealer")
    if game.sheet and seat in game.sheet.eliminated:
        raise SeatError(f"{game.players[seat]} is out of the game and cannot deal")
    played = len(game.hands)
    fixes = (*(f for f in game.dealer_fixes if f[0] != played), (played, seat))
    return _push(table, dataclasses.replace(game, dealer_fixes=fixes))


def _undo(table: Table, e: Entry) -> Table:
    if not table.undo_stack:
        raise NothingToUndoError("nothing to undo in this game")
    stack = table.undo_stack
    return dataclasses.replace(table, game=stack.restore(_game(table)), undo_stack=stack.below)


def _declare(table: Table, e: Entry) -> Table:
    code = e["card"]
    seat = e.get("seat")
    if code is not None:
        _pixie_dust(code)
    if seat is not None:
        if table.game is None:
            raise NoGameError("no game yet: declare without a seat, or start a game")
        _seat(seat, len(table.game.players), "seat")
    return dataclasses.replace(table, declared=code, declared_by=seat if code else None)


def _pick(table: Table, e: Entry) -> Table:
    colour = e["colour"]
    seq = e["seq"]
    if colour not in C.COLOURS:
        raise EntryError(f"Tinker Bell picks one of {', '.join(C.COLOURS)}, not {colour!r}")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        raise EntryError("a pick's seq is a whole number from 0")
    who = None
    if table.declared_by is not None and table.game is not None:
        who = table.game.players[table.declared_by]
    says = referee(colour, table.declared, who)
    pick = TinkerPick(seq, colour, table.declared, table.declared_by, says)
    return dataclasses.replace(table, last_pick=pick, declared=None, declared_by=None)


_HANDLERS = {
    "start": _start,
    "hand": _hand,
    "edit": _edit,
    "void": _void,
    "dealer": _set_dealer,
    "undo": _undo,
    "declare": _declare,
    "pick": _pick,
}
_FIELDS: dict[str, tuple[set[str], set[str]]] = {
    "start": ({"players"}, {"dealer", "options", "ruleset"}),
    "hand": ({"winner", "held"}, set()),
    "edit": ({"hand", "winner", "held"}, set()),
    "void": ({"hand"}, set()),
    "dealer": ({"seat"}, set()),
    "undo": (set(), set()),
    "declare": ({"card"}, {"seat"}),
    "pick": ({"seq", "colour"}, {"t", "source"}),
}


# --- scoring ---------------------------------------------------------------------------------


def _push(table: Table, game: TableGame) -> Table:
    return dataclasses.replace(table, game=game, undo_stack=Undo(table.game, table.undo_stack))


def _records(game: TableGame, after: int = 0) -> list[tuple[int, tuple[Held, ...]]]:
    """(winner, held) of each hand after the first `after`, as entered."""
    return [(h.winner, h.held) for h in game.hands.newest(len(game.hands) - after)]


def _rescore(
    game: TableGame, records: Sequence[tuple[int, tuple[Held, ...]]], kept: int = 0
) -> TableGame:
    """`game`'s first `kept` hands as they are, then `records` settled again after them: an
    edit or a void ripples through the later hands, never the earlier ones (hand k's score,
    dealer and sheet depend only on the hands before it and the corrections up to it)."""
    hands = game.hands.first(kept)
    partial = _with_hands(game, hands, _sheet_after(hands, len(game.players)))
    for winner, held in records:
        partial = _add_hand(partial, winner, held)
    return partial


def _sheet_after(hands: ScoredHands, players: int) -> Sheet:
    """The sheet as it stood after `hands`, while the game went on (a hand followed them)."""
    last = hands.last
    if last is None:
        return Sheet.new(players)
    return Sheet(last.totals, last.eliminated, None, len(hands))


def _with_hands(game: TableGame, hands: ScoredHands, sheet: Sheet) -> TableGame:
    """`game` with these hands and sheet (`dataclasses.replace`, without its per-call cost:
    a long game's edit calls this once per later hand)."""
    return TableGame(
        game.players, game.options, game.first_dealer, game.dealer_fixes, hands, sheet, game.ruleset
    )


def _add_hand(game: TableGame, winner: int, held: tuple[Held, ...]) -> TableGame:
    """`game` with one more hand settled on its sheet. Only the new hand is settled, and its
    dealer follows from the previous hand's (`_dealer_for`), so folding a long game is linear."""
    sheet = game.sheet or Sheet.new(len(game.players))
    number = len(game.hands) + 1
    if sheet.over:
        raise GameOverError(
            f"after this change the game ends at hand {number - 1}, "
            f"but hand {number} comes after it"
        )
    where = f"hand {number}: "
    opts = game.opts
    points = _hand_points(rulesets.get(game.ruleset), game, opts, sheet, winner, held, where)
    try:
        sheet, delta = settle(sheet, opts, points, winner)
    except ValueError as exc:
        raise EntryError(where + str(exc)) from None
    dealer = _dealer_for(game, len(game.hands))
    hand = ScoredHand(winner, dealer, held, points, delta, sheet.scores, sheet.eliminated)
    return _with_hands(game, game.hands.add(hand), sheet)


@cache
def _deck_counts(ruleset: str, players: int) -> Counter[int]:
    """How many of each card a table of `players` deals from (two decks for a classic game of
    11 or more: `Ruleset.deck_for`; read, never changed)."""
    return Counter(rulesets.get(ruleset).deck_for(players))


@cache
def _in_deck(ruleset: str) -> frozenset[int]:
    return frozenset(rulesets.get(ruleset).deck)


def _hand_points(
    ruleset: rulesets.Ruleset,
    game: TableGame,
    opts: Mapping[str, Any],
    sheet: Sheet,
    winner: int,
    held: tuple[Held, ...],
    where: str,
) -> tuple[int, ...]:
    names = game.players
    if winner in sheet.eliminated:
        raise SeatError(f"{where}{names[winner]} is out of the game and cannot win a hand")
    mate = partner(winner) if opts.get("partners") else None
    if opts.get("partners_rotation"):
        mate = next(s for s in rotation_team(winner, sheet.hands) if s != winner)
    in_hand: Counter[int] | None = None  # made only for a hand entered as cards
    points = []
    ids_by_seat: dict[int, list[int]] = {}
    for seat, h in enumerate(held):
        who = names[seat]
        if seat in sheet.eliminated or seat == winner:
            if h not in (None, 0, ()):
                why = "went out" if seat == winner else "is out of the game"
                raise HeldError(f"{where}{who} {why} and holds no cards")
            points.append(0)
            continue
        if h is None:
            if seat == mate:
                points.append(0)
                continue
            raise HeldError(f"{where}no cards or total entered for {who}")
        if isinstance(h, int):
            points.append(h)
            continue
        ids = [C.card(c) for c in h]
        if in_hand is None:
            in_hand = Counter()
        in_hand.update(ids)
        ids_by_seat[seat] = ids
        points.append(sum(ruleset.card_points(i) for i in ids))
    deck = _deck_counts(ruleset.name, len(names))
    for cid, n in (in_hand or {}).items():
        if n > deck[cid]:
            raise HeldError(
                f"{where}{n} × {C.name(cid)} entered, but the deck has only {deck[cid]}"
            )
    if ruleset.collected_value:
        _add_collected_value(ruleset, opts, held, points, ids_by_seat, (winner, mate), where)
    return tuple(points)


def _add_collected_value(ruleset, opts, held, points, ids_by_seat, team, where) -> None:
    """Elvis's Vegas (`scoring.collected_points`), once every hand it collects is entered as
    cards."""
    per = ruleset.collected_value
    if opts.get("scoring", "standard") == "standard":
        scored = [s for s, h in enumerate(held) if s not in team and h not in (None, 0, ())]
        has_per = any(per.get(i) for ids in ids_by_seat.values() for i in ids)
        if has_per and any(s not in ids_by_seat for s in scored):
            raise HeldError(
                f"{where}enter every hand as cards: a Vegas is worth ten per card collected"
            )
    for seat, added in collected_points(per, opts, ids_by_seat, team).items():
        points[seat] += added


def _held_list(game: TableGame, held: Any) -> tuple[Held, ...]:
    n = len(game.players)
    if not isinstance(held, list | tuple) or len(held) != n:
        raise HeldError(f"held lists what each of the {n} players holds, in seat order")
    ruleset = rulesets.get(game.ruleset)
    in_deck = _in_deck(ruleset.name)
    out: list[Held] = []
    for seat, h in enumerate(held):
        who = game.players[seat]
        if h is None:
            out.append(None)
        elif isinstance(h, bool):
            raise HeldError(f"{who}: a total is a whole number, not {h!r}")
        elif isinstance(h, int):
            if not 0 <= h <= MAX_TYPED_TOTAL:
                raise HeldError(f"{who}: a total is from 0 to {MAX_TYPED_TOTAL}, not {h}")
            out.append(h)
        elif isinstance(h, list | tuple):
            codes = []
            for c in h:
                try:
                    cid = C.card(c)
                except C.CardError as exc:
                    raise HeldError(f"{who}: {exc}") from None
                if cid not in in_deck:
                    raise HeldError(f"{who}: there is no {C.name(cid)} in the {ruleset.title} deck")
                codes.append(C.code(cid))
            out.append(tuple(codes))
        else:
            raise HeldError(f"{who}: enter a list of cards or a total, not {h!r}")
    return tuple(out)


def _dealer_for(game: TableGame, hands_played: int) -> int:
    """The dealer of hand `hands_played + 1`, from the dealer of the hand before it: the same
    seat as `dealer_by_walk` (the definition; property-tested), without walking every earlier
    hand (which made folding a long game quadratic)."""
    start, base = _latest_fix(game, hands_played)
    if hands_played == base:
        return start
    before = game.hands[hands_played - 1]
    return _next_active(before.dealer, len(game.players), before.eliminated)


def dealer_by_walk(game: TableGame, hands_played: int) -> int:
    """The dealer of hand `hands_played + 1`: the first dealer (or the latest correction), moved
    one seat to the left per hand, skipping players already out of the game."""
    start, base = _latest_fix(game, hands_played)
    seat = start
    n = len(game.players)
    hands = list(game.hands)
    for k in range(base, hands_played):
        out = hands[k].eliminated if k < len(hands) else frozenset()
        seat = _next_active(seat, n, out)
    return seat


def _latest_fix(game: TableGame, hands_played: int) -> tuple[int, int]:
    """(seat, hands played when set) of the dealer correction in force for the next hand, or
    the first dealer."""
    start, base = game.first_dealer, 0
    for n, seat in game.dealer_fixes:
        if n <= hands_played:
            start, base = seat, n
    return start, base


def _next_active(seat: int, n: int, out: frozenset[int]) -> int:
    for step in range(1, n + 1):
        s = (seat + step) % n
        if s not in out:
            return s
    return seat


# --- the Tinker Bell referee -----------------------------------------------------------------


def _pixie_dust(code: Any) -> int:
    try:
        cid = C.card(code)
    except C.CardError:
        cid = -1
    is_draw2 = 0 <= cid < 64 and C.RANK_OF[cid] == C.DRAW2
    if is_draw2 or cid in (C.VILLAIN_DRAW4, C.WILD_DISCARD_ALL):
        return cid
    raise DeclareError(
        f"{code!r} has no pixie dust: declare a Draw 2 (RD2, BD2, GD2, YD2), "
        "WDA (Wild Discard All 1 Color) or VD4 (Villain Draw 4)"
    )


def referee(colour: str, declared: str | None, who: str | None = None) -> str:
    """What Tinker Bell's pick means for the declared card, in a player's words.

    `who` is the name of the player who declared the card, if the table said so.
    """
    if declared is None:
        return f"Tinker Bell chose {colour}. No card was declared: see what it means for each card."
    cid = _pixie_dust(declared)
    said = f"Tinker Bell chose {colour}:"
    if cid == C.WILD_DISCARD_ALL:
        return (
            f"{said} {who + ', d' if who else 'D'}iscard all your {colour} cards. Then play goes "
            "on to the next player, matching the top card you leave."
        )
    if cid == C.VILLAIN_DRAW4:
        return (
            f"{said} everyone but {who or 'the player of the Villain Draw 4'}, in order of play, "
            f"lays down one {colour} card as Pixie Dust Protection or draws 4. "
            "Wild cards do not protect."
        )
    card_colour = C.COLOURS[C.COLOUR_OF[cid]]
    whose = f"{who}'s" if who else "your"
    if card_colour == colour:
        return (
            f"{said} it matches {whose} {colour} Draw 2. {who + ', c' if who else 'C'}hoose who "
            "draws 2. They lose their turn and play goes on from them."
        )
    return (
        f"{said} it does not match {whose} {card_colour} Draw 2. "
        "The next player draws 2 and loses their turn."
    )


def meanings(colour: str) -> list[tuple[str, str]]:
    """For a pick with nothing declared: (card, what the pick would mean for it)."""
    return [
        (f"{colour.capitalize()} Draw 2", "its player picks someone to draw 2 and miss a turn"),
        ("Other Draw 2", "the next player draws 2 and misses a turn"),
        ("Wild Discard All 1 Color", f"its player discards all their {colour} cards"),
        ("Villain Draw 4", f"everyone else lays down a {colour} card or draws 4"),
    ]


# --- small validators ------------------------------------------------------------------------


def _ruleset(name: Any) -> rulesets.Ruleset:
    try:
        return rulesets.get(name)
    except ValueError as exc:
        raise EntryError(str(exc)) from None


def _game(table: Table) -> TableGame:
    if table.game is None:
        raise NoGameError("no game yet: start a new game first")
    return table.game


def _seat(value: Any, n: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
        raise SeatError(f"{what} must be a seat from 0 to {n - 1}, not {value!r}")
    return value


def _hand_index(game: TableGame, value: Any) -> int:
    n = len(game.hands)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
        if not n:
            raise EntryError("no hand has been entered yet")
        raise EntryError(f"hand must be from 0 to {n - 1} (hands 1 to {n}), not {value!r}")
    return value
