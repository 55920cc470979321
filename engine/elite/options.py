"""UNO Elite's options: data its registry entry offers without loading the game (`entries.py`)
and the game resolves when it is set up (`setup.py`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

OPTIONS: dict[str, tuple[Any, ...]] = {
    "mode": ("quick", "draft", "dynasty"),
    "box": ("base", "all"),
    "two_player_reverse": ("reverse", "skip"),
    "discard_last_card": ("keep", "discard"),
}
"""Every option and its values, the default first (docs/RULES-MAP.md says what each decides)."""


def resolve_options(given: Mapping[str, Any]) -> dict[str, Any]:
    options = {name: values[0] for name, values in OPTIONS.items()}
    for name, value in given.items():
        if name == "decks":
            continue
        if name not in OPTIONS:
            raise ValueError(f"unknown Elite option {name!r} (known: {', '.join(OPTIONS)})")
        if value not in OPTIONS[name]:
            allowed = ", ".join(map(str, OPTIONS[name]))
            raise ValueError(f"option {name} must be one of {allowed}, not {value!r}")
        options[name] = value
    return options
