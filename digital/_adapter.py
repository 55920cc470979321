"""TEMPORARY: what the Disney engine's `engine.game.Game` does not yet offer of the contract
digital play is written against (`engine.protocol.GameState`): an `observation` that carries
what its log needs (the link's Tinker Bell pick in progress, the notes of what each event did),
the outcome that is Tinker Bell's colour, whether its header is complete (its first deal), its
finished hands and the card Tinker Bell answers, for the score sheet. Delete each function once
the engine offers it; the file with the last.

Every function uses the game's own member when it has one; only the fallbacks know today's
Disney `Game` (by its score sheet, `sheet`). UNO Elite implements the whole contract: nothing
here is for it. This is the one place in digital/ that looks inside one engine.
"""

from __future__ import annotations

from typing import Any

Notes = Any  # engine.observer.EventNotes, for a game whose observation needs them


def _disney(game: Any) -> bool:
    return hasattr(game, "sheet")  # the fallbacks below only


def ready_to_keep(game: Any) -> bool:
    """Whether the game's header is complete (a Disney game's holds its first deal)."""
    return not _disney(game) or bool(game.decks)


# ---------------------------------------------------------------------- observation
def notes(game: Any) -> Notes:
    """What follows the game's events for its log's words (None: its observation has them)."""
    if not _disney(game):
        return None
    from engine.observer import EventNotes

    return EventNotes(game)


def observation(game: Any, seat: int | None, choosing: bool, followed: Notes) -> dict[str, Any]:
    """What `seat` may see (None: a spectator); `choosing`: a Tinker Bell pick is made and her
    lights have not settled yet."""
    if followed is None:
        return dict(game.observation(seat))
    from engine import observer

    waiting = game.chance_kind() == "tinker_bell"
    return observer.seat_view(game, seat, frozenset(), waiting, choosing, followed.notes)


# ---------------------------------------------------------------------- the score sheet
def finished_hands(game: Any) -> list[dict[str, Any]]:
    """A game with points: each finished hand ({"hand", "winner", "held"}), for the score sheet."""
    return list(getattr(game, "history", []))


def tinker_bell_card(game: Any) -> tuple[str, int] | None:
    """A game waiting for Tinker Bell: (the card she answers, the seat that played it)."""
    from engine import cards as C

    h = game.hand
    if h is None or h.trigger is None:
        return None
    return C.code(h.trigger), h.seats[h.actor]


def tinker_bell_outcome(game: Any, colour: str) -> int:
    """The chance outcome (one of `chance_outcomes()`) that is Tinker Bell picking `colour`."""
    from engine import actions as A
    from engine import cards as C

    return A.PICK + C.colour(colour)
