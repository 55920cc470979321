"""What a name people type may be: one rule for every game name and player name, wherever it
enters (the scoreboard's new game, digital play's new game, `tinker-tray play --players`).

A name is kept as Unicode NFC (the same letters typed on two keyboards are the same text),
without spaces at its ends. It is refused, with a sentence that says which name and why, when
it holds what is not text on a page: a control character (NUL, an escape sequence, a newline,
a tab), a line or paragraph separator, or half of a surrogate pair (text no file or page can
encode). A name that shows nothing (only spaces, or characters drawn as nothing) is refused as
empty. Two players whose names look the same on the score sheet count as the same name, refused
as a duplicate: they differ only by what is drawn as nothing (zero-width characters, variation
selectors, Hangul fillers: Unicode's Default_Ignorable_Code_Point), by letter case, by
compatibility forms (a no-break space, full-width letters) or by look-alike letters of another
alphabet (Cyrillic а, Greek Α for Latin a, A): Unicode's confusables skeleton, UTS #39
(`scoreboard.skeleton`). The refusal never repeats the name when the name itself cannot be
shown.

Pure and small, in `scoreboard` so that digital play and the command line, which sit above it,
share it; the engine keeps its own checks for replaying what the journal already holds.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from scoreboard import skeleton

MAX_PLAYER_NAME = 24  # characters, as the engine's score sheet allows
MAX_GAME_NAME = 60
_NOT_TEXT = {
    "Cc": "a control character",
    "Cs": "half of a surrogate pair",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
_BLANKS = {0x2800: " "}
"""Graphic characters drawn as an empty cell that Unicode's data classes neither as a space nor
as ignorable, read as a space: BRAILLE PATTERN BLANK (a favourite for a name that looks empty)."""


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


def shown(name: str) -> str:
    """What is seen of `name`: without what is drawn as nothing (format characters, Unicode's
    Default_Ignorable_Code_Point), in compatibility form (NFKC), runs of blanks as one space."""
    drawn = "".join(
        c for c in name if unicodedata.category(c) != "Cf" and not skeleton.ignorable(c)
    )
    return " ".join(unicodedata.normalize("NFKC", drawn).translate(_BLANKS).split())


def key(name: str) -> str:
    """`shown`, case folded: two names with one key differ only by case or by the unseen."""
    return shown(name).casefold()


def looks(name: str) -> tuple[str, str]:
    """What two names are compared by: where one of these equals the other name's (the same
    position), they look alike. The confusables skeleton of the case-folded name (ann, Аnn and
    ANN meet), and the case-folded skeleton (Greek capital Ζ is Z only before folding)."""
    seen = shown(name)
    return skeleton.skeleton(seen.casefold()), skeleton.skeleton(seen).casefold()


def players(values: object, max_chars: int = MAX_PLAYER_NAME) -> list[str]:
    """The players' names in seat order, each `clean`, no two alike (`key`)."""
    if not isinstance(values, Sequence) or isinstance(values, str):
        raise NameRefused("players is a list of names")
    names = [clean(v, f"player {i + 1}'s name", max_chars) for i, v in enumerate(values)]
    seat_of: dict[tuple[int, str], int] = {}
    for seat, name in enumerate(names):
        firsts = [seat_of.setdefault(form, seat) for form in enumerate(looks(name))]
        first = min(firsts)
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
