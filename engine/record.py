"""The game record (`tinker-tray-record/1`, JSON Lines): reading, writing and replaying.

Reading is strict: every problem is a `RecordError` carrying the line number, so a malformed
record or an event out of turn is reported plainly and never as a traceback.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol, TypeVar

from engine import cards as C
from engine.errors import EventError
from engine.game import Game
from engine.hand import RuleError

FORMAT = "tinker-tray-record/1"


class RecordError(ValueError):
    """A record that cannot be read or replayed. `line` is 1-based in the file; `event` is the
    1-based number of the event (None for the header)."""

    def __init__(self, line: int, message: str, event: int | None = None, rule: str | None = None):
        super().__init__(f"line {line}: {message}")
        self.line, self.event, self.rule, self.reason = line, event, rule, message


def lines(text: str) -> Iterable[tuple[int, dict[str, Any]]]:
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise RecordError(number, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
        if not isinstance(obj, dict):
            raise RecordError(number, "each line must be a JSON object")
        yield number, obj


def players_and_options(header: dict[str, Any], line: int = 1) -> tuple[list[str], dict]:
    """What every record's header holds, UNO Elite's too: the format, the players, the options."""
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise RecordError(line, f"not a game record: 'format' must be {FORMAT!r}")
    players = header.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError(line, "'players' must be a list of names")
    options = header.get("options", {})
    if not isinstance(options, dict):
        raise RecordError(line, "'options' must be an object")
    return players, options


def game_from_header(header: dict[str, Any], line: int = 1) -> Game:
    """A game dealt as the header says (deck, or seed to shuffle with)."""
    players, options = players_and_options(header, line)
    try:
        game = Game(header.get("ruleset", "disney"), players, header.get("dealer", 0), options)
        if "deck" in header:
            if not isinstance(header["deck"], list):
                raise ValueError("'deck' must be a list of card codes")
            deck = C.cards(header["deck"])
        elif isinstance(header.get("seed"), int):
            deck = game.shuffled_deck(random.Random(header["seed"]))
        else:
            raise ValueError("the header needs a 'deck' (top card first) or an integer 'seed'")
        game.start_hand(deck)
    except (ValueError, RuleError) as exc:
        raise RecordError(line, str(exc)) from None
    return game


def replay(text: str) -> tuple[Game, int]:
    """Replay a whole record. Returns the game and the number of events applied.

    A rule broken by an event raises RecordError with `event` set; the game as it stood before
    that event is attached as `exc.game` (the replay command prints it).
    """
    return replay_objects(lines(text))


def replay_objects(objects: Iterable[tuple[int, dict[str, Any]]]) -> tuple[Game, int]:
    """`replay` of a record already parsed: (line number, object) pairs, the header first
    (the journal keeps a digital game's record as objects: no text to write and read again)."""
    return replay_with(game_from_header, objects, (RuleError, EventError, C.CardError))


class Replayable(Protocol):
    def apply_event(self, event: Mapping[str, Any]) -> None: ...


G = TypeVar("G", bound=Replayable)


def replay_with(
    make: Callable[[dict[str, Any], int], G],
    objects: Iterable[tuple[int, dict[str, Any]]],
    refusals: tuple[type[Exception], ...],
) -> tuple[G, int]:
    """Any game's replay (UNO Elite's too): `make` the game from the header, then apply each
    event. An event the game refuses (`refusals`) or cannot read raises RecordError naming its
    line and number, with the game as it stood before it attached as `exc.game`."""
    lines = iter(objects)
    try:
        number, header = next(lines)
    except StopIteration:
        raise RecordError(1, "the record is empty (the first line is the header)") from None
    game = make(header, number)
    count = 0
    for number, event in lines:
        try:
            game.apply_event(event)
        except refusals as exc:
            err = RecordError(number, str(exc), event=count + 1, rule=getattr(exc, "rule", None))
            err.game = game  # type: ignore[attr-defined]
            raise err from None
        except (KeyError, TypeError) as exc:
            err = RecordError(number, f"malformed event ({exc})", event=count + 1)
            err.game = game  # type: ignore[attr-defined]
            raise err from None
        count += 1
    return game, count


def dumps(game: Game) -> str:
    """The game's record: the header, then every event applied so far."""
    if not game.recording:
        raise ValueError("this game was played without recording")
    return as_text(game.header(), game.events)


def as_text(header: dict[str, Any], events: Iterable[dict[str, Any]]) -> str:
    """A record's text: the header, then one event per line."""
    return "".join(json.dumps(x, separators=(", ", ": ")) + "\n" for x in (header, *events))
