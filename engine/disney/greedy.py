"""The Disney family's greedy judgement (Disney, classic, official and Elvis rules): what the
greedy bot plays, and what it calls out of turn. Compiled with the hot modules (setup.py): a
simulation of greedy players spends much of its time here. It reads a game as a `Match`
(`engine.disney.match`): the game offers this judgement (`Game.hints`), so it cannot import it.
"""

from __future__ import annotations

from engine.disney import actions as A
from engine.disney import cards as C
from engine.disney import scoring
from engine.disney.match import Match
from engine.disney.steps import COLOUR, DISCARD, PLAY, PLAY_DRAWN, PROTECT, TARGET


def greedy_act(game: Match) -> int:
    """Sheds points early, keeps its wilds for when nothing else plays, names the colour it holds
    most of; aims a Draw 2 at the player (not a partner) holding fewest cards."""
    h = game.dealt()
    legal = h.legal_actions()
    hand = h.hands[h.to_move]
    points = h.variant.rules.points  # (= game.rules.points, read natively)
    card_of, uno_said = A.CARD_OF, A.UNO_SAID  # (actions taken apart by its tables)
    ph = h.phase
    if ph == COLOUR:
        return A.COLOUR + _favourite_colour(hand)
    if ph == TARGET:
        team = _partners(game, h.seats[h.to_move])
        others = [a for a in legal if a - A.TARGET not in team]
        return min(others or legal, key=lambda a: len(h.hands[h.pos_of[a - A.TARGET]]))
    if ph in (PROTECT, DISCARD):
        lays = [a for a in legal if a not in (A.TAKE, A.DONE)]
        if not lays:
            return legal[0]
        return max(lays, key=lambda a: (points[card_of[a]], uno_said[a]))
    if ph in (PLAY, PLAY_DRAWN):
        plays = [a for a in legal if a < A.PROTECT]
        coloured = [a for a in plays if card_of[a] < 64]
        if coloured:
            return max(coloured, key=lambda a: (points[card_of[a]], uno_said[a]))
        if ph == PLAY_DRAWN and A.PASS in legal:
            return A.PASS  # keep a drawn wild for later
        if plays:
            fav = _favourite_colour(hand)

            def wild_rank(a: int) -> tuple[int, int, int]:
                return (points[card_of[a]], A.COLOUR_NAMED[a] == fav, uno_said[a])

            return max(plays, key=wild_rank)
    return legal[0]  # DRAW, PASS


def greedy_interject(game: Match, seat: int, options: list[int]) -> int | None:
    """Always calls UNO, always slaps a 6 (6-Smackdown) and always catches (not a partner);
    never challenges (it cannot see the cards)."""
    for a in options:
        if a == A.UNO or A.SLAP <= a < A.SLAP + A.SEATS:
            return a
    for a in options:
        if A.CATCH <= a < A.CATCH + 100 and a - A.CATCH not in _partners(game, seat):
            return a
    return None


def _favourite_colour(hand: list[int]) -> int:
    counts = [0, 0, 0, 0]
    for c in hand:
        if c < 64:
            counts[C.COLOUR_OF[c]] += 1
    return counts.index(max(counts))


def _partners(game: Match, seat: int) -> tuple[int, ...]:
    if game.options.get("partners_rotation"):
        return scoring.rotation_team(seat, game.sheet.hands)
    return (seat, (seat + 2) % 4) if game.options.get("partners") else (seat,)
