"""`tinker-tray run`: the tray service on real pins (a Pi), a USB tray, or else the emulator."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cli.arguments import at_least, seconds
from cli.commands.display import add_network_arguments
from tray import config as tray_config

log = logging.getLogger("tinker-tray")


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    """Options shared by `run` and `emulate`."""
    parser.add_argument("--config", metavar="FILE",
                        help="pin map and settings (default: $TINKER_TRAY_CONFIG, then "
                             "/etc/tinker-tray/pinmap.toml, then the packaged default)")
    parser.add_argument("--web", action=argparse.BooleanOptionalAction, default=True,
                        help="serve the score display (default: on)")
    add_network_arguments(parser)
    parser.add_argument("--journal", type=Path, default=None,
                        help="the display's SQLite journal (default: $STATE_DIRECTORY or "
                             "~/.local/state/tinker-tray/journal.sqlite3)")
    parser.add_argument("--presses", type=at_least(0), metavar="N",
                        help="emulator: press the button N times, then stop (scripted runs)")
    parser.add_argument("--seconds", type=seconds, metavar="S",
                        help="emulator: stop after S seconds (scripted runs)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug details")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common_arguments(parser)
    parser.add_argument("--serial", nargs="?", const="auto", metavar="PORT|auto",
                        help="use a USB microcontroller tray (default port: auto-detect)")


def setup_logging(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
                        stream=sys.stderr)


def load_config(args: argparse.Namespace) -> tray_config.Config | None:
    path = args.config or tray_config.default_path()
    try:
        return tray_config.load(path)
    except tray_config.ConfigError as exc:
        print(f"tinker-tray: the pin map is not usable; no pin was touched.\n{exc}",
              file=sys.stderr)
        return None


def open_serial_tray(port: str, *, emulate: bool) -> Any:
    """The USB tray from `firmware_bridge`, imported only when asked for; None if unavailable."""
    try:
        from firmware_bridge import open_tray
        from firmware_bridge.cli import port_problem
    except ImportError as exc:
        print(f"tinker-tray: --serial needs the firmware_bridge package, which is not "
              f"available here ({exc}).", file=sys.stderr)
        return None
    if not emulate and (problem := port_problem(port)):
        print(f"tinker-tray: --serial: {problem}", file=sys.stderr)
        return None
    return open_tray(port, emulate=emulate)


class StartError(Exception):
    """The service cannot start as asked (the display's port in use, its journal unusable):
    the message says why, and nothing was left running."""


def attach_display(
    service: Any, bus: Any, args: argparse.Namespace, *, virtual_button: bool = False
) -> Callable[[], None]:
    """Serve the score display beside the service (unless --no-web); returns what closes it.

    The display reads the same bus, so every pick reaches the open pages, and it gets the
    service's show settings: the pages show a pick once the lights have settled on it, and the
    virtual tray plays the same show. In the emulator the page also gets a virtual Tinker Bell
    button that presses through the service's own path.
    A display that cannot start (port in use, a journal it must not touch) is a StartError:
    the person asked for it, and a tray whose scoreboard silently went missing is worse than a
    message saying to choose another port (or --no-web).
    """
    if not getattr(args, "web", False):
        return lambda: None
    from cli.commands.display import DisplayError, default_journal, start_display

    journal = args.journal or default_journal()
    try:
        display = start_display(
            bus, journal, args.host, args.port,
            press=service.press if virtual_button else None,
            show=service.settings.show,
            mdns=getattr(args, "mdns", True),
        )
    except DisplayError as exc:
        message = f"the score display cannot start: {exc}; or run without it: --no-web"
        raise StartError(message) from None
    for line in display.lines(journal):
        if not line.startswith("warning:"):
            log.info(line)
    if display.warning:
        log.warning(display.warning)
    return display.close


def start_service(
    tray: Any,
    config: tray_config.Config,
    args: argparse.Namespace,
    bus: Any,
    *,
    virtual_button: bool = False,
) -> tuple[Any, Callable[[], None]]:
    """The service on `tray`, started, with the display attached: (service, close_display).

    The display starts first, so a port in use stops everything before a pin is driven. If
    either cannot start, the tray is closed (pins released) before the error goes on."""
    from tray.pick import Picker
    from tray.service import TrayService

    service = TrayService(tray, bus, Picker(seed=config.seed), config)
    try:
        close_display = attach_display(service, bus, args, virtual_button=virtual_button)
    except BaseException:
        tray.close()
        raise
    try:
        service.start()
    except BaseException:
        close_display()
        tray.close()
        raise
    return service, close_display


def serve(tray: Any, config: tray_config.Config, args: argparse.Namespace) -> int:
    """Run the service headless until SIGINT/SIGTERM, logging every pick."""
    from tray.bus import Bus
    from tray.events import Fault, Pick

    bus = Bus()
    bus.subscribe(lambda e: log.info("pick #%d: %s (%s)", e.seq, e.colour, e.source), Pick)
    bus.subscribe(lambda e: log.warning("fault %s: %s", e.kind, e.message), Fault)
    try:
        service, close_display = start_service(tray, config, args, bus)
    except StartError as exc:
        print(f"tinker-tray: {exc}", file=sys.stderr)
        return 1
    try:
        service.run_forever(ready=lambda: log.info(
            "tray ready on %s: tap the Tinker Bell button (Ctrl-C to stop)", tray.name))
    finally:
        close_display()
    return 0


def run(args: argparse.Namespace) -> int:
    setup_logging(args)
    config = load_config(args)
    if config is None:
        return 2
    if args.serial:
        tray = open_serial_tray(args.serial, emulate=False)
        return 2 if tray is None else serve(tray, config, args)

    from tray.devices import NoGpio, make_pin_factory

    if config.pin_factory != "mock":
        try:
            factory = make_pin_factory(config.pin_factory)
        except NoGpio as exc:
            print(f"tinker-tray: {exc}.\nThis does not look like a Raspberry Pi: running the "
                  "emulator instead (`tinker-tray emulate`).", file=sys.stderr)
        else:
            from tray.gpio_tray import GpioTray

            return serve(GpioTray(config, pin_factory=factory), config, args)
    from cli.commands import emulate

    return emulate.emulate(config, args)
