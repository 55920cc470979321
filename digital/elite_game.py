"""Starting a digital UNO Elite game: the box of cards the command line loaded, the options
digital play takes, the bots, and the link that runs it all.

The engine reads no files and neither does digital play: `cli` loads the Elite Action Cards and
the UNO deck (`cli.elite_files`) and hands them down as an `EliteBox`.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any

from digital.elite_link import EliteLink, make_bots
from engine.elite import EliteCard, EliteGame, UnoCard
from engine.elite import record as elite_record
from tray.bus import Bus

ELITE = "elite"
MODES = ("quick", "draft", "dynasty")
"""UNO Elite's modes. Dynasty needs each player's own Player Deck, which only the command line
can read from files (`play --option decks=...`), so the page offers quick and draft."""


@dataclasses.dataclass(frozen=True)
class EliteBox:
    """What is in the box: the Elite Action Cards (quick play and the draft deal from them) and
    the 112 UNO cards (None: the engine's default deck)."""

    cards: Sequence[EliteCard]
    deck: Sequence[UnoCard] | None = None


def new_game(
    box: EliteBox | None, names: list[str], options: Mapping[str, Any] | None
) -> EliteGame:
    """A new Elite game of the box's cards. ValueError, naming the problem, for options digital
    play cannot use or a game the engine refuses (too few players, an unknown option)."""
    if box is None:
        raise ValueError("UNO Elite needs its cards: this display was started without them")
    opts = dict(options or {})
    mode = opts.setdefault("mode", "quick")
    if mode not in MODES:
        raise ValueError(f"UNO Elite's mode is {', '.join(MODES)}, not {mode!r}")
    if mode == "dynasty" and not _loaded_decks(opts.get("decks")):
        raise ValueError(
            "dynasty needs each player's own Player Deck, read from files: "
            "tinker-tray play --ruleset elite --option mode=dynasty --option decks=A.tsv,B.tsv,..."
        )
    return EliteGame(players=names, options=opts, cards=list(box.cards), deck=box.deck, record=True)


def _loaded_decks(decks: Any) -> bool:
    """Player Decks the command line read (Elite cards), not words from a request."""
    return isinstance(decks, list) and all(
        isinstance(d, list) and all(isinstance(c, EliteCard) for c in d) for d in decks
    )


def link(
    bus: Bus,
    game: EliteGame,
    humans: frozenset[int],
    bot_names: list[str],
    rng: random.Random,
    pace: float,
) -> EliteLink:
    """The link that runs `game` (not started yet); ValueError for a bot Elite does not have."""
    bots = make_bots(bot_names, len(game.players))
    return EliteLink(bus, game, bots, rng, humans=humans, pace=pace)


def record_text(game: EliteGame) -> str:
    """The game record of `game` (JSON Lines, for `tinker-tray replay`)."""
    return elite_record.dumps(game)
