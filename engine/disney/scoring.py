"""Scoring a hand and deciding the game, shared by digital play (`engine.disney.game`) and the table
session (real cards), so both count exactly alike.

A `Sheet` is immutable: settling a hand returns a new one, which keeps undo and journal replay
trivial for the table session.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from operator import add
from typing import Any, NamedTuple


class Sheet(NamedTuple):
    scores: tuple[int, ...]
    eliminated: frozenset[int] = frozenset()
    winner: int | tuple[int, ...] | None = None
    """The game's winner: a seat, or the two seats of the winning partners; None while playing."""
    hands: int = 0
    """Hands settled so far (the partners rotation changes partners every four)."""

    @classmethod
    def new(cls, players: int) -> Sheet:
        """A sheet with no hand played (one per number of players: a sheet never changes)."""
        blank = _BLANK.get(players)
        if blank is None:
            blank = _BLANK[players] = cls(scores=(0,) * players)
        return blank

    @property
    def over(self) -> bool:
        return self.winner is not None

    def active(self) -> list[int]:
        """Seats still in the game (Challenge UNO eliminates players)."""
        return [s for s in range(len(self.scores)) if s not in self.eliminated]


_BLANK: dict[int, Sheet] = {}


def check_options(
    options: Mapping[str, Any], players: int, quotes: Mapping[str, str] | None = None
) -> None:
    """Refuse combinations the rules do not define, naming the rule in the words of the book
    being played (`quotes`: its Ruleset's; a book that says nothing is not quoted)."""
    if options.get("partners_rotation"):
        if players != 4:
            raise ValueError(
                'the partners rotation is for four players at a table ("play four hands with each '
                'other player as your partner"); eight players play two tables at once, see '
                "scoring.partner_schedule"
            )
        if options.get("partners") or options.get("scoring", "standard") != "standard":
            raise ValueError("the partners rotation is scored the standard way, without partners")
    if options.get("partners"):
        if players != 4:
            said = (quotes or {}).get("partners")
            raise ValueError(
                "partners need exactly four players" + (f' ("{said}")' if said else "")
            )
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
    mode = options.get("scoring", "standard")
    if mode == "standard" and options.get("partners_rotation"):
        mode = "rotation"
    scorer = _SCORERS.get(mode)
    if scorer is None:
        raise ValueError(f"unknown scoring {mode!r}")
    return scorer(sheet, options, hand_points, hand_winner)


Scorer = Callable[[Sheet, Mapping[str, Any], Sequence[int], int], tuple[Sheet, tuple[int, ...]]]


def _after(
    sheet: Sheet,
    delta: list[int],
    winner: int | tuple[int, ...] | None,
    eliminated: frozenset[int] | None = None,
) -> tuple[Sheet, tuple[int, ...]]:
    if len(delta) != len(sheet.scores):
        raise ValueError(f"expected points for {len(sheet.scores)} seats, got {len(delta)}")
    scores = tuple(map(add, sheet.scores, delta))
    new = Sheet(
        scores,
        sheet.eliminated if eliminated is None else eliminated,
        winner,
        sheet.hands + 1,
    )
    return new, tuple(delta)


def _team_takes(delta: list[int], team: Sequence[int], hand_points: Sequence[int]) -> None:
    """Each seat of `team` scores what every other seat holds."""
    won = sum(hand_points) - sum(hand_points[s] for s in team)
    for s in team:
        delta[s] = won


def _score_rotation(
    sheet: Sheet, options: Mapping[str, Any], hand_points: Sequence[int], hand_winner: int
) -> tuple[Sheet, tuple[int, ...]]:
    """Partners rotation: "Each player keeps track of the points they score throughout the
    game. The player that scores the most points wins the game." after twelve hands."""
    delta = [0] * len(sheet.scores)
    _team_takes(delta, rotation_team(hand_winner, sheet.hands), hand_points)
    new, awarded = _after(sheet, delta, None)
    if new.hands >= 3 * ROTATION_HANDS:
        best = max(new.scores)
        tied = tuple(s for s, score in enumerate(new.scores) if score == best)
        new = new._replace(winner=tied[0] if len(tied) == 1 else tied)
    return new, awarded


def _score_standard(
    sheet: Sheet, options: Mapping[str, Any], hand_points: Sequence[int], hand_winner: int
) -> tuple[Sheet, tuple[int, ...]]:
    """The winner (with partners: both partners) scores what the others hold; first to the
    target wins."""
    delta = [0] * len(sheet.scores)
    team = (hand_winner, partner(hand_winner)) if options.get("partners") else (hand_winner,)
    _team_takes(delta, team, hand_points)
    new, awarded = _after(sheet, delta, None)
    if new.scores[hand_winner] >= options.get("target", 500):
        new = new._replace(winner=tuple(sorted(team)) if len(team) > 1 else hand_winner)
    return new, awarded


def _charged(sheet: Sheet, hand_points: Sequence[int], hand_winner: int) -> list[int]:
    """Lowest and Challenge scoring: every seat still playing is charged what it holds."""
    return [
        hand_points[s] if s not in sheet.eliminated and s != hand_winner else 0
        for s in range(len(sheet.scores))
    ]


def _score_lowest(
    sheet: Sheet, options: Mapping[str, Any], hand_points: Sequence[int], hand_winner: int
) -> tuple[Sheet, tuple[int, ...]]:
    """When someone reaches the target, the lowest total wins (the hand's winner if tied)."""
    new, charged = _after(sheet, _charged(sheet, hand_points, hand_winner), None)
    alive = [s for s in range(len(new.scores)) if s not in sheet.eliminated]
    if any(new.scores[s] >= options.get("target", 500) for s in alive):
        low = min(new.scores[s] for s in alive)
        lowest = [s for s in alive if new.scores[s] == low]
        new = new._replace(winner=hand_winner if hand_winner in lowest else lowest[0])
    return new, charged


def _score_challenge(
    sheet: Sheet, options: Mapping[str, Any], hand_points: Sequence[int], hand_winner: int
) -> tuple[Sheet, tuple[int, ...]]:
    """Challenge UNO: a seat reaching the target is out; the last one playing wins."""
    delta = _charged(sheet, hand_points, hand_winner)
    scores = [a + b for a, b in zip(sheet.scores, delta, strict=True)]
    target = options.get("target", 500)
    eliminated = sheet.eliminated | frozenset(
        s for s in range(len(scores)) if s not in sheet.eliminated and scores[s] >= target
    )
    alive = [s for s in range(len(scores)) if s not in eliminated]
    return _after(sheet, delta, alive[0] if len(alive) == 1 else None, eliminated)


_SCORERS: dict[str, Scorer] = {
    "standard": _score_standard,
    "rotation": _score_rotation,
    "lowest": _score_lowest,
    "challenge": _score_challenge,
}


def collected_points(
    per_card: Mapping[int, int],
    options: Mapping[str, Any],
    held: Mapping[int, Sequence[int]],
    team: Collection[int],
) -> dict[int, int]:
    """Cards worth points per card collected (Elvis's Vegas: "Count up the number of cards you
    collected and multiply it by ten"), by seat: what each seat's such cards add to what it
    holds. Standard scoring counts the cards of the hands outside the winner's `team` (what
    the team's own such cards add, standard scoring does not score); lowest and challenge
    scoring charge each holder their own hand. The one Vegas scoring, for a game played here
    and a table's entered hands alike."""
    standard = options.get("scoring", "standard") == "standard"
    collected = sum(len(cards) for seat, cards in held.items() if seat not in team)
    added = {}
    for seat, cards in held.items():
        value = sum(per_card.get(c, 0) for c in cards)
        if value:
            added[seat] = value * (collected if standard else len(cards))
    return added
