"""The [mqtt] section of the settings file and --mqtt/--table: checked before anything starts."""

from __future__ import annotations

import argparse
import textwrap

import pytest

from cli.commands.run import mqtt_settings
from tray import config

GOOD = """\
[leds]
red = { pin = 5 }
blue = { pin = 6 }
green = { pin = 13 }
yellow = { pin = 19 }
"""


def problems(text: str) -> list[str]:
    with pytest.raises(config.ConfigError) as info:
        config.parse(GOOD + textwrap.dedent(text), source="pins.toml")
    return str(info.value).splitlines()


def test_no_section_no_mqtt():
    assert config.parse(GOOD).mqtt is None


def test_a_full_section():
    cfg = config.parse(
        GOOD
        + textwrap.dedent("""\
        [mqtt]
        url = "mqtts://broker.lan:8883"
        table = "kitchen"
        username = "tray"
        password_env = "TINKER_MQTT_PASSWORD"
        ca_file = "/etc/ssl/ca.pem"
        allow_press = true
        """)
    )
    assert cfg.mqtt == config.MqttSettings(
        url="mqtts://broker.lan:8883",
        table="kitchen",
        username="tray",
        password_env="TINKER_MQTT_PASSWORD",
        ca_file="/etc/ssl/ca.pem",
        allow_press=True,
    )
    assert cfg.mqtt.discovery_prefix == "homeassistant"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[mqtt]\nurl = "http://broker:1883"\n',
            "pins.toml, line 7: mqtt.url must look like mqtt://host:1883",
        ),
        ('[mqtt]\nurl = "mqtt://u:pw@broker"\n', "pins.toml, line 7: mqtt.url takes only a host"),
        (
            '[mqtt]\nurl = "mqtt://b"\ntable = "the kitchen"\n',
            "pins.toml, line 8: mqtt.table must be a name of letters",
        ),
        ('[mqtt]\ntable = "t"\n', "pins.toml, line 6: [mqtt] needs a url"),
        (
            '[mqtt]\nurl = "mqtt://b"\npassword = "hunter2"\n',
            "pins.toml, line 8: unknown key 'mqtt.password'",
        ),
        (
            '[mqtt]\nurl = "mqtt://b"\nca_file = "ca.pem"\n',
            "pins.toml, line 8: mqtt.ca_file is for mqtts://",
        ),
    ],
)
def test_mistakes_name_their_line(text, message):
    lines = problems(text)
    assert any(line.startswith(message) for line in lines), lines


def args(**kw):
    return argparse.Namespace(**{"mqtt": None, "table": None, **kw})


def test_the_command_line_overrides_the_file():
    cfg = config.parse(GOOD + '[mqtt]\nurl = "mqtt://a:1883"\ntable = "a"\nallow_press = true\n')
    assert mqtt_settings(cfg, args()) == cfg.mqtt
    over = mqtt_settings(cfg, args(mqtt="mqtt://b:1884", table="b"))
    assert (over.url, over.table, over.allow_press) == ("mqtt://b:1884", "b", True)
    assert mqtt_settings(None, args()) is None
    plain = mqtt_settings(None, args(mqtt="mqtt://127.0.0.1:1883", table="kitchen"))
    assert (plain.table, plain.allow_press) == ("kitchen", False)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"mqtt": "broker:1883"}, "--mqtt must look like mqtt://host:1883"),
        ({"mqtt": "mqtt://b", "table": "a/b"}, "--table must be letters"),
        ({"table": "kitchen"}, "--table names the table on MQTT: give --mqtt URL too"),
    ],
)
def test_bad_command_line_values_are_one_line(given, message):
    with pytest.raises(ValueError, match="^" + message.replace("(", r"\(")):
        mqtt_settings(None, args(**given))
