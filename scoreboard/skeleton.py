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
"""

from __future__ import annotations

import functools
import unicodedata
from pathlib import Path

DATA = Path(__file__).with_name("confusables.tsv")


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
