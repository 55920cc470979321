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
