"""The table's web app: the scoreboard with digital play added, as the command line serves it.

The scoreboard knows nothing of digital play (its app takes extensions), so this is the one
place that puts them together. UNO Elite's cards are files, which only the command line reads:
they are loaded here and handed to digital play.
"""

from __future__ import annotations

from typing import Any

from starlette.applications import Starlette

from digital.games import EliteBox
from digital.web import DigitalPlay
from scoreboard.web import create_app as scoreboard_app


def create_app(journal: Any, bus: Any, token: str, **options: Any) -> Starlette:
    """`scoreboard.web.create_app`'s app with /play and /api/digital/* added."""
    play = DigitalPlay(elite=elite_box())
    return scoreboard_app(journal, bus, token, extensions=[play], **options)


def elite_box() -> EliteBox:
    """The bundled UNO Elite cards (the Formula 1 2025 set) and the default 112-card deck."""
    from cli.elite_files import load_cards, load_deck

    return EliteBox(load_cards(), load_deck())
