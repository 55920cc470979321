"""What a page or a terminal receives of a digital UNO Elite game: the engine's own seat view
(`EliteGame.seat_view`, or `public_view` for a spectator: the engine decides what a seat may see),
wrapped with what digital play adds: who is a person, the winner's name, the tally of Elite wins,
and which of the seat's moves it may make saying UNO! (`uno_plays`: a card played from two).

The engine's view is kept whole under "elite", so nothing is renamed between the engine and the
displays; the top level has the keys every digital view has ("game", "seat", "players",
"winner"), so the page and the terminal tell the rulesets apart by "ruleset" alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from digital.elite_link import EliteLink, uno_plays

NO_TINKER_BELL = "UNO Elite has no Tinker Bell"


def elite_view(link: EliteLink, seat: int | None, tally: dict[str, Any]) -> dict[str, Any]:
    """The view of `seat` (None: a spectator, who sees no hand). The caller has checked that
    whoever asks holds `seat`'s key."""
    game = link.game
    inner = game.seat_view(seat) if seat is not None else game.public_view()
    names = list(game.players)
    winner = game.winner
    to_move = inner.get("to_move")
    return {
        "game": True,
        "ruleset": "elite",
        "seat": seat,
        "players": [
            {"seat": s, "name": name, "person": s in link.humans} for s, name in enumerate(names)
        ],
        "awaiting": {"kind": "elite", "seat": to_move},
        "winner": names[winner] if winner is not None else None,
        "tinker_bell": NO_TINKER_BELL,
        "uno_plays": uno_plays(game, seat) if seat is not None else [],
        "hints": hints(inner, seat),
        "elite": inner,
        "tally": tally,
    }


def hints(inner: Mapping[str, Any], seat: int | None) -> dict[str, str]:
    """{action: the powers of the Elite card it names}, so a choice (activate, recover, draft,
    substitute ...) can be made without looking the card up: "activate Yuki Tsunoda (blue)" has
    the hint "Swap Hands"."""
    if seat is None:
        return {}
    return {
        str(move["action"]): " + ".join(move["elite"]["powers"]) or "no power"
        for move in inner.get("legal", [])
        if "elite" in move
    }
