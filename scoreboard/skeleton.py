"""Unicode's answer to "do these two names look the same?": the skeleton of UTS #39 (Unicode
Security Mechanisms, section 4). Two strings are confusable when their skeletons are equal:

1. decompose the string (NFD);
2. drop every Default_Ignorable_Code_Point (what a renderer draws as nothing: zero-width
   characters, variation selectors, the combining grapheme joiner, Hangul fillers ...);
3. replace each character by its prototype from confusables.txt (Cyrillic а and Greek α by
   Latin a, capital I by small l, ...);
4. decompose again.

The data is Unicode's, not a hand list: scoreboard/confusables.tsv, written by
`scoreboard.make_confusables` from confusables.txt and DerivedCoreProperties.txt (its header
names their versions). It is read once, on the first name checked, never at import: about
10,000 entries, ~1 MiB (measured in tests/scoreboard/test_names_confusables.py's docstring).

Beside it, UTS #39's identifier profile (section 3.1): `identifier_type` says whether a character
is fit for an identifier (Identifier_Status Allowed) and, if not, why (its Identifier_Type:
Technical, Obsolete, Uncommon_Use ...). Its table, scoreboard/identifiers.tsv, is made by the
same script from IdentifierStatus.txt and IdentifierType.txt and is read, also lazily, on the
first letter looked up: 2,300 ranges, ~0.3 MiB.
"""

from __future__ import annotations

import bisect
import functools
import unicodedata
from pathlib import Path

DATA = Path(__file__).with_name("confusables.tsv")
PROFILE = Path(__file__).with_name("identifiers.tsv")
ALLOWED = "Allowed"


@functools.cache
def _tables() -> tuple[dict[int, str | None], frozenset[int]]:
    """(str.translate table: ignorable -> None, confusable -> prototype; the ignorables)."""
    table: dict[int, str | None] = {}
    ignorable: set[int] = set()
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        left, right = line.split("\t")
        if left == "ignorable":
            first, _, last = right.partition("..")
            ignorable.update(range(int(first, 16), int(last or first, 16) + 1))
        else:
            table[int(left, 16)] = "".join(chr(int(c, 16)) for c in right.split())
    table.update(dict.fromkeys(ignorable))  # step 2 before step 3: ignorables map to nothing
    return table, frozenset(ignorable)


def ignorable(char: str) -> bool:
    """Default_Ignorable_Code_Point: drawn as nothing."""
    return ord(char) in _tables()[1]


def skeleton(text: str) -> str:
    table, _ = _tables()
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", text).translate(table))


@functools.cache
def _profile() -> tuple[list[int], list[int], list[str]]:
    """The profile's ranges in code point order: (firsts, lasts, values), for `bisect`."""
    firsts: list[int] = []
    lasts: list[int] = []
    values: list[str] = []
    for line in PROFILE.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        span, value = line.split("\t")
        first, _, last = span.partition("..")
        firsts.append(int(first, 16))
        lasts.append(int(last or first, 16))
        values.append(value)
    return firsts, lasts, values


def identifier_type(char: str) -> str:
    """`ALLOWED`, or the Identifier_Type values that keep `char` out of identifiers, as
    Unicode spells them ("Technical", "Obsolete Not_XID"; "Not_Character" for what no line
    lists: unassigned, private use, surrogates)."""
    firsts, lasts, values = _profile()
    at = bisect.bisect_right(firsts, ord(char)) - 1
    return values[at] if at >= 0 and ord(char) <= lasts[at] else "Not_Character"
