"""Elite Action Cards and the UNO deck as data: the shipped files, the parsers, their errors."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.elite import EliteDataError, Icon, Power, box, default_deck, parse_cards, parse_deck
from engine.elite.cards import card_row, format_cards, parse_power
from engine.elite.uno import ACTIONS, ELITE_WILD, RECOVER, WILD_RECOVER, card_of_code
from tests.engine.elite.helpers import DECK, F1


def test_the_f1_2025_set_has_101_numbers_and_their_prints():
    numbers = {c.number for c in F1}
    assert numbers == {f"{n:03d}" for n in range(1, 102)}
    albon = [c for c in F1 if c.number == "001"]
    foils = Counter(c.foil for c in albon)
    assert foils == {"base": 4, "foil": 4, "dual": 2, "wild": 1, "nitro": 1}
    assert {c.id for c in albon} >= {"001-red", "001-blue-red", "001-wild", "001-nitro"}
    assert {c.foil for c in F1 if c.number == "079"} == {"base"}  # a grand prix: base only
    assert {c.id for c in F1 if c.foil == "promo"} >= {"010-promo-red", "057-promo-yellow"}


def test_which_card_each_icon_acts_on_in_the_shipped_set():
    on = {(p.icon, p.on) for c in F1 for p in c.powers}
    assert {o for i, o in on if i in (Icon.RECOVER, Icon.SEARCH, Icon.SUBSTITUTE)} == {"elite"}
    assert {o for i, o in on if i in (Icon.DRAW, Icon.DISCARD)} == {"uno"}


def test_wild_and_nitro_count_as_all_four_colours_dual_as_two():
    cards = {c.id: c for c in F1}
    assert (
        cards["001-wild"].colours
        == cards["001-nitro"].colours
        == {
            "red",
            "blue",
            "green",
            "yellow",
        }
    )
    assert cards["001-blue-red"].colours == {"blue", "red"}
    assert cards["001-green-yellow"].colours == {"green", "yellow"}


def test_box_base_holds_the_four_base_colours_of_each_number():
    base = box(F1, "base")
    assert len(base) == 404 and {c.foil for c in base} == {"base"}
    assert len(box(F1, "all")) == len(F1)
    with pytest.raises(ValueError, match="box must be one of"):
        box(F1, "boosters")


@pytest.mark.parametrize(
    "text, power",
    [
        ("Draw 1 uno Target", Power(Icon.DRAW, 1, target=True)),
        ("Draw Three Everyone", Power(Icon.DRAW, 3, everyone=True)),
        ("Recover 2 elite", Power(Icon.RECOVER, 2, on="elite")),
        ("Recover 1 uno", Power(Icon.RECOVER, 1, on="uno")),
        ("Discard 1 elite Target", Power(Icon.DISCARD, 1, target=True, on="elite")),
        ("Discard Color uno", Power(Icon.DISCARD_COLOUR)),
        ("Play Again", Power(Icon.PLAY_AGAIN)),
        ("Search", Power(Icon.SEARCH, on="elite")),
    ],
)
def test_powers_read_and_write_back(text, power):
    assert parse_power(text) == power
    assert parse_power(power.spec()) == power


def test_a_row_written_back_parses_to_the_same_card():
    again = parse_cards("\n".join(card_row(c) for c in F1), "rows")
    assert again == F1
    grouped = format_cards(F1)
    assert len(grouped) == 103 and parse_cards("\n".join(grouped), "grouped") == F1


@pytest.mark.parametrize(
    "row, reason",
    [
        ("001\tAlex Albon\tdriver\tred", "expected 5 tab-separated columns"),
        ("001\tAlex Albon\tdriver\tred\tJump uno", "unknown icon in 'Jump uno'"),
        ("001\tAlex Albon\tdriver\tpurple\tSkip uno", "unknown variant 'purple'"),
        ("001\tAlex Albon\tdriver\tred\tDraw 2 elite", "Draw acts on uno cards, not elite"),
        ("001\tAlex Albon\tdriver\tred\tReverse Target", "Reverse cannot take Target"),
        ("001\tAlex Albon\tdriver\tred\tSkip 2", "Skip takes no number"),
        ("001\tAlex Albon\tdriver\tred\tSkip Target Everyone", "both Target and Everyone"),
        ("001\tAlex Albon\tdriver\tred\t", "at least one power"),
    ],
)
def test_every_card_file_error_names_the_source_and_line(row, reason):
    text = "# my cards\n\n" + row + "\n"
    with pytest.raises(EliteDataError) as caught:
        parse_cards(text, "mine.tsv")
    assert caught.value.line == 3 and caught.value.source == "mine.tsv"
    assert str(caught.value).startswith("mine.tsv, line 3: ")
    assert reason in str(caught.value)


def test_a_card_twice_names_both_lines():
    text = "001\tA\tdriver\tred\tSkip\n002\tB\tdriver\tblue\tSkip\n001\tA\tdriver\tred,blue\tSkip\n"
    with pytest.raises(EliteDataError, match=r"x, line 3: card 001-red is already on line 1"):
        parse_cards(text, "x")


# ---------------------------------------------------------------- the UNO deck
def test_the_default_deck_is_the_data_file_and_has_112_cards():
    assert default_deck() == DECK
    assert len(DECK) == 112


def test_the_deck_is_consistent_with_the_book():
    """Numbers in four colours, some with the Elite icon; Recover coloured; Elite Wild and
    Wild Recover wild; Elite icons only on numbers and Elite Wild."""
    colours = {c.colour for c in DECK if c.rank.isdigit()}
    assert colours == {"red", "blue", "green", "yellow"}
    assert any(c.elite for c in DECK if c.rank.isdigit())
    assert {c.rank for c in DECK if c.elite} - set("0123456789") == {ELITE_WILD}
    assert all(c.colour is not None and c.recover for c in DECK if c.rank == RECOVER)
    assert all(c.wild for c in DECK if c.rank in (ELITE_WILD, WILD_RECOVER))
    assert {RECOVER, ELITE_WILD, WILD_RECOVER} == ACTIONS


def test_card_codes_read_back():
    for card in set(DECK):
        assert card_of_code(card.code) == card
    assert card_of_code("r3e").words() == "Red 3 (Elite)"
    assert card_of_code("brc").words() == "Blue Recover"
    assert card_of_code("g7ec").words() == "Green 7 (Elite, Recover)"
    for bad in ("x3", "r", "rq", "r3x", "ewe"):
        with pytest.raises(ValueError, match="unknown UNO card"):
            card_of_code(bad)


@pytest.mark.parametrize(
    "row, reason",
    [
        ("red\t3\tyes\tno", "expected 5 tab-separated columns"),
        ("purple\t3\tyes\tno\t1", "unknown colour 'purple'"),
        ("red\tskip\tno\tno\t1", "unknown rank 'skip'"),
        ("red\telite-wild\tyes\tno\t1", "its colour must be 'wild'"),
        ("wild\telite-wild\tno\tno\t1", "always has the Elite icon"),
        ("red\trecover\tno\tno\t1", "always has the Recover icon"),
        ("red\t3\tmaybe\tno\t1", "elite must be yes or no"),
        ("red\t3\tno\tno\tzero", "count must be a whole number"),
    ],
)
def test_every_deck_file_error_names_the_source_and_line(row, reason):
    with pytest.raises(EliteDataError) as caught:
        parse_deck("#colour\trank\telite\trecover\tcount\n" + row, "deck.tsv")
    assert str(caught.value).startswith("deck.tsv, line 2: ") and reason in str(caught.value)


def test_a_deck_file_replaces_the_default():
    deck = parse_deck("red\t3\tyes\tno\t30\nblue\t4\tno\tno\t30\nwild\twild-recover\tno\tyes\t2")
    assert Counter(c.code for c in deck) == {"r3e": 30, "b4": 30, "wr": 2}
