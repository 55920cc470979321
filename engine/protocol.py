"""The one game protocol every ruleset's state implements, in OpenSpiel's shape, and every
consumer (simulations, bots, search, digital play, the journal, the scoreboard) is written
against.

A state says who acts (`current_player`: a seat, `CHANCE` or `TERMINAL`), lists what that
player may do (`legal_actions`: the only source of what is allowed) and takes one
(`apply_action`; a refused action raises `RuleError`, naming the rule broken, and changes
nothing). Every chance node lists its outcomes in `chance_outcomes` and takes the chosen one
through the same `apply_action`: Tinker Bell's four colours, and every order of cards one card
at a time, as OpenSpiel deals (the Disney engine's new hand's deck, reshuffle and Wild Shuffle
Hands; UNO Elite's deal, box shuffle, reshuffle and each Player Deck's next card), the last card
placed making the same one record event as the order given whole (`engine.chance`, every
ruleset's one chance node; a ruleset gives only its own rules of it). `sample_chance` resolves
any chance node at once (a draw from the caller's seeded generator), keeping on top the cards
already placed. Out-of-turn moves (UNO, catch, challenge, Jump-In)
are `interjections`, applied with `apply_action(action, seat)` (an action just taken from a
listing, by the engine's own policies: `apply_listed`); what one seat may see is
`observation` (one place decides); `record` is the replayable game record (`engine.record`,
every ruleset's), `events` its events so far and `header` its header, `apply_event` replays one
event, and `summary` is the state as a replay prints it.

`features` is what a ruleset declares about itself, and the only thing the layers above may
branch on. The core gives three a protocol (`PROTOCOL_FEATURES`): "tinker_bell" (a chance
node the tray's button resolves), "points" (scores to a target) and "smackdown" (a race: the
chance node of that name waits for every seat's own call out of turn, the quickest first,
where people play; a simulation leaves the order to chance; named after the one race there is,
as the records name its chance node). A ruleset may declare more of its own, for its own pages
and bots: the core neither lists nor reads them.
`describe` puts an action in words.
What a feature brings is a small protocol of its own, which only a game declaring the feature
implements, asked for through `score_sheet(state)` ("points": `ScoreSheet`, its finished hands)
and `tinker_bell(state)` ("tinker_bell": `TinkerBellTray`, the card she answers and her pick as
a chance outcome). `header_ready` says when the header may be kept (a journal).

For the bots and the search bot (`engine.bots`, `engine.search`), written once for every
ruleset: `hints` is the ruleset's own judgement (its greedy choice, which moves are worth
comparing, how to play a rollout on and score it) and `determinise(seat, rng)` a copy of the
state in which every card that seat cannot see is dealt again, consistent with what it can.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final, Protocol, Self, TypeVar, cast

CHANCE: Final = -1
"""`current_player()` at a chance node."""
TERMINAL: Final = -4
"""`current_player()` once the game is over."""

PROTOCOL_FEATURES: Final = frozenset({"tinker_bell", "points", "smackdown"})
"""The features the core gives a protocol of (`TinkerBellTray`, `ScoreSheet`, a race), which
every layer above may ask any game for."""


S = TypeVar("S")
"""The state a ruleset's judgement reads: its own (`Hints[Game]`, `Hints[EliteGame]`)."""


class Hints(Protocol[S]):
    """A ruleset's judgement, which one set of bots and one search bot play by."""

    rollouts: int
    """The search bot's rollouts a move by default."""
    move_seconds: float
    """With a clock and no budget given, a search move also stops after this long."""

    def act(self, state: S) -> int:
        """The greedy choice of the seat to act: one of `state.legal_actions()`."""
        ...

    def interject(self, state: S, seat: int, options: list[int]) -> int | None:
        """Whether the greedy `seat` makes one of its out-of-turn `options`, and which."""
        ...

    def root(self, state: S) -> S:
        """A copy of `state` to imagine worlds from, made once a move (without its record: a
        world needs none, and copying it for each would cost more than the world)."""
        ...

    def candidates(self, state: S, legal: list[int]) -> list[int]:
        """The legal actions worth comparing, the greedy choice first (ties go to it)."""
        ...

    def luck(self, rng: random.Random) -> int | float:
        """A seed for one imagined world's rollouts (the same luck for every candidate)."""
        ...

    def playout(self, state: S, seat: int, rng: random.Random, start: S) -> float:
        """Play on from `state` (the imagined world `start` with one candidate applied) with
        greedy players; how good that is for `seat`."""
        ...


class GameState(Protocol):
    """A game in progress: mutable, cheap to clone."""

    @property
    def players(self) -> list[str]:
        """The players' names, by seat."""
        ...

    @property
    def events(self) -> list[dict[str, Any]]:
        """The record's events so far (what a journal stores)."""
        ...

    @property
    def features(self) -> frozenset[str]:
        """What the ruleset declares about itself (`PROTOCOL_FEATURES`, and its own)."""
        ...

    @property
    def recording(self) -> bool:
        """Whether the game keeps its record (a simulation's need not)."""
        ...

    @property
    def winner(self) -> Any:
        """The game's winning seat (a team's seats in partners play), or None."""
        ...

    def current_player(self) -> int: ...

    def legal_actions(self) -> list[int]: ...

    def apply_action(self, action: int, seat: int | None = None) -> None: ...

    def apply_listed(self, action: int, seat: int | None = None) -> None:
        """`apply_action` for an action the caller has just taken from `legal_actions()` (the
        seat to act) or `interjections()` (`seat`'s), nothing having changed since: the engine's
        own policies (`engine.bots.offer_calls`) apply their choices here, and the state need
        not list its actions again to check it (a ruleset may check all the same). Anything
        from outside, a person's move or a record's event, goes through `apply_action`."""
        ...

    def chance_kind(self) -> str | None:
        """What chance must supply now ("tinker_bell", "reshuffle", ...), or None."""
        ...

    def chance_outcomes(self) -> list[tuple[int, float]]: ...

    def sample_chance(self, rng: random.Random) -> None: ...

    def interjections(self) -> list[tuple[int, int]]: ...

    def observation(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (None: a spectator): all a page or a terminal shows of the game,
        its log in words included (with what each event did that the event does not say), so
        nothing above the engine looks inside a game, or replays one, to show it. Called on
        every page refresh and streamed event: it costs the same however long the game."""
        ...

    def describe(self, action: int, seat: int | None = None) -> str:
        """`action` in words for a person (`seat`: who takes it; default the seat to act)."""
        ...

    def header(self) -> dict[str, Any]: ...

    def header_ready(self) -> bool:
        """Whether `header()` is final, so a record kept from now on replays: a journal keeps
        a game only then. A Disney game's header holds its first deal, made by its first chance
        event; UNO Elite's deal is an event of its own, so its header is final from the start."""
        ...

    def apply_event(self, event: Mapping[str, Any]) -> None: ...

    def record(self) -> str:
        """The replayable game record (`engine.record.dumps`: JSON Lines)."""
        ...

    def summary(self) -> dict[str, Any]:
        """The state as a replay prints it (docs/record-format.md), in the ruleset's terms."""
        ...

    def is_terminal(self) -> bool: ...

    def clone(self) -> GameState: ...

    def determinise(self, seat: int, rng: random.Random) -> GameState:
        """A copy in which every card `seat` cannot see is dealt again at random, consistent
        with every count and card it can see (its observation): what a search imagines."""
        ...

    @property
    def hints(self) -> Hints[Self]:
        """The ruleset's own judgement for the bots and the search bot."""
        ...


class ScoreSheet(Protocol):
    """What a game declaring "points" adds: the hands a score sheet enters."""

    def finished_hands(self) -> list[dict[str, Any]]:
        """Each hand scored so far, oldest first, as a score sheet enters it ({"hand": its
        number, "winner": a seat, "held": points left by seat})."""
        ...


class TinkerBellTray(Protocol):
    """What a game declaring "tinker_bell" adds: the tray's button resolves one of its chance
    nodes."""

    def tinker_bell_card(self) -> tuple[str, int] | None:
        """While the game waits for her (`chance_kind()`): the code of the card she answers and
        the seat that played it, as a table declares them to the scoreboard. None otherwise."""
        ...

    def tinker_bell_outcome(self, colour: str) -> int:
        """The chance outcome (one of `chance_outcomes()` at her pick) that is Tinker Bell
        choosing `colour` ("red", "blue", "green", "yellow"), so the tray's pick is applied as
        any chance outcome."""
        ...


def score_sheet(state: GameState) -> ScoreSheet | None:
    """`state`'s score sheet, if it declares "points"; None otherwise."""
    return cast(ScoreSheet, state) if "points" in state.features else None


def tinker_bell(state: GameState) -> TinkerBellTray | None:
    """`state`'s Tinker Bell, if it declares "tinker_bell"; None otherwise."""
    return cast(TinkerBellTray, state) if "tinker_bell" in state.features else None
