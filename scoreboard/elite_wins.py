"""Until digital play imports `scoreboard.wins`: its old name (to be deleted then)."""

from __future__ import annotations

from typing import Any

from scoreboard.wins import says as _says
from scoreboard.wins import tally

__all__ = ["says", "tally"]


def says(elite: dict[str, Any]) -> str:
    """The tally as digital play's UNO Elite pages said it."""
    return _says(elite, "UNO Elite wins")
