"""`tinker-tray display`: the scoring display on its own (web, and optionally the terminal).

Prints the table's token and the addresses to open. The app itself comes from
`scoreboard.web.create_app`, which the tray service can serve the same way.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import os
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tray.config import ShowSettings


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
    from cli.commands.run import add_mqtt_arguments

    add_mqtt_arguments(parser)


def public_url(host: str, port: int) -> str:
    if host in ("0.0.0.0", "::"):
        host = f"{socket.gethostname()}.local"  # mDNS name: what a Raspberry Pi answers to
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


class DisplayError(Exception):
    """The display could not start (a journal it must not touch, a port in use)."""


@dataclasses.dataclass
class Display:
    """A running web display: its journal, its server thread and what to tell the table."""

    journal: Any
    server: Any
    session: Any
    url: str
    token: str
    virtual_tray: bool = False

    def lines(self, journal_path: Path) -> list[str]:
        url, token = self.url, self.token
        lines = [
            f"journal:    {journal_path}",
            f"scoreboard: {url}/?token={token}   (the kiosk: shows the QR code for phones)",
            f"entry page: {url}/enter?token={token}",
            f"read-only:  {url}/",
            f"token:      {token}",
        ]
        if self.virtual_tray:
            lines.insert(3, f"tray:       {url}/tray?token={token}   (the virtual button)")
        return lines

    def close(self) -> None:
        self.server.stop()
        self.journal.close()


def start_display(
    bus: Any,
    journal_path: Path,
    host: str,
    port: int,
    *,
    press: Callable[[], None] | None = None,
    url: str | None = None,
    show: ShowSettings | None = None,
) -> Display:
    """Open the journal and serve the display app on host:port in a background thread.

    `show`: the tray's `ShowSettings`, so the pages wait for its lights to settle before they
    show a pick, and the virtual tray plays the same show (None: no tray, picks show at once)."""
    from cli.app import create_app
    from scoreboard.journal import Journal, JournalError
    from scoreboard.server import ServerThread, bind

    try:
        journal = Journal(journal_path)
    except JournalError as exc:
        raise DisplayError(str(exc)) from None
    token = journal.token()
    url = url or public_url(host, port)
    app = create_app(journal, bus, token, press=press, public_url=url, show=show)
    try:
        sock = bind(host, port)
    except OSError as exc:
        journal.close()
        raise DisplayError(f"cannot serve on {host}:{port}: {exc}") from None
    server = ServerThread(app, sock, log_level="warning").start()
    return Display(journal, server, app.state.session, url, token, virtual_tray=press is not None)


def _nothing() -> None:
    pass


class VirtualButton:
    """The Tinker Bell button of a display with no tray (on the scoreboard, the entry page, the
    virtual tray and in digital play): each press publishes a fair pick (`tray.pick.Picker`)
    on the bus, stamped with its light show as the tray service stamps its own (`shown_at`,
    `settles_at`), and `PickSettled` when the show lands, so the virtual tray plays the show
    and every page names the colour only then. A press while the lights still spin is ignored,
    as on the tray: a double tap picks once. Sequence numbers carry on from the journal's."""

    def __init__(self, bus: Any, show: ShowSettings,
                 clock: Callable[[], float] | None = None):
        import threading
        import time

        self.bus, self.show = bus, show
        self.clock = clock or time.monotonic  # the clock `Pick.settles_at` is on
        self.session: Any = None  # the display's table session, once it runs
        self._picker: Any = None
        self._last: Any = None
        self._lock = threading.Lock()

    def __call__(self) -> None:
        import dataclasses
        import threading

        from tray import show as light_show
        from tray.events import PickSettled
        from tray.pick import Picker

        with self._lock:
            if self.session is None:
                return
            if self._last is not None and self.clock() < self._last.settles_at:
                return  # the lights are still spinning for the last press
            if self._picker is None:
                last = self.session.table.last_pick
                self._picker = Picker(first_seq=last.seq + 1 if last is not None else 1)
            pick = self._picker.pick(source="virtual")
            now = self.clock()
            spin = light_show.spin_seconds(self.show, pick.colour, pick.lead)
            pick = self._last = dataclasses.replace(pick, shown_at=now, settles_at=now + spin)
        self.bus.publish(pick)
        landed = threading.Timer(spin, self.bus.publish, (PickSettled(pick.seq),))
        landed.daemon = True
        landed.start()


def run(args: argparse.Namespace) -> int:
    from cli.commands.run import attach_mqtt, open_mqtt
    from tray import config as tray_config
    from tray.bus import Bus

    bus = Bus()
    settings = tray_config.load().show  # the packaged tray's show: what a real tray would play
    button = VirtualButton(bus, settings)  # no tray here: the pages offer the button
    try:
        mqtt = open_mqtt(None, args)  # None without --mqtt; one line and exit 2 if unusable
    except SystemExit as exc:
        return int(exc.code or 2)
    try:
        display = start_display(bus, args.journal, args.host, args.port, url=args.url,
                                press=button, show=settings)
    except DisplayError as exc:
        print(f"tinker-tray display: {exc}", file=sys.stderr)
        if mqtt is not None:
            mqtt[1].stop()
        return 1
    button.session = display.session
    print("\n".join(display.lines(args.journal)), flush=True)
    # A Ctrl-C from here on, even while MQTT attaches, is a clean stop: the link says offline.
    close_mqtt: Callable[[], None] = _nothing
    if mqtt is not None:
        from club.table import stop_link

        close_mqtt = functools.partial(stop_link, mqtt[0].table, mqtt[1])
    try:
        close_mqtt = attach_mqtt(mqtt, None, args, bus, display.session, press=None)
        if args.terminal:
            from scoreboard.terminal import run_live

            run_live(display.session, bus)
        else:
            display.server.thread.join()
    except KeyboardInterrupt:
        pass
    finally:
        close_mqtt()
        display.close()
    return 0
