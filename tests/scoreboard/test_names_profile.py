"""Issue 48.6: names follow UTS #39's identifier profile for their letters and marks
(`scoreboard.names`' docstring has the rule), from Unicode's IdentifierStatus.txt and
IdentifierType.txt as `scoreboard.make_confusables --profile` writes them into
scoreboard/identifiers.tsv; the issue's four cases are refused with the character named, and
what people really type (accents, other scripts, O'Brien, Jean-Luc, emoji) is kept.

The first name checked, measured here (x86, Python 3.11, a fresh process, `names.players(["Anna",
"Bo", "Zoë"])`): before the profile 15-20 ms, RSS +2.0 MiB, 1.17 MiB held (tracemalloc); after,
with a non-ASCII letter (so the profile's table is read too) 26 ms, RSS +2.0 MiB, 1.48 MiB held.
A name of ASCII letters alone never reads the profile's table. Importing scoreboard.names
reads neither table."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from scoreboard import make_confusables, names, skeleton

REFUSED = [
    # the issue's four cases
    (
        "\u1d00nna",
        "holds U+1D00 LATIN LETTER SMALL CAPITAL A, which Unicode marks as not for "
        "names (technical)",
    ),
    ("\u0301\u0308", "begins with U+0301 COMBINING ACUTE ACCENT, a mark with no letter to sit on"),
    ("Ann\ue000", "holds U+E000, a private-use character"),
    ("Ann\uffff", "holds U+FFFF, a noncharacter, which no screen can draw"),
    # and their kin
    ("\u200b\u0301Ann", "begins with U+0301 COMBINING ACUTE ACCENT"),  # unseen, then a mark
    ("Ann \u0301", "holds U+0301 COMBINING ACUTE ACCENT, a mark with no letter to sit on"),
    ("\U000f0000", "holds U+F0000, a private-use character"),
    ("Ann\ufdd0", "holds U+FDD0, a noncharacter"),
    ("Ann\u0378", "holds U+0378, a code point Unicode has not assigned"),
    (
        "\u0640\u0645\u062d\u0645\u062f",
        "holds U+0640 ARABIC TATWEEL, which Unicode marks as not for names (obsolete)",
    ),
]
KEPT = [
    "Zoë",
    "José",
    "Ngọc",
    "Łukasz",
    "Søren",
    "Çağla",
    "Zoe\u0308",  # accents, as typed or not
    "O'Brien",
    "O’Brien",
    "Jean-Luc",
    "J. R. R.",
    "Player 2",
    "ʻIolani",
    "李小龙",
    "さくら",
    "민준",
    "محمد",
    "مُحَمَّد",
    "प्रिया",
    "שרה",
    "ދިވެހި",
    "ᏣᎳᎩ",
    "❤️",
    "Ann ❤️",
    "👍🏽",
    "👨\u200d👩\u200d👧",
    "🇫🇷",
    "1️⃣",
    "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",  # England's flag
    "Ａｎｎ",  # full-width: its compatibility form is Ann
]


@pytest.mark.parametrize(("name", "says"), REFUSED)
def test_a_name_outside_the_profile_is_refused_naming_the_character(name, says):
    with pytest.raises(names.NameRefused, match="^player 2's name " + re.escape(says)):
        names.players(["Bo", name])
    with pytest.raises(names.NameRefused, match="^the game's name " + re.escape(says)):
        names.game_name(name)


@pytest.mark.parametrize("name", KEPT)
def test_names_people_type_are_kept(name):
    assert names.players([name, "Bo"])[0] == names.clean(name, "", 24)


def test_the_scoreboard_refuses_the_issues_cases_with_a_422(writer):
    for name, says in REFUSED[:4]:
        res = writer.post("/api/new-game", json={"players": ["Ann", name]})
        assert res.status_code == 422, res.text
        assert res.json()["error"].startswith(f"player 2's name {says}")
    assert writer.get("/api/games").json()["games"] == []
    assert (
        writer.post("/api/new-game", json={"players": ["Zoë", "李小龙", "👍🏽"]}).status_code == 200
    )


def test_the_shipped_profile_is_unicodes_and_names_its_versions():
    text = skeleton.PROFILE.read_text(encoding="utf-8")
    assert re.search(r"IdentifierStatus\.txt version \d+\.\d+\.\d+; IdentifierType\.txt", text)
    assert len(text.splitlines()) > 2000  # the whole of both files, not a hand list
    assert skeleton.identifier_type("\u1d00") == "Technical"
    assert skeleton.identifier_type("\u0640") == "Obsolete"
    assert skeleton.identifier_type("\ue000") == "Not_Character"
    for char in "aé李مप\u094d\u0301":  # letters and marks of names in the tests above
        assert skeleton.identifier_type(char) == skeleton.ALLOWED, char


def test_ascii_letters_are_all_allowed_so_names_may_skip_the_table_for_them():
    for code in range(0x80):
        if chr(code).isalpha():
            assert skeleton.identifier_type(chr(code)) == skeleton.ALLOWED, chr(code)


def test_importing_names_reads_no_table():
    code = (
        "import scoreboard.names, scoreboard.skeleton as s;"
        "assert s._profile.cache_info().currsize == 0 and s._tables.cache_info().currsize == 0"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


STATUS = """\ufeff# IdentifierStatus.txt
# Version: 15.0.0
0041..005A    ; Allowed    # 1.1   [26] LATIN CAPITAL LETTER A..LATIN CAPITAL LETTER Z
00C0          ; Allowed    # 1.1        LATIN CAPITAL LETTER A WITH GRAVE
"""
TYPES = """# IdentifierType.txt
# Version: 15.0.0
0041..005A    ; Recommended                    # 1.1   [26] LATIN CAPITAL LETTER A..Z
00C0          ; Recommended                    # 1.1        LATIN CAPITAL LETTER A WITH GRAVE
0009..000D    ; Not_XID                        # 1.1    [5] <control-0009>..<control-000D>
1D00..1D2B    ; Technical                      # 4.0   [44] LATIN LETTER SMALL CAPITAL A..
20E2..20E3    ; Technical Not_XID              # 3.0    [2] COMBINING ENCLOSING SCREEN..
"""


def test_the_generator_writes_what_is_allowed_and_why_the_rest_is_not(tmp_path):
    (tmp_path / "s.txt").write_text(STATUS, encoding="utf-8")
    (tmp_path / "t.txt").write_text(TYPES, encoding="utf-8")
    out = tmp_path / "out.tsv"
    argv = ["--profile", str(tmp_path / "s.txt"), str(tmp_path / "t.txt"), str(out)]
    assert make_confusables.main(argv) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert "IdentifierStatus.txt version 15.0.0; IdentifierType.txt version 15.0.0." in lines[2]
    assert [line for line in lines if not line.startswith("#")] == [
        "0009..000D\tNot_XID",
        "0041..005A\tAllowed",
        "00C0\tAllowed",
        "1D00..1D2B\tTechnical",
        "20E2..20E3\tTechnical Not_XID",
    ]


def test_the_generator_refuses_files_that_disagree(tmp_path):
    (tmp_path / "s.txt").write_text(STATUS, encoding="utf-8")
    (tmp_path / "t.txt").write_text(TYPES + "00C0 ; Obsolete # x\n", encoding="utf-8")
    argv = ["--profile", str(tmp_path / "s.txt"), str(tmp_path / "t.txt"), str(tmp_path / "o")]
    with pytest.raises(SystemExit, match="U\\+00C0 is both"):
        make_confusables.main(argv)
