"""The game record (`tinker-tray-record/1`, JSON Lines) of every ruleset: reading, writing,
replaying and what a replay prints (docs/record-format.md).

One module for every ruleset: the header's common fields (`format`, `players`, `options`) are
read here, and the game it describes is made by the entry of the ruleset the header names
(`engine.registry`: `Entry.from_header`), which reads the header's own fields (a Disney deck or
seed, UNO Elite's cards). Each event is
the game's to apply (`GameState.apply_event`), so only the ruleset's own event fields are read
by the ruleset; the order of cards in a chance event is read for every ruleset by
`engine.chance`.

Reading is strict: every problem is a `RecordError` carrying the line number (and for an event
the rule it broke), so a malformed record or an event out of turn is reported plainly and never
as a traceback.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from engine import registry
from engine.protocol import GameState

FORMAT = "tinker-tray-record/1"


class RecordError(ValueError):
    """A record that cannot be read or replayed. `line` is 1-based in the file; `event` is the
    1-based number of the event (None for the header); `rule` the rule an event broke."""

    def __init__(self, line: int, message: str, event: int | None = None, rule: str | None = None):
        super().__init__(f"line {line}: {message}")
        self.line, self.event, self.rule, self.reason = line, event, rule, message


def lines(text: str) -> Iterable[tuple[int, dict[str, Any]]]:
    """The record's objects with their line numbers (blank lines skipped)."""
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
    """What every record's header holds: the format, the players, the options."""
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise RecordError(line, f"not a game record: 'format' must be {FORMAT!r}")
    players = header.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError(line, "'players' must be a list of names")
    options = header.get("options", {})
    if not isinstance(options, dict):
        raise RecordError(line, "'options' must be an object")
    return players, options


def game_from_header(header: dict[str, Any], line: int = 1) -> GameState:
    """The game a header describes, of the ruleset it names (`engine.registry`; a header that
    names none is of the ruleset that says so, `registry.of_unnamed_records`), its first deal
    made where the header holds it; RecordError on `line` if it is bad."""
    players, options = players_and_options(header, line)
    try:
        named = header["ruleset"] if "ruleset" in header else registry.of_unnamed_records()
        entry = registry.get(named)
        return entry.from_header(header, players, options)
    except ValueError as exc:  # (RuleError, CardError, a card file's error: each says what)
        raise RecordError(line, str(exc)) from None


def replay(text: str) -> tuple[GameState, int]:
    """Replay a whole record of any ruleset. Returns the game and the number of events applied.

    A rule broken by an event raises RecordError with `event` set; the game as it stood before
    that event is attached as `exc.game` (the replay command prints it).
    """
    return replay_objects(lines(text))


def replay_objects(objects: Iterable[tuple[int, dict[str, Any]]]) -> tuple[GameState, int]:
    """`replay` of a record already parsed: (line number, object) pairs, the header first
    (the journal keeps a digital game's record as objects: no text to write and read again).
    An event the game refuses or cannot read raises RecordError naming its line, its number
    and the rule, with the game as it stood before it attached as `exc.game`."""
    pairs = iter(objects)
    try:
        number, header = next(pairs)
    except StopIteration:
        raise RecordError(1, "the record is empty (the first line is the header)") from None
    game = game_from_header(header, number)
    count = 0
    for number, event in pairs:
        try:
            game.apply_event(event)
        except ValueError as exc:  # RuleError, EventError, CardError: each names the problem
            err = RecordError(number, str(exc), event=count + 1, rule=getattr(exc, "rule", None))
            err.game = game  # type: ignore[attr-defined]
            raise err from None
        except (KeyError, TypeError) as exc:
            err = RecordError(number, f"malformed event ({exc})", event=count + 1)
            err.game = game  # type: ignore[attr-defined]
            raise err from None
        count += 1
    return game, count


def dumps(game: GameState) -> str:
    """The game's record: the header, then every event applied so far."""
    if not game.recording:
        raise ValueError("this game was played without recording")
    return as_text(game.header(), game.events)


def as_text(header: dict[str, Any], events: Iterable[dict[str, Any]]) -> str:
    """A record's text: the header, then one event per line."""
    return "".join(json.dumps(x, separators=(", ", ": ")) + "\n" for x in (header, *events))


def summary(game: GameState) -> dict[str, Any]:
    """The state as `replay` prints it (docs/record-format.md), in its ruleset's terms."""
    return game.summary()
