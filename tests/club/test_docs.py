"""docs/mqtt.md documents every topic a table publishes or takes, and every [mqtt] key."""

from pathlib import Path

from club import topics
from tray import config

DOC = Path(__file__).resolve().parents[2] / "docs" / "mqtt.md"


def test_every_topic_and_key_is_documented():
    text = DOC.read_text(encoding="utf-8")
    for leaf in topics.LEAVES:
        assert f"`tinker-tray/<table>/{leaf}`" in text, leaf
    for key in config.SCHEMA["mqtt"]:
        assert key in text, key
    assert "allow_press = false" in text and "mqtts://" in text


def test_the_clubs_limits_are_documented_as_the_code_has_them():
    from club import journal, pace, payloads

    text = DOC.read_text(encoding="utf-8")
    section = text.split("### The club's limits", 1)[1].split("\n## ", 1)[0]
    for name in (
        "MAX_PAYLOAD",
        "MAX_TABLES",
        "MAX_PLAYERS",
        "MAX_NAME",
        "MAX_TEXT",
        "RECENT_PICKS",
        "FINISHED_PER_TABLE",
        "FINISHED_SHOWN",
    ):
        assert f"{getattr(payloads, name)} (`{name}`)" in section, name
    assert f"every {journal.COMPACT_AFTER} messages (`COMPACT_AFTER`)" in section
    assert f"at most {pace.UPDATES_PER_S} (`UPDATES_PER_S`" in section
    from club import board

    assert f"{board.PLAYING_PICKS} (`PLAYING_PICKS`)" in section
    assert f"(`PLAYING_WINDOW_S`, {board.PLAYING_WINDOW_S:.0f} s)" in section


def test_the_example_automation_fires_on_every_colour_and_never_on_unavailable_or_unknown():
    """The states the last-pick sensor takes: each colour a table publishes (its value template
    applied to the pick payloads), and Home Assistant's own two for a restart."""
    import ast
    import json
    import re

    from club import discovery, topics

    text = DOC.read_text(encoding="utf-8")
    example = text.split("```yaml\nautomation:", 1)[1].split("```", 1)[0]
    to = ast.literal_eval(re.search(r"^\s+to: (\[.*\])$", example, re.M).group(1))
    sensor = discovery.configs("kitchen", "ha", [], can_press=False)[
        "ha/sensor/tinker_tray_kitchen/last_pick/config"
    ]
    assert sensor["value_template"] == "{{ value_json.colour }}"
    view = {"game": 1, "pick": {"seq": 1, "says": "", "declared": None, "pending": False}}
    for colour in ("red", "blue", "green", "yellow"):
        view["pick"]["colour"] = colour
        state = json.loads(topics.dumps(topics.pick_payload(view, 0.0)))["colour"]
        assert state in to
    assert "unavailable" not in to and "unknown" not in to
