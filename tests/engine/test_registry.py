"""The registry (`engine.registry`): the shipped rulesets found without the core naming them,
one lookup for every ruleset, and a ruleset registered by a test played, recorded and replayed
through it (`tests/engine/pocket`)."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys

import pytest

from engine import record, registry
from engine.protocol import CHANCE
from tests.engine import pocket
from tests.engine.pocket import entry as pocket_entry

SHIPPED = ("disney", "classic", "official-2018", "elvis", "elite")


@pytest.fixture
def registered():
    yield pocket_entry.register()
    pocket_entry.unregister()


def test_the_shipped_rulesets_register_themselves_in_order():
    assert registry.names()[: len(SHIPPED)] == SHIPPED
    assert registry.get("elite").title == "UNO Elite"
    assert registry.get("disney").title == "Disney UNO with the Tinker Bell tray"
    assert "lineups" in registry.get("elite").features({})
    assert "tinker_bell" in registry.get("disney").features({})
    assert "tinker_bell" not in registry.get("classic").features({})


def test_an_unknown_ruleset_is_one_sentence_naming_the_known_ones():
    with pytest.raises(ValueError) as caught:
        registry.get("pixie")
    assert str(caught.value) == (
        "unknown ruleset 'pixie' (this engine plays: disney, classic, official-2018, elvis "
        "and elite)"
    )


def test_only_uno_elite_needs_files_and_says_which():
    needs = {name: [f.name for f in registry.get(name).inputs] for name in SHIPPED}
    assert needs == {
        "disney": [],
        "classic": [],
        "official-2018": [],
        "elvis": [],
        "elite": ["cards", "deck", "decks"],
    }
    cards, deck, decks = registry.get("elite").inputs
    assert cards.required and not deck.required and not decks.required and decks.many
    assert deck.default is not None  # (read where none is given; the engine has the same deck)
    assert cards.default is not None and cards.default.endswith("f1-2025.tsv")


def test_a_game_without_its_files_is_refused_in_a_sentence():
    with pytest.raises(ValueError) as caught:
        registry.new_game("elite", ["a", "b"], None, {}, {})
    assert str(caught.value) == ("UNO Elite needs its cards: this display was started without them")


def test_a_name_taken_by_another_entry_is_refused(registered):
    assert pocket_entry.register() is registered  # the same entry again: nothing changes
    other = dataclasses.replace(registered, title="Another pocket")
    with pytest.raises(ValueError, match="a ruleset named 'pocket' is already registered"):
        registry.register(other)


def test_a_ruleset_registered_by_a_test_is_played_recorded_and_replayed(registered):
    assert "pocket" in registry.names() and registry.get("pocket") is registered
    game = registry.new_game("pocket", ["Ann", "Bob", "Cy"], 0, {}, {"notes": ["no stacking"]})
    rng = random.Random(3)
    while game.current_player() == CHANCE:
        game.sample_chance(rng)
    for _ in range(30):
        if game.is_terminal() or game.current_player() < 0:
            break
        game.apply_action(rng.choice(game.legal_actions()))
    text = game.record()
    assert '"ruleset": "pocket"' in text.splitlines()[0]
    replayed, count = record.replay(text)
    assert count > 0 and replayed.observation(None) == game.observation(None)


def test_a_record_of_a_ruleset_not_registered_names_the_known_ones():
    header = {"format": record.FORMAT, "ruleset": "pocket", "players": ["a", "b"]}
    with pytest.raises(record.RecordError) as caught:
        record.game_from_header(header)
    assert "unknown ruleset 'pocket' (this engine plays: disney" in str(caught.value)
    assert pocket.__doc__  # (the package is importable without registering anything)


def test_the_order_is_the_same_whichever_ruleset_was_imported_first():
    script = "import engine.elite; from engine import registry; print(registry.names())"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.stdout.strip() == str(SHIPPED), out.stderr


def _modules_after(script: str) -> list[str]:
    """The modules of a ruleset (engine/disney, engine/elite) loaded after `script`, in a
    fresh Python."""
    probe = f"{script}; import json, sys; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    listed = json.loads(out.stdout.strip().splitlines()[-1])
    return [m for m in listed if m.split(".")[:2] in (["engine", "disney"], ["engine", "elite"])]


def test_listing_the_rulesets_imports_nothing_of_them_but_their_registrations():
    """Issue 49: a start pays for no ruleset it does not play (it imported 38 modules)."""
    loaded = _modules_after("from engine import registry; registry.names()")
    assert loaded == [  # each package's __init__ runs first: neither imports more of it
        "engine.disney",
        "engine.disney.registration",
        "engine.elite",
        "engine.elite.registration",
    ]


def test_an_entry_is_made_on_its_first_lookup_and_its_game_when_a_game_is_made():
    script = "from engine import registry; registry.get('elite'); registry.get('disney')"
    looked_up = set(_modules_after(script))
    assert "engine.elite.game" not in looked_up and "engine.disney.game" not in looked_up
    played = set(_modules_after(f"{script}; registry.new_game('disney', ['a', 'b'], 0)"))
    assert "engine.disney.game" in played and "engine.elite.game" not in played


def test_each_family_registers_the_names_its_rulesets_have():
    from engine.disney import registration, rulesets

    assert tuple(rulesets.RULESETS) == registration.NAMES
    for name in SHIPPED:
        assert registry.get(name).name == name  # (get refuses an entry made under another name)


def test_an_entry_made_under_another_name_is_refused():
    registry.register_later("pocket-misnamed", lambda: pocket_entry.ENTRY)
    try:
        with pytest.raises(ValueError, match="made an entry named"):
            registry.get("pocket-misnamed")
    finally:
        registry.unregister("pocket-misnamed")
