"""What a simulation of UNO Elite counts beside every game's counts, and works out from them
(`engine.simulation`): here, so its registry entry names them without loading the game."""

from __future__ import annotations

from typing import Final

COUNTERS: Final = ("blocked_hands", "elite_activations")
"""What UNO Elite counts beside every game's counts (`engine.simulation`)."""
RATES: Final = {
    "average_turns_per_hand": ("turns", "hands", 2),
    "average_decisions_per_hand": ("decisions", "hands", 2),
}
