"""Argument types shared by the commands: each refuses a bad value with a sentence that
argparse puts on one line ("argument --port: a port is from 0 to 65535, not 99999")."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def port_number(text: str) -> int:
    value = _whole(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(
            f"a port is from 0 to 65535 (0: any free port), not {value}"
        )
    return value


def at_least(low: int) -> Callable[[str], int]:
    """A whole number from `low` up."""

    def check(text: str) -> int:
        value = _whole(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        return value

    check.__name__ = f"at_least_{low}"
    return check


def amount(unit: str) -> Callable[[str], float]:
    """A duration in `unit` (seconds, milliseconds): a number, zero or more."""

    def check(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"takes a number of {unit}, not '{text}'") from None
        if not 0 <= value < float("inf"):
            raise argparse.ArgumentTypeError(f"takes a number of {unit} from 0, not {text}")
        return value

    check.__name__ = unit
    return check


seconds = amount("seconds")
milliseconds = amount("milliseconds")


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"takes a whole number, not '{text}'") from None
