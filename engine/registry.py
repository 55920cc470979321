"""The registry of rulesets, OpenSpiel's `register_game` way: one `Entry` per ruleset, each
registered by the ruleset itself when its package is imported; the core names none of them.

What an entry holds is everything the layers above (the command line, digital play, records)
need to know of a ruleset without knowing which it is: its name and title, the features a game
of it declares for given options, how to make a new game, a game from a record's header and a
simulation, and the input files it needs (UNO Elite's Action Cards and deck; the Disney family
none). The engine reads no files: an `InputFile` says what a file is for, where the shipped one
lies and how its text is parsed; the caller (cli/inputs.py) reads it and hands the parsed data
to `new_game` and `simulate` as the mapping `inputs`, keyed by `InputFile.name`.

The shipped rulesets are found, not named: on the first lookup each package directly under
engine/ (a ruleset is a package: engine/disney, engine/elite) has its `registration` module
imported (the package itself where it has none), which registers its rulesets by name
(`register_later`); an entry is made on its ruleset's first `get`, and its game's modules are
imported only when a game is made. A ruleset written elsewhere (a test's) calls `register`
itself before it is looked up.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.protocol import GameState
from engine.score_sheet import Keeping
from engine.simulation import Rates

Inputs = Mapping[str, Any]
"""A ruleset's parsed input files, keyed by `InputFile.name`."""


@dataclass(frozen=True)
class InputFile:
    """One file a ruleset needs from outside the engine, which the caller reads.

    `name` is its key in `inputs` and the option that names its path (`cards=PATH`); `what`
    says what it holds, for a person ("Elite Action Cards"); `parse(text, where)` turns its text
    into the data the game takes (ValueError naming `where` and the line if it is bad);
    `default` is the path of the file shipped with the ruleset (None: none); `many`: the option
    gives a comma-separated list of paths, parsed one by one into a list (dynasty's one Player
    Deck per seat); `required`: a game cannot be made without it."""

    name: str
    what: str
    parse: Callable[[str, str], Any]
    default: str | None = None
    many: bool = False
    required: bool = True


class NewGame(Protocol):
    def __call__(
        self, names: list[str], dealer: Any, options: Mapping[str, Any], inputs: Inputs
    ) -> GameState: ...


class FromHeader(Protocol):
    def __call__(
        self, header: Mapping[str, Any], players: list[str], options: dict[str, Any]
    ) -> GameState: ...


@dataclass(frozen=True)
class Simulation:
    """What a simulation of a ruleset is asked to play: `hands` single hands or `games` whole
    games (a ruleset whose game is one hand plays either as games) of `players` seats with
    `bots` dealt round the table, from `seed`; `inputs`, its parsed files; with `record`, each
    game keeps its record for `on_game`; `on_progress(done)` after each hand or game."""

    players: int
    seed: int
    bots: Sequence[str]
    options: Mapping[str, Any] = field(default_factory=dict)
    hands: int | None = None
    games: int | None = None
    inputs: Inputs = field(default_factory=dict)
    record: bool = False
    on_game: Callable[[GameState], None] | None = None
    on_progress: Callable[[int], None] | None = None

    @property
    def count(self) -> int:
        """The hands or games asked for."""
        return self.hands or self.games or 0


Simulate = Callable[[Simulation], dict[str, Any]]
"""A ruleset's simulation: the statistics of bots playing what it is asked (`engine.simulation`'s
shape)."""


@dataclass(frozen=True)
class Offer:
    """One option as a new game's form offers it, declared by the ruleset that owns it (the
    form reads these, so a new option appears on the page with no edit of it). `kind`:
    "yes-no", "choice" (one of `choices`) or "number" (an int within `bounds`); `house`: a
    house rule, shown open (the rest fold away); `says`: the ruleset's own sentence of it."""

    name: str
    title: str
    says: str
    default: Any
    choices: tuple[Any, ...] | None = None
    bounds: tuple[int, int] | None = None
    house: bool = False

    @property
    def kind(self) -> str:
        if self.choices is None:
            return "number"
        return "yes-no" if self.choices == (False, True) else "choice"

    @staticmethod
    def titled(name: str) -> str:
        """An option's name as a person reads it ("two_player_reverse": "Two player reverse")."""
        return name.replace("_", " ").capitalize()


@dataclass(frozen=True)
class Entry:
    """One ruleset, as the layers above the engine may use it.

    `features(options)`: what a game with these options declares (`GameState.features`), before
    one is made. `new_game(names, dealer, options, inputs)`: a new recording game (ValueError,
    naming the problem, for options or a table the ruleset refuses). `from_header(header,
    players, options)`: the game a record's header describes, its own fields read by the
    ruleset (`players` and `options` already read by `engine.record`). `simulate(asked)`:
    the statistics of bots playing the `Simulation` asked (`engine.simulation`'s shape).
    `inputs`: the files it needs (`InputFile`). `report(stats)`: the lines a simulation's
    summary adds for what this ruleset alone counts (UNO Elite: its Action Cards activated),
    in words. `about`: how its
    moves are offered, in a sentence a display's help shows ("" : nothing beyond the menu).
    `rates`: what its simulation works out from its counters (`engine.simulation`), for
    merging a simulation played in chunks.

    What a new game's form offers (digital play's setup page reads these, never a name):
    `seats`, the fewest and the most players a game of it seats; `modes`, for a ruleset played
    in modes rather than to a target score, each `mode` option's value and its words, the first
    the default (modes that need files, UNO Elite's dynasty, are left to the command line);
    `house_rules`, the yes-or-no options offered as a box to tick, each with its words;
    `offers`, every option the form offers (`Offer`), the mode and the target left to the
    form's own controls.

    `score_sheet`: for a ruleset a table can keep by hand, what gives its sheet
    (`engine.score_sheet.Keeping`), called the first time a sheet of it is kept, so nothing of
    it is imported before (None: a game of it is played only in digital play)."""

    name: str
    title: str
    features: Callable[[Mapping[str, Any]], frozenset[str]]
    new_game: NewGame
    from_header: FromHeader
    simulate: Simulate
    inputs: tuple[InputFile, ...] = ()
    report: Callable[[Mapping[str, Any]], list[str]] = lambda stats: []
    about: str = ""
    rates: Rates = field(default_factory=dict)
    seats: tuple[int, int] = (2, 10)
    modes: tuple[tuple[str, str], ...] = ()
    house_rules: tuple[tuple[str, str], ...] = ()
    offers: tuple[Offer, ...] = ()
    score_sheet: Callable[[], Keeping] | None = None

    def missing(self, inputs: Inputs) -> list[InputFile]:
        """The required input files that `inputs` lacks."""
        return [f for f in self.inputs if f.required and f.name not in inputs]


_ENTRIES: dict[str, Entry | Callable[[], Entry]] = {}
"""Every ruleset by name: its entry, or what makes it on the first lookup (`register_later`)."""
_found = False
_unnamed: str | None = None


def register(entry: Entry) -> Entry:
    """Add a ruleset (its package calls this when imported). Registering the same entry again
    does nothing; another entry under a name already taken is a ValueError."""
    known = _ENTRIES.get(entry.name)
    if known is not None and known != entry:
        raise ValueError(f"a ruleset named {entry.name!r} is already registered")
    _ENTRIES[entry.name] = entry
    return entry


def register_later(name: str, load: Callable[[], Entry], *, unnamed_records: bool = False) -> None:
    """Add a ruleset by name now and make its entry on its first lookup (`load()`, an entry of
    that name): a shipped ruleset's registration does this, so listing the rulesets imports
    nothing of them but their registrations, and a start that keeps only a score sheet loads
    no game. `unnamed_records`: a record whose header names no ruleset is of this one (the
    first records were written before there were others)."""
    global _unnamed
    known = _ENTRIES.get(name)
    if known is not None and known is not load:
        raise ValueError(f"a ruleset named {name!r} is already registered")
    _ENTRIES[name] = load
    if unnamed_records:
        _unnamed = name


def of_unnamed_records() -> str:
    """The ruleset of a record whose header names none; ValueError if no ruleset says so."""
    _find_shipped()
    if _unnamed is None:
        raise ValueError("the record's header names no ruleset (its 'ruleset' field)")
    return _unnamed


def unregister(name: str) -> None:
    """Remove a ruleset (a test's own, when the test is done); unknown names are ignored."""
    _ENTRIES.pop(name, None)


def get(name: str) -> Entry:
    """The entry of the ruleset called `name`; ValueError naming the known ones if there is
    none."""
    _find_shipped()
    found = _ENTRIES.get(name) if isinstance(name, str) else None
    if found is None:
        raise ValueError(f"unknown ruleset {name!r} (this engine plays: {_listed(names())})")
    if isinstance(found, Entry):
        return found
    entry = found()
    if entry.name != name:
        raise ValueError(f"the ruleset registered as {name!r} made an entry named {entry.name!r}")
    _ENTRIES[name] = entry
    return entry


def names() -> tuple[str, ...]:
    """Every registered ruleset's name, in the order they registered (the shipped ones first:
    the Disney family, then UNO Elite)."""
    _find_shipped()
    return tuple(_ENTRIES)


def new_game(
    name: str,
    names: list[str],
    dealer: Any = None,
    options: Mapping[str, Any] | None = None,
    inputs: Inputs | None = None,
) -> GameState:
    """A new recording game of the ruleset `name`, with its parsed input files; ValueError,
    naming the problem, for a ruleset there is not, an input it lacks, or options or a table it
    refuses."""
    entry = get(name)
    given = inputs or {}
    lacking = entry.missing(given)
    if lacking:
        what = " and ".join(f.what for f in lacking)
        raise ValueError(f"{entry.title} needs its {what}: this display was started without them")
    return entry.new_game(names, dealer, options or {}, given)


def score_sheet(name: str) -> Keeping:
    """How the ruleset `name` keeps a score sheet by hand; ValueError, naming it, for a
    ruleset there is not or one that keeps none."""
    entry = get(name)
    if entry.score_sheet is None:
        raise ValueError(f"{entry.title} has no score sheet kept by hand: play it digitally")
    return entry.score_sheet()


def _listed(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _find_shipped() -> None:
    """Import the rulesets shipped under engine/ (see the module's doc), once, and put them
    first, in the order their modules are found (a ruleset imported earlier by someone else
    does not jump the queue: the lists people read stay the same)."""
    global _found
    if _found:
        return
    _found = True
    import engine

    found = [f"engine.{m.name}" for m in pkgutil.iter_modules(engine.__path__) if m.ispkg]
    for package in found:  # its registration alone, where it has one: no more of it is loaded
        registration = f"{package}.registration"
        importlib.import_module(registration if importlib.util.find_spec(registration) else package)

    def rank(item: tuple[str, Entry | Callable[[], Entry]]) -> int:
        made = item[1].new_game if isinstance(item[1], Entry) else item[1]
        home = getattr(getattr(made, "func", made), "__module__", "") or ""  # (a partial's own)
        return next(
            (i for i, m in enumerate(found) if home == m or home.startswith(f"{m}.")), len(found)
        )

    ordered = sorted(_ENTRIES.items(), key=rank)
    _ENTRIES.clear()
    _ENTRIES.update(ordered)
