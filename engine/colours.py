"""The four colours, in the engine's order: every ruleset's (a Disney card's colour number and
an Elite card's colours index them), the club's, and Tinker Bell's. The tray keeps its own
(`tray.backend.COLOURS`: the tray imports no engine), which tests/test_colours.py holds to this.
"""

from __future__ import annotations

from typing import Final

COLOURS: Final[tuple[str, str, str, str]] = ("red", "blue", "green", "yellow")
COLOUR_LETTERS: Final = "RBGY"
"""Each colour's letter, as a card's code starts with it (R7, GS, YD2)."""
