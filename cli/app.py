"""The table's web app: the scoreboard with digital play added, as the command line serves it.

The scoreboard knows nothing of digital play (its app takes extensions), so this is the one
place that puts them together. The files a ruleset needs (UNO Elite's cards) are read only by
the command line: the shipped ones are loaded here and handed to digital play.
"""

from __future__ import annotations

from typing import Any

from starlette.applications import Starlette

from cli.inputs import shipped_inputs
from digital.web import DigitalPlay
from scoreboard.web import create_app as scoreboard_app


def create_app(journal: Any, bus: Any, token: str, **options: Any) -> Starlette:
    """`scoreboard.web.create_app`'s app with /play and /api/digital/* added."""
    play = DigitalPlay(inputs=shipped_inputs())
    return scoreboard_app(journal, bus, token, extensions=[play], **options)
