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

Which letters a name may hold is Unicode's published rule, not ours: UTS #39's identifier
profile (Identifier_Status, with Identifier_Type to say why not), from Unicode's own
IdentifierStatus.txt and IdentifierType.txt (`scoreboard.skeleton.identifier_type`). A name is
not an identifier, so the profile covers what spells a name and nothing else:

- letters and the marks that sit on them (categories L, Mn, Mc) must be Allowed, judged in
  compatibility form (NFKC) because that is how the duplicate check already reads them (a
  full-width Ａ is an A; a small capital ᴀ, U+1D00, has no such form and is Technical);
  tailored as UTS #39 permits to also take Limited_Use, the living scripts of smaller
  communities (Cherokee, Adlam, Tifinagh ...), whose people have names too;
- spaces, punctuation (O'Brien, Jean-Luc, J. R.), digits, symbols and emoji (with their ZWJ
  sequences, skin tones, flags and keycaps: Cf, Sk, So and the enclosing marks, Me) are not
  letters and stay as typed, and what is drawn as nothing is the duplicate check's business;
- private use (Co) is refused, for each font draws it its own way, and so are unassigned code
  points and noncharacters (Cn): nothing draws them;
- a mark must follow what it sits on: a name whose first visible character is a mark (a name
  of marks alone), or a mark after a space, is refused.

Categories are Python's `unicodedata` (Unicode 14.0 on Python 3.11; the profile's data is 15.0:
a letter newer than Python knows is unassigned to it, and refused). Why a table of our own and
not a library: none on PyPI implements the profile without ICU (tens of MiB, too much for a Pi
Zero 2 W); the table is 46 kB, read on the first name with a letter beyond ASCII.
Mixed scripts (UTS #39's restriction levels) are not refused: "Ann 李" is a name, and the
skeleton already catches the look-alike that mixing would hide.

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
    unfit = unfit_for_names(name)
    if unfit is not None:
        raise NameRefused(f"{what} {unfit}")
    if len(name) > max_chars:
        raise NameRefused(f"{what} is at most {max_chars} characters, not {len(name)}")
    return name


def unfit_for_names(name: str) -> str | None:
    """Why `name` (NFC) breaks the module's profile, as the end of a sentence that starts with
    the name's owner ("holds U+E000, a private-use character ..."), or None."""
    seen = False  # a visible character came before
    after_letter = False  # a mark sits on what precedes it, unless that is a space or nothing
    for char in name:
        kind = unicodedata.category(char)
        if kind == "Co":
            return (
                f"holds {_named(char)}, a private-use character, which each font draws its own "
                "way or not at all: a name is what every screen shows alike"
            )
        if kind == "Cn":
            what = (
                "a noncharacter" if _noncharacter(char) else "a code point Unicode has not assigned"
            )
            return f"holds {_named(char)}, {what}, which no screen can draw"
        if kind == "Cf" or skeleton.ignorable(char):
            continue  # drawn as nothing: for `key` to see through
        if kind[0] == "M" and not after_letter:
            where = "holds" if seen else "begins with"
            return f"{where} {_named(char)}, a mark with no letter to sit on"
        seen = True
        after_letter = not kind.startswith("Z")
        if kind[0] == "L" or kind in ("Mn", "Mc"):
            why = _not_for_names(char)
            if why is not None:
                return f"holds {_named(char)}, which Unicode marks as not for names ({why})"
    return None


_NAMEABLE = frozenset({skeleton.ALLOWED, "Limited_Use"})


def _not_for_names(char: str) -> str | None:
    """The Identifier_Type that keeps `char` out of names, in words ("technical", "obsolete,
    not XID"), or None: each part of its compatibility form must be Allowed (or Limited_Use).
    ASCII letters are all Allowed (test_names_profile.py checks it), so a name of them never
    reads the table: most names on a Pi that starts slowly."""
    if char.isascii():
        return None
    for part in unicodedata.normalize("NFKC", char):
        if unicodedata.category(part)[0] not in "LM" or unicodedata.category(part) == "Me":
            continue
        types = skeleton.identifier_type(part)
        if types not in _NAMEABLE:
            return ", ".join(_spoken(t) for t in types.split())
    return None


def _spoken(identifier_type: str) -> str:
    """Not_NFKC -> "not NFKC", Uncommon_Use -> "uncommon use"."""
    return " ".join(w if w.isupper() else w.lower() for w in identifier_type.split("_"))


def _named(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X} {name}" if name else f"U+{ord(char):04X}"


def _noncharacter(char: str) -> bool:
    """Unicode's 66 noncharacters: U+FDD0..U+FDEF and the last two code points of each plane."""
    return 0xFDD0 <= ord(char) <= 0xFDEF or ord(char) & 0xFFFE == 0xFFFE


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


def listed(head: str, players: Sequence[str]) -> str:
    """A kept game's name from its rules and players ("UNO Elite: Ann, Bot Bea, Bot Cy"),
    fitted to `MAX_GAME_NAME`: where every name would not, the first names and how many more
    ("UNO Elite: Annabelle-Marie, Bot Bartholomew +2"). A list of kept games then says whose
    each was, not "Game 7" after "Game 6"."""
    kept = head
    for shown in range(len(players), 0, -1):
        more = f" +{len(players) - shown}" if shown < len(players) else ""
        kept = f"{head}{', '.join(players[:shown])}{more}"
        if len(kept) <= MAX_GAME_NAME:
            return kept
    return kept[: MAX_GAME_NAME - 1] + "…"


def game_name(value: object) -> str | None:
    """A game's name as kept; None (the journal then names it "Game N") for none or blank."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return clean(value, "the game's name", MAX_GAME_NAME)
