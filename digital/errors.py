"""Digital play's own errors: each is a request digital play refuses, with a sentence for the
person (the web app answers each with its own status). Anything else that escapes is a bug, and
reads as one (a 500), never as a client's mistake."""

from __future__ import annotations


class SeatError(PermissionError):
    """A request for a seat's hand or move without that seat's key (403)."""


class NoGameError(LookupError):
    """Nothing to act on or export: no digital game has been started (409)."""


class SetupError(ValueError):
    """A new game digital play cannot start as asked: a name, a seat, a bot, an option (422)."""


class MoveError(ValueError):
    """A move that is not one as sent: not a number, a malformed event (422). A move the rules
    refuse is the engine's `RuleError`, with the rule's sentence."""


class NotSavedError(Exception):
    """A move or a new game the journal could not save: it was not taken (the game is back at
    its last saved move), and the message says why (503)."""
