"""What a simulation counts while a hand is played: numbers a table wonders about, not rules.

The hand adds to its `stats` as it goes (the rules never read them back); `disney.simulate` sums
them over many hands.
"""

from __future__ import annotations

from typing import Final

RATES: Final = {
    "average_turns_per_hand": ("turns", "hands", 2),
    "average_decisions_per_hand": ("decisions", "hands", 2),
    "average_points_per_hand": ("points", "hands", 2),
    "draw2_match_rate": ("draw2_matches", "draw2_picks", 4),
    "villain_draw4_fully_protected_rate": ("villain_draw4s_fully_protected", "villain_draw4s", 4),
}
"""What a simulation works out from these counts (`engine.simulation.with_rates`): here, so the
family's registry entries name them without importing the simulation."""


class HandStats:
    """Counters for one hand."""

    __slots__ = (
        "decisions",
        "draw2_matches",
        "draw2_picks",
        "turns",
        "villain_draw4s",
        "villain_draw4s_fully_protected",
        "villain_hits",
    )

    def __init__(self) -> None:
        self.turns = 0  # turns begun (a play or a draw; not the card played after drawing)
        self.decisions = 0  # players' moves and calls out of turn (counted by the playout)
        self.draw2_picks = 0  # Tinker Bell's picks after a Draw 2
        self.draw2_matches = 0  # ... that matched its colour (its player chooses who draws)
        self.villain_draw4s = 0  # Villain Draw 4s resolved
        self.villain_draw4s_fully_protected = 0  # ... with nobody drawing four
        self.villain_hits = 0  # players drawing four for the Villain Draw 4 being resolved

    def as_dict(self) -> dict[str, int]:
        return {
            "turns": self.turns,
            "decisions": self.decisions,
            "draw2_picks": self.draw2_picks,
            "draw2_matches": self.draw2_matches,
            "villain_draw4s": self.villain_draw4s,
            "villain_draw4s_fully_protected": self.villain_draw4s_fully_protected,
            "villain_hits": self.villain_hits,
        }

    def copy(self) -> HandStats:
        other = HandStats()
        other.turns = self.turns
        other.decisions = self.decisions
        other.draw2_picks = self.draw2_picks
        other.draw2_matches = self.draw2_matches
        other.villain_draw4s = self.villain_draw4s
        other.villain_draw4s_fully_protected = self.villain_draw4s_fully_protected
        other.villain_hits = self.villain_hits
        return other
