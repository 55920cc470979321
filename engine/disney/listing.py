"""What may be done now in one hand: every action the player to move may take
(`legal_actions`: the only source of what is allowed, with `interjections`, the calls out of
turn any seat may make), and the chance outcomes of Tinker Bell's pick; and each kind of
decision's one entry (`STEP_KINDS`: its legal actions, its move in `disney.moves`, its words).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from engine.disney import actions as A
from engine.disney import cards as C
from engine.disney import moves
from engine.disney.handstate import HandState
from engine.disney.steps import (
    COLOUR,
    DISCARD,
    FLIP,
    PLAY,
    PLAY_DRAWN,
    PROTECT,
    RESPOND,
    SMACKDOWN,
    TARGET,
    TINKER,
    WORDS,
    on_the_six,
)
from engine.phases import OVER, Step, StepKind

_COLOUR_OF: Final = C.COLOUR_OF
_RANK_OF: Final = C.RANK_OF
_DRAW: Final = A.DRAW
_MATCHES: Final = C.MATCHES
"""Cards that may be laid on a top card, as flags by card id (colour in play * 80 + rank)."""
_COLOUR_PLAYS: Final = {w: [A.play(w, colour) for colour in range(4)] for w in range(64, C.NCARDS)}


def legal_actions(h: HandState) -> list[int]:
    """Every action the player to move may take now (empty at chance nodes and the end).

    PLAY, most decisions, is listed here without a further call: each card held that
    matches (a Wild naming each colour; with the UNO call as well, holding two), then DRAW
    when allowed. The other phases are listed by their entries in `STEP_KINDS`."""
    head = h.head
    if head.kind != PLAY:
        return _other(h, head)
    hand = h.hands[head.seat]
    # The cards that match, as a set filled in the hand's order: the order every seeded
    # game follows (a random bot picks by index).
    matches = _MATCHES[h.colour * 80 + _RANK_OF[h.discard[-1]]]
    found: list[int] = []
    for c in hand:  # (a loop: a comprehension costs Python 3.11 a frame a call)
        if matches[c]:
            found.append(c)
    playable: Collection[int] = set(found) if len(found) > 1 else found
    variant = h.variant
    if len(hand) == 2:
        acts: list[int] = []
        for c in playable:
            _variants(acts, c, True, variant.names_colour)
    else:
        acts = []
        black = False  # (a wild among them: then ask whether it names a colour)
        for c in playable:
            acts.append(c << 3)  # = actions.play(c), without the call
            black = black or c >= 64
        if black:
            for w in variant.colour_wilds:  # a Wild names a colour: four actions
                if w in playable:
                    acts.remove(w << 3)
                    acts += _COLOUR_PLAYS[w]
        if h.uncalled and head.seat in h.uncalled:
            acts = []  # "not allowed to discard his last card until he does so"
    if not acts or variant.draw_when_playable:
        acts.append(_DRAW)
    return acts


def _other(h: HandState, head: Step) -> list[int]:
    """The legal actions of the phases other than PLAY."""
    phase = head.kind
    if phase in (PROTECT, DISCARD):  # (the commonest: native calls, not the table's)
        return lays(h, head)
    if phase == PLAY_DRAWN:
        return _after_drawing(h, head)
    kind = STEP_KINDS.get(phase)
    return [] if kind is None else kind.legal(h, head)  # (chance and the end list none)


def _plays(h: HandState, head: Step) -> list[int]:
    """PLAY's listing: `legal_actions`' own body (most decisions: listed without a call)."""
    return legal_actions(h)


def _responses(h: HandState, head: Step) -> list[int]:
    pos = head.seat
    hand = h.hands[pos]
    acts: list[int] = []
    if h.variant.stacking and not (h.uncalled and pos in h.uncalled):
        two = len(hand) == 2
        for c in set(hand):
            if h.stacks(c):
                _variants(acts, c, two, h.variant.names_colour)
    acts.append(A.TAKE)
    if h.variant.effect_of[h.discard[-1]] == "wild_draw4":
        acts.append(A.CHALLENGE)
    return acts


def _after_drawing(h: HandState, head: Step) -> list[int]:
    acts: list[int] = []
    two = len(h.hands[head.seat]) == 2
    _variants(acts, head.item, two, h.variant.names_colour)
    if not h.variant.must_play_drawn:
        acts.append(A.PASS)
    return acts


def lays(h: HandState, head: Step) -> list[int]:
    """Protection or discards: the cards of Tinker Bell's colour, then TAKE or DONE."""
    protecting = head.kind == PROTECT
    base = A.PROTECT if protecting else A.DISCARD
    hand = h.hands[head.seat]
    colour, two = h.tinker_colour, len(hand) == 2
    acts = []
    found: list[int] = []
    for c in hand:  # (a loop, as in `legal_actions`)
        if _COLOUR_OF[c] == colour:
            found.append(c)
    for c in set(found) if len(found) > 1 else found:  # (in the order of the plays)
        acts.append(base + c * 2)  # = actions.protect(c) or actions.discard(c)
        if two:
            acts.append(base + c * 2 + 1)
    if not protecting:
        acts.append(A.DONE)
    elif h.variant.villain_may_take:
        acts.append(A.TAKE)
    return acts


def _colours(h: HandState, head: Step) -> list[int]:
    return [A.COLOUR, A.COLOUR + 1, A.COLOUR + 2, A.COLOUR + 3]


def _targets(h: HandState, head: Step) -> list[int]:
    actor = head.subject
    return [A.TARGET + s for p, s in enumerate(h.seats) if p != actor]


def _flip(h: HandState, head: Step) -> list[int]:
    return [A.FLIP]


def interjections(h: HandState) -> list[tuple[int, int]]:
    """(seat, action) pairs any player may take out of turn now: UNO, catch, challenge, with
    the Jump-In house rule a play of the identical card, and in a 6-Smackdown race each hand
    not yet on the 6."""
    phase = h.head.kind
    if phase == OVER or not (h.catchable or h.variant.jump_in or h.uncalled or h.steps):
        return []
    seats, n = h.seats, h.num_players
    out = []
    for p in h.catchable:
        out.append((seats[p], A.UNO))
        for q in range(n):
            if q != p:
                out.append((seats[q], A.CATCH + seats[p]))
    for p in h.uncalled:
        if p not in h.catchable:
            out.append((seats[p], A.UNO))  # too late to be caught, never too late to call
    window = h.challenge_window() if h.steps else None
    if window is not None:
        for q in range(n):
            if q != window.seat:
                out.append((seats[q], A.CHALLENGE))
    if h.variant.jump_in and phase in (PLAY, RESPOND):
        top = h.discard[-1]
        if top < 64 and (phase == PLAY or h.stacks(top)):
            for q, held in enumerate(h.hands):
                if q != h.to_move and top in held and (len(held) > 1 or q not in h.uncalled):
                    out.append((seats[q], A.play(top)))
                    if len(held) == 2:
                        out.append((seats[q], A.play(top, uno=True)))
    if phase == SMACKDOWN:
        for q in _still_to_slap(h):
            out.append((seats[q], A.SLAP + seats[q]))
    return out


def _still_to_slap(h: HandState) -> list[int]:
    """The positions whose hand is not yet on the 6 (the race at the head keeps the others)."""
    on = on_the_six(h.head)
    return [q for q in range(h.num_players) if q not in on]


def chance_outcomes(h: HandState) -> list[tuple[int, float]]:
    """At Tinker Bell's pick: the four colours as PICK actions, equally likely (OpenSpiel's
    chance node; `apply` takes them). In a 6-Smackdown race: whose hand is on the 6 next, each
    of those still to slap as likely (a simulation's players are equally quick; digital play
    times its bots like people, and takes a person's own slap). A hand takes a reshuffle or
    Wild Shuffle Hands as a whole order (`apply_reshuffle`, `apply_shuffle_hands`);
    `Game.chance_outcomes` lists those orders one card at a time (`engine.disney.deckchance`)."""
    kind = h.head.kind
    if kind == SMACKDOWN:
        left = _still_to_slap(h)
        return [(A.SLAP + h.seats[q], 1 / len(left)) for q in left]
    if kind != TINKER:
        return []
    return [(A.PICK + colour, 0.25) for colour in range(4)]


STEP_KINDS: Final[dict[str, StepKind[HandState]]] = {
    PLAY: StepKind(PLAY, WORDS[PLAY], _plays, moves.play),
    PLAY_DRAWN: StepKind(PLAY_DRAWN, WORDS[PLAY_DRAWN], _after_drawing, moves.play_drawn),
    COLOUR: StepKind(COLOUR, WORDS[COLOUR], _colours, moves.colour),
    TARGET: StepKind(TARGET, WORDS[TARGET], _targets, moves.target),
    PROTECT: StepKind(PROTECT, WORDS[PROTECT], lays, moves.protect),
    DISCARD: StepKind(DISCARD, WORDS[DISCARD], lays, moves.discard),
    RESPOND: StepKind(RESPOND, WORDS[RESPOND], _responses, moves.respond),
    FLIP: StepKind(FLIP, WORDS[FLIP], _flip, moves.flip),
}
"""Every decision a player of the Disney family makes, by its kind (the phase): its legal
actions, its move (`disney.moves`), its words (`disney.steps.WORDS`). Chance and the end are awaited
decisions too, but nobody takes an action on them (`Hand.apply_tinker_bell` ...)."""


def _variants(acts: list[int], card: int, two: bool, names_colour: Sequence[bool]) -> None:
    """Append the play actions for one card: a Wild names a colour; UNO with the next-to-last."""
    if names_colour[card]:
        for colour in range(4):
            acts.append(A.play(card, colour))
            if two:
                acts.append(A.play(card, colour, True))
    else:
        acts.append(A.play(card))
        if two:
            acts.append(A.play(card, 0, True))
