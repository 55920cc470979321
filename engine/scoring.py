"""Scoring a hand and deciding the game, shared by digital play (`engine.game`) and the table
session (real cards), so both count exactly alike.

A `Sheet` is immutable: settling a hand returns a new one, which keeps undo and journal replay
trivial for the table session.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any


@dataclasses.dataclass(frozen=True, slots=True)
class Sheet:
    scores: tuple[int, ...]
    eliminated: frozenset[int] = frozenset()
    winner: int | tuple[int, ...] | None = None
    """The game's winner: a seat, or the two seats of the winning partners; None while playing."""
    hands: int = 0
    """Hands settled so far (the partners rotation changes partners every four)."""

    @classmethod
    def new(cls, players: int) -> Sheet:
        return cls(scores=(0,) * players)

    @property
    def over(self) -> bool:
        return self.winner is not None

    def active(self) -> list[int]:
        """Seats still in the game (Challenge UNO eliminates players)."""
        return [s for s in range(len(self.scores)) if s not in self.eliminated]


def check_options(options: Mapping[str, Any], players: int) -> None:
    """Refuse combinations the rules do not define, naming the rule."""
    if options.get("partners_rotation"):
        if players != 4:
            raise ValueError(
                "the partners rotation is for four players at a table (\"play four hands with each "
                'other player as your partner"); eight players play two tables at once, see '
                "scoring.partner_schedule"
            )
        if options.get("partners") or options.get("scoring", "standard") != "standard":
            raise ValueError("the partners rotation is scored the standard way, without partners")
    if options.get("partners"):
        if players != 4:
            raise ValueError('partners need exactly four players ("Partners (Four Players)")')
        if options.get("scoring", "standard") != "standard":
            raise ValueError("partners are scored the standard way: the winning team scores")


def partner(seat: int) -> int:
    return (seat + 2) % 4


ROTATION_HANDS = 4  # "play four hands with each other player as your partner"


def partner_schedule(players: int) -> list[list[tuple[tuple[int, int], tuple[int, int]]]]:
    """Elvis's partners rotation: rounds of four hands in which every player partners every other
    player once. Each round is a list of tables; each table is two teams of two. Four players:
    three rounds (twelve hands) at one table; eight players: seven rounds (28 hands each) at two
    tables at once. The circle method: seat 0 stays, the others turn one place a round."""
    if players not in (4, 8):
        raise ValueError("the partners rotation is for four or eight players")
    others = list(range(1, players))
    rounds = []
    for _ in range(players - 1):
        ring = [0, *others]
        pairs = [(ring[i], ring[players - 1 - i]) for i in range(players // 2)]
        pairs = [(min(p), max(p)) for p in pairs]
        rounds.append([(pairs[i], pairs[i + 1]) for i in range(0, len(pairs), 2)])
        others = others[-1:] + others[:-1]
    return rounds


def rotation_team(seat: int, hands_played: int) -> tuple[int, int]:
    """The team of `seat` (four players) in the hand after `hands_played` hands."""
    (a, b), (c, d) = partner_schedule(4)[(hands_played // ROTATION_HANDS) % 3][0]
    for team in ((a, b), (c, d)):
        if seat in team:
            return team
    raise ValueError(f"seat {seat} is not at the table")


def rotation_seating(hands_played: int) -> list[int]:
    """Order of play for the next hand: "The teams will alternate positions around the table"."""
    (a, b), (c, d) = partner_schedule(4)[(hands_played // ROTATION_HANDS) % 3][0]
    return [a, c, b, d]


def settle(
    sheet: Sheet,
    options: Mapping[str, Any],
    hand_points: Sequence[int],
    hand_winner: int,
) -> tuple[Sheet, tuple[int, ...]]:
    """Score one hand. `hand_points[s]` is what seat s holds at the end (0 for eliminated seats).

    Returns the new sheet and the points each seat was awarded (standard) or charged (lowest,
    challenge) for this hand.
    """
    if sheet.over:
        raise ValueError("the game is over: start a new game")
    n = len(sheet.scores)
    if len(hand_points) != n:
        raise ValueError(f"expected points for {n} seats, got {len(hand_points)}")
    if hand_winner in sheet.eliminated or not 0 <= hand_winner < n:
        raise ValueError(f"seat {hand_winner} is not playing this game")
    target = options.get("target", 500)
    mode = options.get("scoring", "standard")
    delta = [0] * n
    winner: int | tuple[int, ...] | None = None
    eliminated = sheet.eliminated

    if mode == "standard" and options.get("partners_rotation"):
        # "Each player keeps track of the points they score throughout the game. The player that
        # scores the most points wins the game." after twelve hands
        team = rotation_team(hand_winner, sheet.hands)
        won = sum(p for s, p in enumerate(hand_points) if s not in team)
        for s in team:
            delta[s] = won
        scores = tuple(a + b for a, b in zip(sheet.scores, delta, strict=True))
        if sheet.hands + 1 >= 3 * ROTATION_HANDS:
            best = max(scores)
            tied = tuple(s for s in range(n) if scores[s] == best)
            winner = tied[0] if len(tied) == 1 else tied
    elif mode == "standard":
        if options.get("partners"):
            team = (hand_winner, partner(hand_winner))
            won = sum(p for s, p in enumerate(hand_points) if s not in team)
            for s in team:
                delta[s] = won
            scores = tuple(a + b for a, b in zip(sheet.scores, delta, strict=True))
            if scores[hand_winner] >= target:
                winner = tuple(sorted(team))
        else:
            delta[hand_winner] = sum(p for s, p in enumerate(hand_points) if s != hand_winner)
            scores = tuple(a + b for a, b in zip(sheet.scores, delta, strict=True))
            if scores[hand_winner] >= target:
                winner = hand_winner
    else:
        for s in range(n):
            if s not in sheet.eliminated and s != hand_winner:
                delta[s] = hand_points[s]
        scores = tuple(a + b for a, b in zip(sheet.scores, delta, strict=True))
        reached = [s for s in range(n) if s not in sheet.eliminated and scores[s] >= target]
        if mode == "lowest":
            if reached:
                alive = [s for s in range(n) if s not in sheet.eliminated]
                low = min(scores[s] for s in alive)
                lowest = [s for s in alive if scores[s] == low]
                winner = hand_winner if hand_winner in lowest else lowest[0]
        elif mode == "challenge":
            eliminated = sheet.eliminated | frozenset(reached)
            alive = [s for s in range(n) if s not in eliminated]
            if len(alive) == 1:
                winner = alive[0]
        else:
            raise ValueError(f"unknown scoring {mode!r}")
    sheet = Sheet(scores=scores, eliminated=eliminated, winner=winner, hands=sheet.hands + 1)
    return sheet, tuple(delta)
