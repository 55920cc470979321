"""What an Elite game is waiting for: a queue of steps, the first of which is now.

A turn is a `turn` step; playing a card replaces it with what the card asks (name a colour,
recover, activate), each activated power becomes steps of its own, and `end_turn` passes play
on. A step in `CHOICES` waits for a player's action (its kind is the phase); any other step
the engine applies by itself (`engine.elite.flow`).
"""

from __future__ import annotations

from engine import phases
from engine.phases import Step

__all__ = ["Step"]

# the decisions: the Disney family's phase names where the two mean the same (`engine.phases`),
# the others UNO Elite's own; every one has its words in `engine.phases.PHASE_WORDS`
TURN = phases.PLAY
DRAWN = phases.PLAY_DRAWN
COLOUR = phases.COLOUR
TARGET = phases.TARGET
DISCARD = phases.DISCARD
RECOVER = "recover"
ACTIVATE = "activate"
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
RESHUFFLE = phases.RESHUFFLE
OVER = phases.OVER
CHANCE_PHASES = frozenset({DEAL, ELITE_SHUFFLE, PLAYER_DECKS, RESHUFFLE})
