"""The record as a game writes it (`Log`): its events, and what each event did that the event
itself does not say, kept as the game plays (`Log.notes`): who drew cards they did not draw
themselves (a penalty, a Draw 2, a challenge, Tinker Bell's answer), the card turned up when a
hand is dealt, and each hand's points. A seat's log (`engine.disney.observer`) says them beside the
events, so digital play can show them on every page refresh without replaying the game. Public
play only: a note never names a hidden card.

A note is `(event index, (kind, ...))`, kept in the order the game makes them, so the notes of
the latest events are the last in the list (index -1: before the first event, the first deal):

    ("draws", seat, n)              seat gained n cards it did not draw itself
    ("turned", hand, card name)     hand number `hand` was dealt; that card was turned up
    ("hand", hand, winner, points)  hand number `hand` is over: `winner` scored `points`
"""

from __future__ import annotations

from typing import Any

from engine.disney import cards as C
from engine.disney.actions import Decoded, Kind
from engine.disney.handstate import HandState
from engine.disney.notation import order_event
from engine.disney.steps import DISCARD

Note = tuple[Any, ...]
Notes = list[tuple[int, Note]]


class Log:
    """The record being written: its events, their notes (below), and the discard
    event still open (a player's discards after a Wild Discard All are one event, written card
    by card). The game deals and scores into it; the hand in play writes each move's event into
    it itself, after the move (`Hand.apply`), so nothing reads an action twice to record it."""

    __slots__ = ("discarding", "events", "notes")

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.notes: Notes = []
        """What each event did that it does not say: the log's words, kept as the game plays
        so an observation never replays the game."""
        self.discarding: dict[str, Any] | None = None

    def copy(self) -> Log:
        """An independent copy (`Game.clone`): the open discard event is the copy's own."""
        log = Log()
        log.events = [
            {k: list(v) if isinstance(v, list) else v for k, v in e.items()} for e in self.events
        ]
        log.notes = list(self.notes)
        if self.discarding is not None:
            log.discarding = log.events[self.events.index(self.discarding)]
        return log

    def dealt(self, hand_no: int, deck: list[int], turned: int) -> None:
        """A hand dealt from `deck` (the first hand's deck is the header's, not an event)."""
        self.discarding = None
        if hand_no > 1:
            self.events.append(order_event("new_hand", deck))
        at = len(self.events) - 1 if hand_no > 1 else -1
        self.notes.append((at, ("turned", hand_no, C.name(turned))))

    def scored(self, hand_no: int, winner: int, points: int) -> None:
        self.notes.append((len(self.events) - 1, ("hand", hand_no, winner, points)))

    def moved(
        self,
        hand: HandState,
        seat: int,
        move: Decoded,
        event: dict[str, Any] | None,
        before: list[int],
    ) -> None:
        """`move` by `seat` taken (`event`: its event, read before it; None for a discard or
        DONE, which join the player's one discard event); `before`: each position's count. The
        draws it caused are noted in turn order from the player after `seat` (a protection: the
        players after the protector draw in the order of play, as they protect)."""
        if event is None:
            self._discarded(hand, seat, move)
        else:
            self.add(event)
        first = (hand.pos_of[seat] + hand.direction) % hand.num_players
        note_draws(self.notes, self.events, hand, before, first)

    def chanced(
        self, event: dict[str, Any], hand: HandState, before: list[int], first: int
    ) -> None:
        """A chance event taken (Tinker Bell's pick, a reshuffle, a new deal of the hands);
        the draws it caused are noted in turn order from position `first`."""
        self.add(event)
        note_draws(self.notes, self.events, hand, before, first)

    def add(self, event: dict[str, Any]) -> None:
        """Another event: one coming between a player's discards (a catch, a reshuffle) makes
        the discard event written so far say the player is not done yet."""
        if self.discarding is not None:
            self.discarding["more"] = True
            self.discarding = None
        self.events.append(event)

    def _discarded(self, hand: HandState, seat: int, move: Decoded) -> None:
        ev = self.discarding
        if ev is None:
            ev = {"seat": seat, "act": "discard", "cards": []}
            self.events.append(ev)
        if move.kind == Kind.DISCARD:
            ev["cards"].append(C.code(move.card))
            if move.uno:
                ev["uno"] = True
        self.discarding = ev if hand.head.kind == DISCARD else None


SELF_DRAWN = frozenset({"draw", "take", "misplay", "pass"})
"""Acts whose own words say that their player drew: their cards are no note of their own."""


def note_draws(
    notes: Notes, events: list[dict[str, Any]], hand: HandState, before: list[int], first: int
) -> None:
    """Note each seat of `hand` that gained cards in the last of `events` (`before`: each
    position's count before it) that the event does not say it drew, in turn order: from
    position `first` on, in the direction of play (a Villain Draw 4's draws as its protections
    go, "in the order of play" from the player after hers; not in order of seat)."""
    after = list(map(len, hand.hands))
    if after == before:
        return
    event = events[-1]
    count, direction = len(after), hand.direction
    for i in range(count):
        pos = (first + direction * i) % count
        n = after[pos]
        if n > before[pos]:
            seat = hand.seats[pos]
            if seat != event.get("seat") or event.get("act") not in SELF_DRAWN:
                notes.append((len(events) - 1, ("draws", seat, n - before[pos])))


def since(notes: Notes, first: int) -> dict[int, list[Note]]:
    """The notes of events `first` on, by event index (-1 too, when `first` is 0): read from the
    end, so a long game's log costs only its last events."""
    lowest = -1 if first == 0 else first
    out: dict[int, list[Note]] = {}
    at = len(notes)
    while at and notes[at - 1][0] >= lowest:
        at -= 1
    for i, note in notes[at:]:
        out.setdefault(i, []).append(note)
    return out
