"""This table published on an MQTT broker (docs/mqtt.md), as `run`, `emulate` and `display`
offer it: --mqtt and --table over the settings file's [mqtt], the link opened (club, and paho
with it, imported only then) and the table's session attached to it.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cli.files import default_journal
from tray import config as tray_config

log = logging.getLogger("tinker-tray")


def add_mqtt_arguments(parser: argparse.ArgumentParser) -> None:
    """--mqtt and --table (run, emulate, display): publish this table (docs/mqtt.md)."""
    parser.add_argument(
        "--mqtt",
        metavar="URL",
        help="publish this table to an MQTT broker, mqtt://host:1883 or "
        "mqtts://host:8883 (default: the settings file's [mqtt] url)",
    )
    parser.add_argument(
        "--table",
        metavar="NAME",
        help="this table's name on MQTT (default: [mqtt] table, else 'table')",
    )


def mqtt_settings(
    config: tray_config.Config | None, args: argparse.Namespace
) -> tray_config.MqttSettings | None:
    """The [mqtt] settings with --mqtt/--table over them; None: no MQTT (nothing imported).
    Raises ValueError with one line for a bad address or table name."""
    import dataclasses
    import re

    base = config.mqtt if config is not None else None
    url, table = getattr(args, "mqtt", None), getattr(args, "table", None)
    if url is None and base is None:
        if table is not None:
            raise ValueError("--table names the table on MQTT: give --mqtt URL too")
        return None
    if url is not None and (problem := tray_config.mqtt_url_problem(url)) is not None:
        raise ValueError(f"--mqtt {problem}")
    if table is not None and not re.fullmatch(tray_config.TABLE_NAME, table):
        raise ValueError(f"--table must be letters, digits, - and _ (at most 40), not {table!r}")
    settings = base or tray_config.MqttSettings(url=url or "")
    changes = {k: v for k, v in (("url", url), ("table", table)) if v is not None}
    return dataclasses.replace(settings, **changes)


def open_mqtt(config: tray_config.Config | None, args: argparse.Namespace) -> Any:
    """(settings, started link) if MQTT is asked for, else None; club (and paho) is imported
    only then. A bad address, table name or refused credentials: one line on stderr, then
    SystemExit(2). A broker that is merely down is not an error (the link queues and retries)."""
    try:
        settings = mqtt_settings(config, args)
    except ValueError as exc:
        print(f"tinker-tray: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    if settings is None:
        return None
    from club.link import LinkError
    from club.table import open_link

    try:
        return settings, open_link(settings)
    except LinkError as exc:
        print(f"tinker-tray: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def attach_mqtt(
    opened: Any,
    config: tray_config.Config | None,
    args: argparse.Namespace,
    bus: Any,
    session: Any,
    *,
    press: Callable[[], None] | None,
    url: str | None = None,
) -> tuple[Callable[[], None], Any]:
    """Publish the table on the link `open_mqtt` gave (None: nothing); returns the closer and
    the session published. Without a web display the scoreboard's session runs headless, for
    MQTT's scores."""
    if opened is None:
        return (lambda: None), session
    from club.table import start_table

    settings, link = opened
    journal_path = Path(getattr(args, "journal", None) or default_journal())
    closers: list[Callable[[], None]] = []
    if session is None:
        from scoreboard.journal import Journal, JournalError
        from scoreboard.session import TableSession

        try:
            journal = Journal(journal_path, exclusive=True)
        except JournalError as exc:  # the tray carries on, unpublished: the lights come first
            log.warning("not publishing on MQTT: the journal did not open: %s", exc)
            link.stop()
            return (lambda: None), None
        session = TableSession(journal, bus, show=config.show if config else None)
        closers += [session.close, journal.close]
    table = start_table(
        settings, link, session, bus, press=press, state_dir=journal_path.parent, url=url
    )
    log.info(
        "publishing table %s on %s (topics under tinker-tray/%s/)",
        settings.table,
        link.broker.url,
        settings.table,
    )
    closers.insert(0, table.close)

    def close() -> None:
        for closer in closers:
            closer()

    return close, session
