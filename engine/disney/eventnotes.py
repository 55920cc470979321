"""What each event of a recorded game did that the event itself does not say, kept by the game
as it plays (`Game.notes`): who drew cards they did not draw themselves (a penalty, a Draw 2, a
challenge, Tinker Bell's answer), the card turned up when a hand is dealt, and each hand's
points. A seat's log (`disney.observer`) says them beside the events, so digital play can show
them on every page refresh without replaying the game. Public play only: a note never names a
hidden card.

A note is `(event index, (kind, ...))`, kept in the order the game makes them, so the notes of
the latest events are the last in the list (index -1: before the first event, the first deal):

    ("draws", seat, n)              seat gained n cards it did not draw itself
    ("turned", hand, card name)     hand number `hand` was dealt; that card was turned up
    ("hand", hand, winner, points)  hand number `hand` is over: `winner` scored `points`
"""

from __future__ import annotations

from typing import Any

from engine.disney.hand import Hand

Note = tuple[Any, ...]
Notes = list[tuple[int, Note]]

SELF_DRAWN = frozenset({"draw", "take", "misplay", "pass"})
"""Acts whose own words say that their player drew: their cards are no note of their own."""


def note_draws(notes: Notes, events: list[dict[str, Any]], hand: Hand, before: list[int]) -> None:
    """Note each seat of `hand` that gained cards in the last of `events` (`before`: each
    position's count before it) that the event does not say it drew."""
    after = list(map(len, hand.hands))
    if after == before:
        return
    event = events[-1]
    for pos, n in enumerate(after):
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
