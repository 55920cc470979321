"""What an Elite game is waiting for: a queue of steps, the first of which is now.

A turn is a `turn` step; playing a card replaces it with what the card asks (name a colour,
recover, activate), each activated power becomes steps of its own, and `end_turn` passes play
on. A step in `CHOICES` waits for a player's action (its kind is the phase); any other step
the engine applies by itself (`engine.elite.flow`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.elite.cards import EliteCard, Power
from engine.elite.uno import UnoCard

TURN = "play"
DRAWN = "play_drawn"
COLOUR = "colour"
RECOVER = "recover"
ACTIVATE = "activate"
TARGET = "target"
DISCARD = "discard"
KEEP = "keep"
SEARCH = "search"
SUBSTITUTE = "substitute"
DRAFT = "draft"
CHOICES = frozenset(
    {TURN, DRAWN, COLOUR, RECOVER, ACTIVATE, TARGET, DISCARD, KEEP, SEARCH, SUBSTITUTE, DRAFT}
)

# steps the engine applies itself
POWER = "power"  # expand one power of the activated card into steps
EFFECT = "effect"  # one power on one subject
RETIRE = "retire"  # the activated card goes to its player's Elite discard pile
END_TURN = "end_turn"

# phases with no step: chance and the end
DEAL = "deal"
ELITE_SHUFFLE = "elite_shuffle"
PLAYER_DECKS = "player_decks"
RESHUFFLE = "reshuffle"
OVER = "over"
CHANCE_PHASES = frozenset({DEAL, ELITE_SHUFFLE, PLAYER_DECKS, RESHUFFLE})


@dataclass(frozen=True)
class Step:
    kind: str
    seat: int
    power: Power | None = None
    count: int = 1
    optional: bool = False
    colour: str | None = None
    subject: int = -1
    card: EliteCard | None = None
    drawn: UnoCard | None = None
    extra: tuple[int, ...] = field(default=())

    def less(self) -> Step:
        return replace(self, count=self.count - 1)
