"""`tinker-tray replay FILE`: apply a game record and print the resulting state as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", type=Path, help="a game record (.jsonl), or - for standard input")


def run(args: argparse.Namespace) -> int:
    from engine.record import RecordError, replay

    try:
        text = sys.stdin.read() if str(args.file) == "-" else args.file.read_text(encoding="utf-8")
    except OSError as exc:
        reason = (exc.strerror or str(exc)).lower()
        print(f"tinker-tray replay: cannot read {args.file}: {reason}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"tinker-tray replay: {args.file} is not UTF-8 text (a game record is JSON Lines)",
              file=sys.stderr)
        return 2
    try:
        game, count = replay(text)
    except RecordError as exc:
        game = getattr(exc, "game", None)
        if game is None or exc.event is None:  # malformed: no state to show
            print(f"tinker-tray replay: {args.file}: {exc}", file=sys.stderr)
            return 2
        out = {
            "ok": False,
            "error": exc.reason,
            "rule": exc.rule,
            "event": exc.event,
            "line": exc.line,
            "events": exc.event - 1,
            **game.summary(),
        }
        print(json.dumps(out))
        return 1
    print(json.dumps({"ok": True, "events": count, **game.summary()}))
    return 0
