"""`tinker-tray run`: the tray service on real pins (a Pi), a USB tray, or else the emulator.

How the service starts, here and in `emulate`, is `cli.service`'s.
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any

from cli.mqtt import mqtt_settings
from cli.service import (
    StartError,
    add_common_arguments,
    attach_display,
    link_hint,
    load_config,
    open_serial_tray,
    setup_logging,
    start_service,
)
from tray import config as tray_config

__all__ = [
    "add_arguments",
    "attach_display",
    "link_hint",
    "load_config",
    "log_picks_when_settled",
    "mqtt_settings",
    "run",
    "serve",
]
"""This command, and the service's pieces by the names its callers have known them by."""

log = logging.getLogger("tinker-tray")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common_arguments(parser)
    parser.add_argument(
        "--serial",
        nargs="?",
        const="auto",
        metavar="PORT|auto",
        help="use a USB microcontroller tray (default port: auto-detect)",
    )


def log_picks_when_settled(bus: Any) -> None:
    """Log each pick once the tray's lights have landed on it (`PickSettled`): a console by the
    table (or the journal of a kiosk) must not tell the colour while the lights still spin."""
    from tray.events import Pick, PickSettled

    spinning: dict[int, Pick] = {}

    def made(pick: Pick) -> None:
        if pick.settles_at is None:  # no show: nothing to spoil
            log.info("pick #%d: %s (%s)", pick.seq, pick.colour, pick.source)
            return
        spinning[pick.seq] = pick
        log.info("pick #%d: the lights are spinning (%s)", pick.seq, pick.source)

    def landed(event: PickSettled) -> None:
        pick = spinning.pop(event.seq, None)
        if pick is not None:
            log.info("pick #%d: %s (%s)", pick.seq, pick.colour, pick.source)

    bus.subscribe(made, Pick)
    bus.subscribe(landed, PickSettled)


def serve(tray: Any, config: tray_config.Config, args: argparse.Namespace) -> int:
    """Run the service headless until SIGINT/SIGTERM, logging every pick. From the start on, a
    signal only asks for the stop (`tray.signals`): one during the start stops the service
    once it has started, and more during the stop do nothing (ignored once it is done)."""
    from tray.bus import Bus
    from tray.events import Fault
    from tray.signals import StopSignals

    bus = Bus()
    log_picks_when_settled(bus)
    bus.subscribe(lambda e: log.warning("fault %s: %s", e.kind, e.message), Fault)
    with StopSignals(then_ignore=True) as stops:
        try:
            service, close_display = start_service(tray, config, args, bus)
        except StartError as exc:
            print(f"tinker-tray: {exc}", file=sys.stderr)
            return 1
        try:
            service.run_forever(
                ready=lambda: log.info(
                    "tray ready on %s: tap the Tinker Bell button (Ctrl-C to stop)", tray.name
                ),
                stops=stops,
            )
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

    from tray.pins import NoGpio, NoGpioAccess, board_model, make_pin_factory

    if config.pin_factory != "mock":
        try:
            factory = make_pin_factory(config.pin_factory)
        except NoGpioAccess as exc:  # a Pi: the emulator would hide the real problem
            print(f"tinker-tray: {exc}", file=sys.stderr)
            return 1
        except NoGpio as exc:
            # On a laptop the missing Pi libraries are no news; on a Pi they are the news.
            fallback = "running the emulator instead (`tinker-tray emulate`)."
            if board_model() is None:
                print(
                    f"tinker-tray: not a Raspberry Pi (no GPIO pins): {fallback}", file=sys.stderr
                )
            else:
                print(f"tinker-tray: {exc}.\nNo GPIO pins on this Pi: {fallback}", file=sys.stderr)
        else:
            from tray.gpio_tray import GpioTray

            try:
                tray = GpioTray(config, pin_factory=factory)
            except Exception as exc:  # gpiozero's pin errors, lgpio.error ("GPIO busy")
                print(
                    f"tinker-tray: the tray's pins did not open ({type(exc).__name__}: {exc}); "
                    "is another program using them?",
                    file=sys.stderr,
                )
                return 1
            return serve(tray, config, args)
    from cli.commands import emulate

    return emulate.emulate(config, args)
