"""Many tables: MQTT to a real broker, Home Assistant discovery, and the club's leaderboard.

Imported only when MQTT is asked for (`--mqtt`, an [mqtt] section, `tinker-tray club`): a tray
without it never loads paho-mqtt. It may read the tray's events, bus and config and the
scoreboard's session and static files; tray/, scoreboard/ and digital/ never import it.

- `club.link`: one MQTT connection with a last will, reconnect with backoff and a bounded queue
  of what the broker has not taken yet.
- `club.topics`: the topic names and payloads a table publishes (one place, docs/mqtt.md).
- `club.publisher`: a table's events, settled picks and scores onto the link.
- `club.discovery`: Home Assistant's MQTT discovery configs for a table.
- `club.board`, `club.journal`, `club.web`: the club's leaderboard across tables.
"""
