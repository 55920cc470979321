"""One registry of effect names per ruleset (issue 52, item 4): each name has one meaning (the
kind of card carrying it, what that card does turned up first), checked at import, so two rules
cannot share a name by accident (Seven-O's 7 and the Wild Customizable's swap once did)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from engine.disney import cards as C
from engine.disney import rulesets, variant
from engine.disney.rulesets import (
    ACTION,
    NUMBER,
    RETURNED,
    WILD,
    CardEffect,
    Effect,
    EffectNameClash,
    effect_names,
)
from tests.engine.test_first_discard import CASES

SOURCE = Path(__file__).resolve().parents[2] / "engine" / "disney" / "rulesets.py"


def _import_rulesets_from(text: str, name: str) -> None:
    """Import `text` as a module of its own (the engine's rulesets.py, changed), as Python
    imports the real one."""
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        exec(compile(text, str(SOURCE), "exec"), module.__dict__)
    finally:
        del sys.modules[name]


def test_the_rulesets_module_imports_as_it_is():
    _import_rulesets_from(SOURCE.read_text(encoding="utf-8"), "rulesets_as_it_is")


def test_the_seven_and_the_wild_customizable_sharing_a_name_raises_at_import():
    """The bug of issue 52 put back: the Wild Customizable's swap named `swap_hands`, like
    Seven-O's 7. The module no longer imports, and says why."""
    text = SOURCE.read_text(encoding="utf-8")
    assert text.count('"wild_swap_hands"') == 1
    broken = text.replace('"wild_swap_hands"', '"swap_hands"')
    with pytest.raises(ValueError, match=r"'swap_hands' means a wild card .* a number card") as e:
        _import_rulesets_from(broken, "rulesets_with_a_clash")
    assert type(e.value).__name__ == "EffectNameClash"  # (the module's own class: a new one)


def test_one_name_with_two_meanings_is_refused():
    seven = CardEffect(7, "swap", None, ("seven_o", True), "Seven-O's 7")
    wild = CardEffect(C.WILD_CUSTOM, "swap", "colour", rule="a Wild Customizable")
    with pytest.raises(EffectNameClash, match="'swap' means a number card"):
        effect_names("test", (seven, wild))
    with pytest.raises(EffectNameClash, match="an action card"):  # a Skip that does not skip
        effect_names("test", (CardEffect(C.SKIP, "skip", "skip"), CardEffect(C.REVERSE, "skip")))


def test_one_name_with_one_meaning_may_be_given_twice():
    shuffle = CardEffect(C.WILD_SHUFFLE_HANDS, "shuffle_hands", "colour")
    custom = CardEffect(C.WILD_CUSTOM, "shuffle_hands", "colour", ("wild_customizable", "x"))
    names = effect_names("test", (shuffle, custom))
    assert names["shuffle_hands"] == Effect(WILD, "colour")
    assert names["number"] == Effect(NUMBER, None)


def test_a_number_card_is_given_no_first_discard_rule():
    with pytest.raises(EffectNameClash, match="a number card turned up starts play with no"):
        effect_names("test", (CardEffect(7, "swap_hands", "colour"),))


def test_an_unknown_first_discard_rule_and_an_option_returning_a_card_are_refused():
    with pytest.raises(EffectNameClash, match="no first-discard rule"):
        effect_names("test", (CardEffect(C.WILD, "wild", "color"),))
    with pytest.raises(EffectNameClash, match="cannot return a card"):
        effect_names("test", (CardEffect(C.WILD, "wild", RETURNED, ("x", True)),))


def test_every_ruleset_has_its_registry_and_every_card_a_registered_effect():
    for rules in rulesets.RULESETS.values():
        assert rules.effect_names["number"] == Effect(NUMBER, None)
        assert set(rules.effect_names) <= variant.EFFECTS, rules.name
    for name, options in CASES:
        rules = rulesets.get(name)
        table = variant.effect_table(rules, rules.resolve_options(options))
        for card in set(rules.deck):
            meant = rules.effect_names[table.effect_of[card]]
            kind = WILD if card >= 64 else NUMBER if C.RANK_OF[card] <= 9 else ACTION
            assert meant.carrier == kind, (name, options, C.code(card))
            assert table.turned_up[card] == meant.turned_up
            if kind == NUMBER:
                assert table.turned_up[card] is None, (name, options, C.code(card))


def test_seven_o_and_the_wild_customizable_have_names_of_their_own():
    official = rulesets.OFFICIAL_2018
    table = variant.effect_table(
        official, {"seven_o": True, "six_smackdown": True, "wild_customizable": "swap_hands"}
    )
    assert table.effect_of[C.card("B7")] == "swap_hands"
    assert table.effect_of[C.card("G0")] == "pass_hands"
    assert table.effect_of[C.card("Y6")] == "smackdown"
    assert table.effect_of[C.WILD_CUSTOM] == "wild_swap_hands"
    assert official.effect_names["swap_hands"] == Effect(NUMBER, None)
    assert official.effect_names["wild_swap_hands"] == Effect(WILD, "colour")


def test_a_ruleset_that_gives_one_card_two_effects_or_another_option_is_refused():
    options = rulesets.OFFICIAL_2018.options
    two = (CardEffect(C.SKIP, "skip", "skip"), CardEffect(C.SKIP, "reverse", "skip"))
    with pytest.raises(EffectNameClash, match="given two effects"):
        rulesets._ruleset(two, name="t", title="t", deck=(), points=(), options=options)
    stray = (CardEffect(7, "swap_hands", None, ("seven_zero", True)),)
    with pytest.raises(EffectNameClash, match="not its option"):
        rulesets._ruleset(stray, name="t", title="t", deck=(), points=(), options=options)
