"""`tinker-tray club --mqtt URL`: every table on one page, from the broker (docs/mqtt.md)."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from pathlib import Path

from cli.arguments import port_number
from cli.commands.display import default_journal, public_url


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--mqtt",
        metavar="URL",
        required=True,
        help="the broker the tables publish to: mqtt://host:1883 or mqtts://host:8883",
    )
    parser.add_argument("--username", help="the broker user (if it wants one)")
    password = parser.add_mutually_exclusive_group()
    password.add_argument(
        "--password-file",
        metavar="FILE",
        help="read the broker password from FILE (its first line)",
    )
    password.add_argument(
        "--password-env",
        metavar="NAME",
        help="read the broker password from environment variable NAME",
    )
    parser.add_argument("--ca-file", metavar="FILE", help="the CA certificate for mqtts://")
    parser.add_argument(
        "--journal",
        type=Path,
        default=default_journal().with_name("club.sqlite3"),
        help="the club's own SQLite journal (default: %(default)s)",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to serve on (default: %(default)s; 0.0.0.0 for the LAN)",
    )
    parser.add_argument("--port", type=port_number, default=8090, help="default: %(default)s")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug details")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    from club.link import Broker, LinkError
    from club.service import ClubService

    try:
        broker = Broker.from_url(
            args.mqtt,
            username=args.username,
            password_file=args.password_file,
            password_env=args.password_env,
            ca_file=args.ca_file,
        )
        club = ClubService(broker, args.journal).start(args.host, args.port)
    except LinkError as exc:
        print(f"tinker-tray club: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"tinker-tray club: cannot serve on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 1
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    url = public_url(args.host, club.port)
    print(
        f"club:    {url}/   (every table, live)\n"
        f"a table: {url}/table/NAME   (read-only, for spectators)\n"
        f"journal: {args.journal}",
        flush=True,
    )
    try:
        stop.wait()
    finally:
        club.close()
    return 0
