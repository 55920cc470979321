"""Home Assistant's MQTT discovery for one table: one device, its entities, retained configs.

Each entity is announced on its own topic, `<prefix>/<component>/<node>/<object>/config`
(Home Assistant's single-component discovery), with only keys from Home Assistant's documented
schemas (tests/club/test_discovery.py checks them):

- event   `press`      the Tinker Bell button was pressed (event type "press");
- sensor  `last_pick`  the last settled pick's colour, its JSON as attributes;
- sensor  `leader`     who leads the current game;
- sensor  `winner`     who won the current game ("nobody yet" until it is over);
- sensor  `score_<player>`  one per player of the current game;
- button  `virtual_press`  a virtual press, only when the table allows it (allow_press).

What was announced is remembered in a small file beside the journal, so when the table is
renamed or the players change, the configs no longer wanted are cleared (an empty retained
message makes Home Assistant remove the entity).
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

from club import topics


def version() -> str:
    try:
        return metadata.version("tinker-tray")
    except metadata.PackageNotFoundError:  # running from a checkout that is not installed
        return "0"


def node_id(table: str) -> str:
    return f"tinker_tray_{table}"


def player_key(name: str) -> str:
    """A player's name as an object id (lower case letters, digits and _), the same for that
    name whoever else plays: transliterated (Zoë -> zoe), and where that lost something (an
    accent, a letter outside Latin) with a short digest of the exact name, so Zoë and Zoé stay
    two entities and neither takes the other's history in Home Assistant."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    key = re.sub(r"[^a-z0-9]+", "_", plain.lower()).strip("_")
    if key and plain == name:
        return key  # nothing lost
    digest = hashlib.sha1(name.encode()).hexdigest()[:4]
    return f"{key or 'player'}_{digest}"


def _device(table: str, node: str, url: str | None) -> dict[str, Any]:
    """What every entity of the table's device shares: availability, the device (with a link to
    the scoreboard, where there is one), the origin."""
    device = {
        "identifiers": [node],
        "name": f"Tinker Bell tray {table}",
        "manufacturer": "tinker-tray",
        "model": "Tinker Bell game tray",
        "sw_version": version(),
    }
    if url:
        device["configuration_url"] = url
    return {
        "availability_topic": topics.topic(table, topics.AVAILABILITY),
        "payload_available": topics.ONLINE,
        "payload_not_available": topics.OFFLINE,
        "device": device,
        "origin": {"name": "tinker-tray", "sw_version": version()},
    }


Entity = Callable[..., tuple[str, dict[str, Any]]]
"""(component, object id, **fields) -> (config topic, payload), bound to one table's device."""


def _scores(table: str, players: list[str], entity: Entity) -> list[tuple[str, dict[str, Any]]]:
    """One score sensor per player (two players of one name get their seat in the id)."""
    entries = []
    seen: set[str] = set()
    for seat, name in enumerate(players):
        key = player_key(name)
        if key in seen:
            key = f"{key}_{seat + 1}"
        seen.add(key)
        entries.append(
            entity(
                "sensor",
                f"score_{key}",
                name=f"Score {name}",
                state_topic=topics.topic(table, topics.SCORES),
                value_template=f"{{{{ value_json.totals[{json.dumps(name)}] }}}}",
                state_class="measurement",
                unit_of_measurement="points",
                icon="mdi:counter",
            )
        )
    return entries


def _table_entities(table: str, entity: Entity) -> list[tuple[str, dict[str, Any]]]:
    """The entities every table has, whoever plays: its button, last pick, leader, winner."""
    return [
        entity(
            "event",
            "press",
            name="Button press",
            state_topic=topics.topic(table, topics.PRESS),
            event_types=["press"],
            device_class="button",
            icon="mdi:gesture-tap-button",
        ),
        entity(
            "sensor",
            "last_pick",
            name="Last pick",
            state_topic=topics.topic(table, topics.PICK),
            value_template="{{ value_json.colour }}",
            json_attributes_topic=topics.topic(table, topics.PICK),
            icon="mdi:creation",
        ),
        entity(
            "sensor",
            "leader",
            name="Leader",
            state_topic=topics.topic(table, topics.LEADER),
            icon="mdi:trophy",
        ),
        entity(
            "sensor",
            "winner",
            name="Winner",
            state_topic=topics.topic(table, topics.WINNER),
            value_template=(
                "{{ (value_json.names | join(' and '))[:255] if value_json.names "
                f"else '{topics.NOBODY}' }}}}"
            ),
            json_attributes_topic=topics.topic(table, topics.WINNER),
            icon="mdi:crown",
        ),
    ]


def configs(
    table: str, prefix: str, players: list[str], *, can_press: bool, url: str | None = None
) -> dict[str, dict[str, Any]]:
    """topic -> discovery payload for every entity of `table`'s device (`url`: the scoreboard,
    the device page's link)."""
    node = node_id(table)
    common = _device(table, node, url)

    def entity(component: str, obj: str, **fields: Any) -> tuple[str, dict[str, Any]]:
        return (
            f"{prefix}/{component}/{node}/{obj}/config",
            {"unique_id": f"{node}_{obj}", **fields, **common},
        )

    entries = _table_entities(table, entity) + _scores(table, players, entity)
    if can_press:
        entries.append(
            entity(
                "button",
                "virtual_press",
                name="Press Tinker Bell",
                command_topic=topics.topic(table, topics.PRESS_COMMAND),
                payload_press=topics.PRESS_PAYLOAD,
                icon="mdi:creation",
            )
        )
    return dict(entries)


class Announced:
    """The discovery topics this tray has announced (a JSON file), to clear the stale ones."""

    def __init__(self, path: Path | None):
        self.path = path
        self.topics: set[str] = set()
        if path is not None:
            try:
                self.topics = set(json.loads(path.read_text(encoding="utf-8")))
            except (OSError, ValueError, TypeError):
                self.topics = set()

    def replace(self, current: set[str]) -> set[str]:
        """Remember `current`; return the topics announced before and no longer wanted."""
        stale = self.topics - current
        self.topics = set(current)
        if self.path is not None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                tmp = self.path.with_suffix(".tmp")
                tmp.write_text(json.dumps(sorted(current), indent=1), encoding="utf-8")
                tmp.replace(self.path)
            except OSError:
                pass  # stale configs then linger in Home Assistant: nothing at the table breaks
        return stale
