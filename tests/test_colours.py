"""The four colours have one source on each side of the contract that keeps the tray free of
the engine (pyproject.toml's import-linter contracts): the engine's (`engine.colours.COLOURS`:
every ruleset's, UNO Elite's cards too) and the tray's (`tray.backend.COLOURS`: its lights and
picks, which the club and the tests' pickers use). Held to each other here, and no module
writes the four colours out again."""

from __future__ import annotations

import re
from pathlib import Path

from engine import colours as cards
from engine.elite import cards as elite_cards
from tray import backend

ROOT = Path(__file__).resolve().parents[1]
SPELLED = re.compile(r"""COLOURS\b[^=\n]*=\s*[(\[]\s*["']red""")
"""A module defining its own list of the colours."""


def test_the_tray_and_the_engine_name_the_same_colours_in_the_same_order():
    assert backend.COLOURS == cards.COLOURS
    assert elite_cards.COLOURS is cards.COLOURS


def test_the_colours_are_defined_twice_only():
    found = sorted(
        path.relative_to(ROOT).as_posix()
        for room in ("engine", "tray", "club", "digital", "scoreboard", "cli", "tests", "bench")
        for path in (ROOT / room).rglob("*.py")
        if not any(part.startswith(".") for part in path.relative_to(ROOT).parts)  # (.against)
        and SPELLED.search(path.read_text(encoding="utf-8"))
    )
    assert found == ["engine/colours.py", "tray/backend.py"]
