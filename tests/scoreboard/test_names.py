"""Every name people type (a game's, a player's: on the scoreboard, in digital play, on the
command line) passes one rule, `scoreboard.names`: kept as NFC, refused with a sentence (a 422,
never a 500) for control characters and lone surrogates, refused as a duplicate when it differs
from another only by what cannot be seen; and a CSV export never starts a cell with a formula."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

import cli.main as cli
from scoreboard import names
from scoreboard.journal import Journal

BAD = [
    ("\ud800x", "half of a surrogate pair (U+D800)"),
    ("x\udfff", "half of a surrogate pair (U+DFFF)"),
    ("Ann\x00", "a control character (U+0000)"),
    ("\x1b[31mAnn", "a control character (U+001B)"),
    ("Ann\nBo", "a control character (U+000A)"),
    ("Ann\tBo", "a control character (U+0009)"),
    ("Ann\u2028Bo", "a line separator (U+2028)"),
    ("Ann\x85", "a control character (U+0085)"),
]
LOOK_ALIKE = [
    ("Ann", "A\u200bnn"),  # a zero-width space
    ("Ann", "\u2060Ann\u200d"),  # a word joiner, a zero-width joiner
    ("Ann", "ann"),
    ("Ann Lee", "Ann\u00a0Lee"),  # a no-break space
    ("Ann", "Ａｎｎ"),  # full-width letters
    ("Zoë", "Zoe\u0308"),  # composed and decomposed: one name once NFC
    # issue 41.6: what Unicode draws as nothing (Default_Ignorable_Code_Point) ...
    ("Ann", "Ann\u3164"),  # a Hangul filler
    ("Ann", "An\u034fn"),  # a combining grapheme joiner
    ("Ann", "Ann\ufe0f"),  # a variation selector
    ("Ann Lee", "Ann\u2800Lee"),  # a Braille blank, drawn as a space
    # ... and look-alike letters of another alphabet (UTS #39's confusables skeleton)
    ("Ann", "\u0410nn"),  # Cyrillic capital A
    ("Ann", "\u0391nn"),  # Greek capital Alpha
    ("Bo", "\u0412\u043e"),  # Cyrillic Ve and o: all Cyrillic
    ("Zoe", "\u0396\u03bfe"),  # Greek capital Zeta and omicron
    ("ann", "\u0410NN"),  # another alphabet and another case at once
]
INVISIBLE = ["\u3164", "\u034f", "\ufe0f", "\u2800", "\u2800\u2800 \u3164", "\u200b"]


def raw(body: str) -> bytes:
    """A JSON body as a page could send it: lone surrogates as `\\ud800` escapes."""
    return body.encode("ascii")


def post_json(writer, url: str, data: dict) -> object:
    return writer.post(
        url, content=raw(json.dumps(data)), headers={"Content-Type": "application/json"}
    )


@pytest.mark.parametrize(("bad", "says"), BAD)
def test_a_name_that_is_not_plain_text_is_refused_saying_why(bad, says):
    with pytest.raises(names.NameRefused, match="^player 2.s name holds " + re.escape(says)):
        names.players(["Bo", bad])
    with pytest.raises(names.NameRefused, match="^the game.s name holds " + re.escape(says)):
        names.game_name(bad)


@pytest.mark.parametrize(("first", "second"), LOOK_ALIKE)
def test_look_alikes_are_the_same_name(first, second):
    with pytest.raises(names.NameRefused, match="two players have the same name"):
        names.players([first, second])


def test_names_are_kept_as_nfc_and_trimmed_and_empty_is_refused():
    assert names.players([" Zoe\u0308 ", "Bo"]) == ["Zoë", "Bo"]
    assert names.game_name("  ") is None and names.game_name(None) is None
    for empty in ("", "   ", *INVISIBLE):
        with pytest.raises(names.NameRefused, match="player 1's name is empty"):
            names.players([empty, "Bo"])
    with pytest.raises(names.NameRefused, match="at most 24 characters, not 25"):
        names.players(["x" * 25, "Bo"])


@pytest.mark.parametrize(("bad", "says"), BAD)
def test_the_scoreboard_refuses_a_bad_game_or_player_name_with_a_422(writer, bad, says):
    for game in (
        {"players": ["Ann", "Bo"], "name": bad},
        {"players": ["Ann", bad]},
    ):
        res = post_json(writer, "/api/new-game", game)
        assert res.status_code == 422, res.text
        assert says in res.json()["error"]
    assert writer.get("/api/games").json()["games"] == []  # nothing was kept


@pytest.mark.parametrize(("first", "second"), LOOK_ALIKE)
def test_the_scoreboard_refuses_look_alike_players(writer, first, second):
    res = post_json(writer, "/api/new-game", {"players": [first, second]})
    assert res.status_code == 422 and "same name" in res.json()["error"]


def test_different_names_in_other_alphabets_are_kept_as_typed():
    """Look-alikes are refused only beside the name they imitate: a Cyrillic or Greek name is a
    name, and letters that merely resemble another's are not the same."""
    assert names.players(["\u0410\u043d\u043d\u0430", "Anna", "\u0396\u03c9\u03ae"]) == [
        "\u0410\u043d\u043d\u0430",
        "Anna",
        "\u0396\u03c9\u03ae",
    ]
    assert names.players(["Ann", "Anne", "Ann Lee", "\u2764\ufe0f"]) == [
        "Ann",
        "Anne",
        "Ann Lee",
        "\u2764\ufe0f",
    ]


@pytest.mark.parametrize("invisible", INVISIBLE)
def test_the_scoreboard_refuses_an_invisible_name_with_a_422(writer, invisible):
    res = post_json(writer, "/api/new-game", {"players": ["Ann", invisible]})
    assert res.status_code == 422 and "player 2's name is empty" in res.json()["error"]


def test_the_scoreboard_keeps_names_as_nfc(writer, journal):
    res = post_json(writer, "/api/new-game", {"players": ["Zoe\u0308", "Bo"], "name": "Ce\u0301"})
    assert res.status_code == 200
    [game] = journal.games()
    assert game.name == "Cé"
    assert writer.get("/api/view").json()["players"][0]["name"] == "Zoë"


@pytest.mark.parametrize(("bad", "says"), BAD[:4])
def test_digital_play_refuses_a_bad_player_name_with_a_422(writer, bad, says):
    new = {"players": ["Ann", bad], "humans": [0], "bots": "greedy", "pace": 0}
    res = post_json(writer, "/api/digital/new", new)
    assert res.status_code == 422, res.text
    assert says in res.json()["error"]
    for alike in ("A\u200bnn", "\u0410nn", "\u0391nn", "Ann\u3164"):
        new["players"] = ["Ann", alike]
        res = post_json(writer, "/api/digital/new", new)
        assert res.status_code == 422 and "same name" in res.json()["error"]
    new["players"] = ["Ann", "\u2800"]
    res = post_json(writer, "/api/digital/new", new)
    assert res.status_code == 422 and "player 2's name is empty" in res.json()["error"]


def test_the_play_command_refuses_a_bad_name_with_exit_2(capsys):
    assert cli.main(["play", "--players", "Ann,\x1b[2JBo", "--humans", "none"]) == 2
    assert "player 2's name holds a control character (U+001B)" in capsys.readouterr().err
    assert cli.main(["play", "--players", "Ann,A\u200bnn", "--humans", "none"]) == 2
    assert "two players have the same name" in capsys.readouterr().err
    assert cli.main(["play", "--players", "Ann,\u0410nn", "--humans", "none"]) == 2
    assert "'Ann' and '\u0410nn' look alike" in capsys.readouterr().err


def test_the_journal_refuses_a_game_name_no_page_could_show(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite3")
    start = {"kind": "start", "players": ["Ann", "Bo"]}
    with pytest.raises(names.NameRefused, match="surrogate"):
        journal.create_game(start, "\ud800x")
    assert journal.games() == []
    journal.close()


FORMULAS = ['=HYPERLINK("x")', "+1+2", "-2+3", "@SUM(A1)"]


def test_no_csv_cell_starts_a_formula(writer):
    res = writer.post("/api/new-game", json={"players": FORMULAS})
    assert res.status_code == 200
    hand = {"kind": "hand", "winner": 0, "held": [None, ["R7"], ["B2"], ["G9"]]}
    assert writer.post("/api/entry", json=hand).status_code == 200
    game = res.json()["game"]
    rows = list(csv.reader(io.StringIO(writer.get(f"/api/games/{game}.csv").text)))
    cells = [cell for row in rows for cell in row]
    assert not [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r")]
    assert not [c for c in cells if c.startswith("-") and not c.lstrip("-").isdigit()]
    assert rows[0][3] == '\'=HYPERLINK("x") scored' and rows[1][2] == '\'=HYPERLINK("x")'
    assert rows[0][5] == "'-2+3 scored"
