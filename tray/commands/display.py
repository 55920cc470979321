"""`tinker-tray display`: the scoring display on its own (web, and optionally the terminal).

Prints the table's token and the addresses to open. The app itself comes from
`tray.display.web.create_app`, which the tray service can serve the same way.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from pathlib import Path


def default_journal() -> Path:
    state = os.environ.get("STATE_DIRECTORY") or os.environ.get("XDG_STATE_HOME")
    base = Path(state) if state else Path.home() / ".local" / "state"
    return base / "tinker-tray" / "journal.sqlite3"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--journal", type=Path, default=default_journal(),
                        help="the SQLite journal of games (default: %(default)s)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to serve on (default: %(default)s, this machine only; "
                             "0.0.0.0 serves the phones on the LAN)")
    parser.add_argument("--port", type=int, default=8000, help="default: %(default)s")
    parser.add_argument("--url", help="the address phones should open, for the QR code "
                                      "(default: from --host and --port)")
    parser.add_argument("--terminal", action="store_true",
                        help="also draw the scores in this terminal (for a Pi's HDMI console)")


def public_url(host: str, port: int) -> str:
    if host in ("0.0.0.0", "::"):
        host = f"{socket.gethostname()}.local"  # mDNS name: what a Raspberry Pi answers to
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def run(args: argparse.Namespace) -> int:
    from tray.bus import Bus
    from tray.display.server import ServerThread, bind
    from tray.display.web import create_app
    from tray.journal import Journal, JournalError

    try:
        journal = Journal(args.journal)
    except JournalError as exc:
        print(f"tinker-tray display: {exc}", file=sys.stderr)
        return 1
    token = journal.token()
    url = args.url or public_url(args.host, args.port)
    bus = Bus()
    app = create_app(journal, bus, token, public_url=url)
    try:
        sock = bind(args.host, args.port)
    except OSError as exc:
        print(f"tinker-tray display: cannot serve on {args.host}:{args.port}: {exc}",
              file=sys.stderr)
        return 1
    print(f"journal:    {args.journal}")
    print(f"scoreboard: {url}/?token={token}   (the kiosk: shows the QR code for phones)")
    print(f"entry page: {url}/enter?token={token}")
    print(f"read-only:  {url}/")
    print(f"token:      {token}")
    sys.stdout.flush()
    server = ServerThread(app, sock, log_level="warning").start()
    try:
        if args.terminal:
            from tray.display.terminal import run_live

            run_live(app.state.session, bus)
        else:
            server.thread.join()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        journal.close()
    return 0
