"""What a name people type may be: one rule for every game name and player name, wherever it
enters (the scoreboard's new game, digital play's new game, `tinker-tray play --players`).

A name is kept as Unicode NFC (the same letters typed on two keyboards are the same text),
without spaces at its ends. It is refused, with a sentence that says which name and why, when
it holds what is not text on a page: a control character (NUL, an escape sequence, a newline,
a tab), a line or paragraph separator, or half of a surrogate pair (text no file or page can
encode). Two players whose names differ only by invisible characters (zero-width spaces, other
format characters), by letter case or by compatibility forms (a no-break space, full-width
letters) look the same on the score sheet, so they count as the same name: refused as a
duplicate. The refusal never repeats the name when the name itself cannot be shown.

Pure and small, in `scoreboard` so that digital play and the command line, which sit above it,
share it; the engine keeps its own checks for replaying what the journal already holds.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

MAX_PLAYER_NAME = 24  # characters, as the engine's score sheet allows
MAX_GAME_NAME = 60
_NOT_TEXT = {
    "Cc": "a control character",
    "Cs": "half of a surrogate pair",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}


class NameRefused(ValueError):
    """A name that cannot be kept, with the sentence that says why (HTTP 422)."""


def clean(value: object, what: str, max_chars: int) -> str:
    """`value` as it is kept (NFC, trimmed), or NameRefused naming `what` ("the game's name",
    "player 2's name") and the reason."""
    if not isinstance(value, str):
        raise NameRefused(f"{what} must be text")
    for char in value:
        kind = _NOT_TEXT.get(unicodedata.category(char))
        if kind is not None:
            raise NameRefused(
                f"{what} holds {kind} (U+{ord(char):04X}): a name is plain text on one line"
            )
    name = unicodedata.normalize("NFC", value).strip()
    if not key(name):
        raise NameRefused(f"{what} is empty: type a name of 1 to {max_chars} characters")
    if len(name) > max_chars:
        raise NameRefused(f"{what} is at most {max_chars} characters, not {len(name)}")
    return name


def key(name: str) -> str:
    """What two names are compared by: without format characters (zero-width and the like), in
    compatibility form (NFKC), case folded, with runs of spaces as one space."""
    visible = "".join(c for c in name if unicodedata.category(c) != "Cf")
    return " ".join(unicodedata.normalize("NFKC", visible).casefold().split())


def players(values: object, max_chars: int = MAX_PLAYER_NAME) -> list[str]:
    """The players' names in seat order, each `clean`, no two alike (`key`)."""
    if not isinstance(values, Sequence) or isinstance(values, str):
        raise NameRefused("players is a list of names")
    names = [clean(v, f"player {i + 1}'s name", max_chars) for i, v in enumerate(values)]
    seat_of: dict[str, int] = {}
    for seat, name in enumerate(names):
        first = seat_of.setdefault(key(name), seat)
        if first != seat:
            earlier = names[first]
            alike = f", {name!r}" if earlier == name else f": {earlier!r} and {name!r} look alike"
            raise NameRefused(f"two players have the same name{alike}; names must differ")
    return names


def game_name(value: object) -> str | None:
    """A game's name as kept; None (the journal then names it "Game N") for none or blank."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return clean(value, "the game's name", MAX_GAME_NAME)
