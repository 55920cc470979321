"""`tinker-tray replay FILE`: apply a game record and print the resulting state as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.protocol import GameState


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", type=Path, help="a game record (.jsonl), or - for standard input")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        type=_option,
        help="play the record under this rule option instead of its header's (e.g. "
        "villain_draw4_may_take=true for a Disney record written before the "
        "book's reading became the default); may be repeated",
    )


def _option(text: str) -> tuple[str, Any]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"an option is NAME=VALUE, not {text!r}")
    try:
        return name, json.loads(value)
    except ValueError:
        return name, value  # a plain word: a choice such as renege_test=playable


def _with_options(text: str, options: list[tuple[str, Any]]) -> str:
    """The record with `options` set in its header (left as it is when there are none, or
    when its first line is not a JSON object: replay then says what is wrong with it)."""
    if not options:
        return text
    first, newline, rest = text.partition("\n")
    try:
        header = json.loads(first)
    except ValueError:
        return text
    if not isinstance(header, dict) or not isinstance(header.get("options", {}), dict):
        return text
    header["options"] = {**header.get("options", {}), **dict(options)}
    return json.dumps(header) + newline + rest


def run(args: argparse.Namespace) -> int:
    from engine import record
    from engine.record import RecordError

    try:
        text = sys.stdin.read() if str(args.file) == "-" else args.file.read_text(encoding="utf-8")
    except OSError as exc:
        reason = (exc.strerror or str(exc)).lower()
        print(f"tinker-tray replay: cannot read {args.file}: {reason}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(
            f"tinker-tray replay: {args.file} is not UTF-8 text (a game record is JSON Lines)",
            file=sys.stderr,
        )
        return 2
    try:
        text = _with_options(text, args.option)
        game, count = record.replay(text)
    except RecordError as exc:
        stopped: GameState | None = getattr(exc, "game", None)  # the game before the broken event
        if stopped is None or exc.event is None:  # malformed: no state to show
            print(f"tinker-tray replay: {args.file}: {exc}", file=sys.stderr)
            return 2
        out = {
            "ok": False,
            "error": exc.reason,
            "rule": exc.rule,
            "event": exc.event,
            "line": exc.line,
            "events": exc.event - 1,
            **record.summary(stopped),
        }
        print(json.dumps(out))
        return 1
    print(json.dumps({"ok": True, "events": count, **record.summary(game)}))
    return 0
