"""A ruleset registered by a test (`tests/engine/pocket`) is started, shown and helped by
digital play and the command line's file reading, none of which names it: they ask the
registry and the observation."""

from __future__ import annotations

import pytest

from cli.inputs import InputFileError, game_inputs
from digital import play_menu
from digital import play_text as T
from digital.errors import SetupError
from digital.session import DigitalSession
from tests.engine.pocket import entry as pocket
from tray.bus import Bus

NOTES = {"pocket": {"notes": ["no stacking"]}}


@pytest.fixture(autouse=True)
def registered():
    yield pocket.register()
    pocket.unregister()


def test_digital_play_starts_shows_and_helps_a_ruleset_it_never_named():
    session = DigitalSession(Bus(), pace=0, inputs=NOTES)
    try:
        keys = session.new_game(["Ann", "Bob", "Cy"], [0], "greedy", ruleset="pocket", seed=2)
        view = session.view(0, keys[0])
        assert view["ruleset"] == "pocket" and view["title"] == "Pocket UNO"
        assert pocket.NOTES_GIVEN[-1] == ["no stacking"]
        table = "\n".join(line.plain for line in T.table(view))
        assert all(f"{name} " in table for name in ("Ann", "Bob", "Cy")) and "points" in table
        help_text = play_menu.help_text(view)
        assert "Pocket UNO is classic UNO under a name of its own." in " ".join(help_text.split())
        assert "Pocket UNO has no Tinker Bell: nothing waits for a button." in help_text
    finally:
        session.close()


def test_a_ruleset_started_without_its_files_is_one_sentence():
    session = DigitalSession(Bus(), pace=0)
    try:
        with pytest.raises(SetupError) as caught:
            session.new_game(["Ann", "Bob"], [0], "greedy", ruleset="pocket")
        assert str(caught.value) == (
            "Pocket UNO needs its house notes: this display was started without them"
        )
    finally:
        session.close()


def test_the_command_line_reads_the_files_a_registered_ruleset_names(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("no stacking\n\nseven-0\n")
    options, inputs = game_inputs("pocket", {"notes": str(notes), "target": 200})
    assert options == {"target": 200} and inputs == {"notes": ["no stacking", "seven-0"]}
    notes.write_text("fine\n   \n")
    with pytest.raises(InputFileError, match=f"^{notes}, line 2: a note of nothing but spaces$"):
        game_inputs("pocket", {"notes": str(notes)})
    with pytest.raises(InputFileError, match=r"^no house notes given: notes=PATH names the file$"):
        game_inputs("pocket", {})
