"""`tinker-tray display`: the scoring display on its own (web, and optionally the terminal).

Prints the table's token and the addresses to open. The app itself comes from
`scoreboard.web.create_app`, which the tray service can serve the same way.
"""

from __future__ import annotations

import argparse
import dataclasses
import errno
import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cli import network
from cli.arguments import port_number
from cli.files import DEFAULT_JOURNAL, default_journal
from cli.network import DEFAULT_HOST, DEFAULT_PORT, MDNS_NAME

if TYPE_CHECKING:
    import threading

    from tray.config import ShowSettings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--journal",
        type=Path,
        default=None,
        help=f"the SQLite journal of games (default: {DEFAULT_JOURNAL})",
    )
    add_network_arguments(parser)
    parser.add_argument(
        "--url",
        help="the address phones should open, for the QR code "
        "(default: this machine's LAN address and --port)",
    )
    parser.add_argument(
        "--terminal",
        action="store_true",
        help="also draw the scores in this terminal (for a Pi's HDMI console)",
    )
    from cli.mqtt import add_mqtt_arguments

    add_mqtt_arguments(parser)


def add_network_arguments(parser: argparse.ArgumentParser) -> None:
    """--host, --port and --mdns: the same defaults for `run`, `emulate` and `display`."""
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help="address to serve on (default: %(default)s, every interface, so the "
        "phones at the table can open it; 127.0.0.1: this machine only)",
    )
    parser.add_argument(
        "--port", type=port_number, default=DEFAULT_PORT, help="display port (default: %(default)s)"
    )
    parser.add_argument(
        "--mdns",
        action=argparse.BooleanOptionalAction,
        default=network.mdns_default(),
        help=f"answer to {MDNS_NAME}.local on the LAN (default: on; "
        "TINKER_TRAY_MDNS=0 turns it off)",
    )


def public_url(host: str, port: int) -> str:
    """The address to print for a page served on host:port: the LAN address when serving
    every interface (see `cli.network.addresses`)."""
    return network.addresses(host, port).url


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
    mdns_url: str | None = None
    """http://tinker-tray.local:PORT once announced on the LAN."""
    warning: str | None = None
    """Why phones may not reach it (only loopback), if so."""
    link: str | None = None
    """How to open the pairing window ("hold the Tinker Bell button for 3 s"); None: no tray
    button here, so no pairing."""
    withdraw: Callable[[], None] = lambda: None

    def lines(self, journal_path: Path) -> list[str]:
        url, token = self.url, self.token
        lines = [
            f"journal:    {journal_path}",
            f"scoreboard: {url}/?token={token}   (the kiosk: shows the QR code for phones)",
            f"entry page: {url}/enter?token={token}",
            f"play:       {url}/play?new=1&token={token}   (digital play against bots)",
            f"read-only:  {url}/",
            f"token:      {token}",
        ]
        if self.virtual_tray:
            lines.insert(4, f"tray:       {url}/tray?token={token}   (the virtual button)")
        if self.mdns_url:
            lines.insert(5 + self.virtual_tray, f"phones:     {self.mdns_url}/ also opens it")
        if self.link:
            lines.insert(
                -1,
                f"host link:  {self.link}, then scan the QR code on the scoreboard (or open "
                f"{url}/pair) within a minute: that phone becomes host (one phone per hold)",
            )
        if self.warning:
            lines.append(f"warning:    {self.warning}")
        if getattr(self.journal, "unwritable", None):  # read as it stands; the pages say it too
            lines.insert(1, f"not saving: {self.journal.unwritable}")
        return lines

    def close(self) -> None:
        self.withdraw()
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
    mdns: bool | None = None,
    link: str | None = None,
    tray_press: Callable[[], None] | None = None,
) -> Display:
    """Open the journal and serve the display app on host:port in a background thread.

    `show`: the tray's `ShowSettings`, so the pages wait for its lights to settle before they
    show a pick, and the virtual tray plays the same show (None: no tray, picks show at once).
    `mdns`: answer to tinker-tray.local when serving the LAN (None: unless TINKER_TRAY_MDNS=0).
    `link`: how this tray's button opens the pairing window, for the start-up lines (None: no
    button that can). `tray_press`: the tray's own press, with which digital play's bots press
    Tinker Bell for their cards (default: `press`)."""
    from cli.app import create_app
    from scoreboard.server import ServerThread

    journal, sock = _opened(journal_path, host, port)
    port = sock.getsockname()[1]  # the port given, or the free one chosen for port 0
    found = network.addresses(host, port, url)
    journal.describe_owner(found.url)  # named to a second service on this journal
    app = create_app(
        journal,
        bus,
        journal.token(),
        press=press,
        public_url=found.url,
        show=show,
        tray_press=tray_press,
    )
    server = ServerThread(app, sock, log_level="warning").start()
    display = Display(
        journal,
        server,
        app.state.session,
        found.url,
        journal.token(),
        virtual_tray=press is not None,
        warning=found.warning,
        link=link,
    )
    if (network.mdns_default() if mdns is None else mdns) and found.ip is not None:
        display.withdraw = network.announce(found.ip, port)
        display.mdns_url = network.mdns_url(port)
    return display


def _opened(journal_path: Path, host: str, port: int) -> tuple[Any, Any]:
    """(the journal, held by this service alone, and the socket bound to host:port), or
    DisplayError saying which could not be had (and nothing left open)."""
    from scoreboard.journal import Journal, JournalError
    from scoreboard.server import bind

    try:
        journal = Journal(journal_path, exclusive=True)  # a second service is refused
    except JournalError as exc:
        raise DisplayError(str(exc)) from None
    except OSError as exc:
        raise DisplayError(f"cannot open the journal {journal_path}: {_reason(exc)}") from None
    try:
        return journal, bind(host, port)
    except OSError as exc:
        journal.close()
        raise DisplayError(f"cannot serve on {host}:{port}: {_reason(exc)}") from None


def _reason(exc: OSError) -> str:
    """An OSError in words: "address already in use", not "[Errno 98] Address already in use"."""
    if exc.errno == errno.EADDRINUSE:
        return "the port is in use (another tinker-tray? choose another with --port)"
    if exc.errno == errno.EACCES:
        return "permission denied (ports below 1024 need root; choose another with --port)"
    if exc.errno == errno.EADDRNOTAVAIL:
        return "this machine has no such address (see --host)"
    return (exc.strerror or str(exc)).lower() if exc.strerror else str(exc)


def _nothing() -> None:
    pass


class VirtualButton:
    """The Tinker Bell button of a display with no tray (on the scoreboard, the entry page, the
    virtual tray and in digital play): each press publishes a fair pick (`tray.pick.Picker`)
    on the bus, stamped with its light show as the tray service stamps its own (`shown_at`,
    `settles_at`), and `PickSettled` when the show lands, so the virtual tray plays the show
    and every page names the colour only then. A press while the lights still spin is ignored,
    as on the tray: a double tap picks once. Sequence numbers carry on from the journal's."""

    def __init__(self, bus: Any, show: ShowSettings, clock: Callable[[], float] | None = None):
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


def _serve_until_stopped(server: threading.Thread) -> None:
    """Until SIGINT or SIGTERM (or the server ends by itself). The signals only write to a pipe
    (`tray.signals`), then are ignored, so a KeyboardInterrupt never lands half-way through
    closing the display, and SIGTERM closes it as cleanly as Ctrl-C."""
    from tray.signals import StopSignals

    with StopSignals(then_ignore=True) as stops:
        while server.is_alive() and not stops.wait(0.5):
            pass


def run(args: argparse.Namespace) -> int:
    from cli.mqtt import attach_mqtt, open_mqtt
    from tray import config as tray_config
    from tray.bus import Bus

    args.journal = args.journal or default_journal()
    bus = Bus()
    settings = tray_config.load().show  # the packaged tray's show: what a real tray would play
    button = VirtualButton(bus, settings)  # no tray here: the pages offer the button
    try:
        mqtt = open_mqtt(None, args)  # None without --mqtt; one line and exit 2 if unusable
    except SystemExit as exc:
        return int(exc.code or 2)
    try:
        display = start_display(
            bus,
            args.journal,
            args.host,
            args.port,
            url=args.url,
            press=button,
            show=settings,
            mdns=args.mdns,
        )
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
        close_mqtt, _session = attach_mqtt(
            mqtt, None, args, bus, display.session, press=None, url=display.url
        )
        if args.terminal:
            from scoreboard.terminal import run_live

            run_live(display.session, bus)
        else:
            _serve_until_stopped(display.server.thread)
    except KeyboardInterrupt:
        pass
    finally:
        close_mqtt()
        display.close()
    return 0
