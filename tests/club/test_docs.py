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
    from club import journal, payloads

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
