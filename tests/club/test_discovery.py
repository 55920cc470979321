"""Home Assistant's discovery payloads use only keys from its documented schemas.

The key lists are copied from Home Assistant's documentation of MQTT discovery and of each
platform (https://www.home-assistant.io/integrations/mqtt/#discovery-messages,
/integrations/event.mqtt/, /integrations/sensor.mqtt/, /integrations/button.mqtt/): the
configuration variables common to MQTT entities, then each platform's own, and the required
ones. A key outside them would be dropped or refused by Home Assistant.
"""

from __future__ import annotations

import json
import re

from club import discovery, topics

COMMON = {
    "availability",
    "availability_mode",
    "availability_template",
    "availability_topic",
    "device",
    "enabled_by_default",
    "encoding",
    "entity_category",
    "entity_picture",
    "icon",
    "json_attributes_template",
    "json_attributes_topic",
    "name",
    "object_id",
    "default_entity_id",
    "origin",
    "payload_available",
    "payload_not_available",
    "qos",
    "unique_id",
}
PLATFORM = {
    "event": {"device_class", "event_types", "state_topic", "value_template"},
    "sensor": {
        "device_class",
        "expire_after",
        "force_update",
        "last_reset_value_template",
        "options",
        "suggested_display_precision",
        "state_class",
        "state_topic",
        "unit_of_measurement",
        "value_template",
    },
    "button": {"command_template", "command_topic", "device_class", "payload_press", "retain"},
}
REQUIRED = {
    "event": {"state_topic", "event_types"},
    "sensor": {"state_topic"},
    "button": {"command_topic"},
}
DEVICE = {
    "configuration_url",
    "connections",
    "hw_version",
    "identifiers",
    "manufacturer",
    "model",
    "model_id",
    "name",
    "serial_number",
    "suggested_area",
    "sw_version",
    "via_device",
}
ORIGIN = {"name", "sw_version", "support_url"}
DEVICE_CLASSES = {
    "event": {"button", "doorbell", "motion"},
    "button": {"identify", "restart", "update"},
}
TOPIC = re.compile(
    r"^(?P<prefix>.+)/(?P<component>event|sensor|button)/"
    r"(?P<node>[A-Za-z0-9_-]+)/(?P<object>[A-Za-z0-9_-]+)/config$"
)


def test_every_config_uses_only_documented_keys():
    configs = discovery.configs(
        "kitchen", "homeassistant", ["Ann", "Bo O'Neil", "ann"], can_press=True
    )
    components = set()
    for name, payload in configs.items():
        match = TOPIC.match(name)
        assert match, name
        component = match["component"]
        components.add(component)
        keys = set(payload)
        assert keys <= COMMON | PLATFORM[component], (name, keys - COMMON - PLATFORM[component])
        assert REQUIRED[component] <= keys, name
        assert set(payload["device"]) <= DEVICE and payload["device"]["identifiers"]
        assert set(payload["origin"]) <= ORIGIN and payload["origin"]["name"]
        assert payload["unique_id"].startswith("tinker_tray_kitchen_")
        if "device_class" in payload:
            assert payload["device_class"] in DEVICE_CLASSES[component]
        json.dumps(payload)
    assert components == {"event", "sensor", "button"}
    unique = [p["unique_id"] for p in configs.values()]
    assert len(unique) == len(set(unique))


def test_one_device_per_table_with_a_sensor_per_player():
    configs = discovery.configs("kitchen", "homeassistant", ["Ann", "Bo"], can_press=False)
    assert {p["device"]["identifiers"][0] for p in configs.values()} == {"tinker_tray_kitchen"}
    scores = [p for n, p in configs.items() if "/score_" in n]
    assert [p["name"] for p in scores] == ["Score Ann", "Score Bo"]
    assert all(p["state_topic"] == topics.topic("kitchen", topics.SCORES) for p in scores)
    assert scores[0]["value_template"] == '{{ value_json.totals["Ann"] }}'
    assert not any("/button/" in n for n in configs)  # no press command: no button


def test_the_event_and_button_match_what_the_table_publishes_and_takes():
    configs = discovery.configs("t1", "ha", [], can_press=True)
    event = configs["ha/event/tinker_tray_t1/press/config"]
    assert event["state_topic"] == "tinker-tray/t1/press" and event["event_types"] == ["press"]
    button = configs["ha/button/tinker_tray_t1/virtual_press/config"]
    assert button["command_topic"] == "tinker-tray/t1/press/set"
    assert button["payload_press"] == topics.PRESS_PAYLOAD
    assert event["availability_topic"] == "tinker-tray/t1/availability"


def test_names_that_differ_only_by_accents_stay_two_stable_entities():
    keys = [discovery.player_key(n) for n in ("Zoë", "Zoé", "Zoe", "zoe", "Ann-Marie", "Ωmega")]
    assert keys[2] == keys[3] == "zoe" and keys[4] == "ann_marie"
    assert keys[0].startswith("zoe_") and keys[1].startswith("zoe_") and keys[0] != keys[1]
    assert keys[5].startswith("mega_") or keys[5].startswith("player_")
    alone = discovery.configs("k", "ha", ["Zoë", "Bo"], can_press=False)
    both = discovery.configs("k", "ha", ["Bo", "Zoé", "Zoë"], can_press=False)
    assert f"ha/sensor/tinker_tray_k/score_{keys[0]}/config" in alone
    assert f"ha/sensor/tinker_tray_k/score_{keys[0]}/config" in both  # Zoë keeps her entity
    assert f"ha/sensor/tinker_tray_k/score_{keys[1]}/config" in both


def test_the_device_links_to_the_scoreboard_and_a_winner_sensor_says_who_won():
    configs = discovery.configs("k", "ha", ["Ann"], can_press=False, url="http://10.0.0.5:8080")
    assert {p["device"]["configuration_url"] for p in configs.values()} == {"http://10.0.0.5:8080"}
    winner = configs["ha/sensor/tinker_tray_k/winner/config"]
    assert winner["state_topic"] == "tinker-tray/k/winner"
    assert "nobody yet" in winner["value_template"]
    bare = discovery.configs("k", "ha", ["Ann"], can_press=False)
    assert not any("configuration_url" in p["device"] for p in bare.values())
