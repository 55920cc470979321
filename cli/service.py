"""The tray service as `run` and `emulate` start it: their shared options, the pin map read, a
USB tray opened, and the service started with the score display (`cli.commands.display`) and
MQTT (`cli.mqtt`) attached, or a `StartError` saying why not.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cli.arguments import at_least, seconds
from cli.commands.display import add_network_arguments
from cli.files import DEFAULT_JOURNAL, default_journal
from cli.mqtt import add_mqtt_arguments, attach_mqtt, open_mqtt
from tray import config as tray_config

log = logging.getLogger("tinker-tray")


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    """Options shared by `run` and `emulate`."""
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="pin map and settings (default: $TINKER_TRAY_CONFIG, then "
        "/etc/tinker-tray/pinmap.toml, then the packaged default)",
    )
    parser.add_argument(
        "--web",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="serve the score display (default: on)",
    )
    add_network_arguments(parser)
    parser.add_argument(
        "--journal",
        type=Path,
        default=None,
        help=f"the display's SQLite journal (default: {DEFAULT_JOURNAL})",
    )
    parser.add_argument(
        "--presses",
        type=at_least(0),
        metavar="N",
        help="emulator: press the button N times, then stop (scripted runs)",
    )
    parser.add_argument(
        "--seconds",
        type=seconds,
        metavar="S",
        help="emulator: stop after S seconds (scripted runs)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug details")
    add_mqtt_arguments(parser)


def setup_logging(args: argparse.Namespace) -> None:
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )


def load_config(args: argparse.Namespace) -> tray_config.Config | None:
    path = args.config or tray_config.default_path()
    try:
        return tray_config.load(path)
    except tray_config.ConfigError as exc:
        print(
            f"tinker-tray: the pin map is not usable; no pin was touched.\n{exc}", file=sys.stderr
        )
        return None


def open_serial_tray(port: str, *, emulate: bool) -> Any:
    """The USB tray from `firmware_bridge`, imported only when asked for; None if unavailable."""
    try:
        from cli.commands.bridge import port_problem
        from firmware_bridge import open_tray
    except ImportError as exc:
        print(
            f"tinker-tray: --serial needs the firmware_bridge package, which is not "
            f"available here ({exc}).",
            file=sys.stderr,
        )
        return None
    if not emulate and (problem := port_problem(port)):
        print(f"tinker-tray: --serial: {problem}", file=sys.stderr)
        return None
    return open_tray(port, emulate=emulate)


class StartError(Exception):
    """The service cannot start as asked (the display's port in use, its journal unusable):
    the message says why, and nothing was left running."""


@dataclasses.dataclass(frozen=True)
class AttachedDisplay:
    close: Callable[[], None]
    session: Any = None  # the display's table session; None without a display
    url: str | None = None  # where the phones open it


def attach_display(
    service: Any, bus: Any, args: argparse.Namespace, *, virtual_button: bool = False
) -> Callable[[], None]:
    """`attach_display_session`'s closer alone."""
    return attach_display_session(service, bus, args, virtual_button=virtual_button).close


def attach_display_session(
    service: Any, bus: Any, args: argparse.Namespace, *, virtual_button: bool = False
) -> AttachedDisplay:
    """Serve the score display beside the service (unless --no-web): what closes it, its
    table session and its address (no session nor address without a display).

    The display reads the same bus, so every pick reaches the open pages, and it gets the
    service's show settings: the pages show a pick once the lights have settled on it, and the
    virtual tray plays the same show. In the emulator the page also gets a virtual Tinker Bell
    button that presses through the service's own path.
    A display that cannot start (port in use, a journal it must not touch) is a StartError:
    the person asked for it, and a tray whose scoreboard silently went missing is worse than a
    message saying to choose another port (or --no-web).
    """
    if not getattr(args, "web", False):
        return AttachedDisplay(lambda: None)
    from cli.commands.display import DisplayError, start_display

    journal = args.journal or default_journal()
    try:
        display = start_display(
            bus,
            journal,
            args.host,
            args.port,
            press=service.press if virtual_button else None,
            tray_press=service.press,  # a bot presses Tinker Bell: the tray's lights spin
            show=service.settings.show,
            mdns=getattr(args, "mdns", None),
            link=link_hint(service, emulated=virtual_button),
        )
    except DisplayError as exc:
        why = str(exc)  # a clause, or whole sentences ("...: locked. It was left as it was.")
        if why.endswith("."):
            why += " Or run without it: --no-web."
        else:
            why += "; or run without it: --no-web"
        message = f"the score display cannot start: {why}"
        raise StartError(message) from None
    for line in display.lines(journal):
        if not line.startswith("warning:"):
            log.info(line)
    if display.warning:
        log.warning(display.warning)
    return AttachedDisplay(display.close, display.session, display.url)


def link_hint(service: Any, *, emulated: bool) -> str | None:
    """How this tray's button opens the display's pairing window, for the start-up lines; None
    where it cannot (a USB tray's firmware reports only its own hold)."""
    capabilities = getattr(service.tray, "capabilities", None)
    if getattr(capabilities, "link_hold", False) is not True:
        return None
    from tray.press import link_seconds

    seconds = f"{link_seconds(service.settings.button.hold_s):g} s"
    if emulated:
        return f"press l in the emulator (its button held {seconds})"
    return f"hold the Tinker Bell button on the tray for {seconds}"


def start_service(
    tray: Any,
    config: tray_config.Config,
    args: argparse.Namespace,
    bus: Any,
    *,
    virtual_button: bool = False,
) -> tuple[Any, Callable[[], None]]:
    """The service on `tray`, started, with the display (and MQTT, if asked) attached:
    (service, close_display).

    MQTT's address and the display's port are checked first, so a bad address or a port in use
    stops everything before a pin is driven. If anything cannot start, the tray is closed (pins
    released) and what did start is stopped before the error goes on."""
    from tray.pick import Picker
    from tray.service import TrayService

    try:
        mqtt = open_mqtt(config, args)  # before the service: a bad address starts nothing
    except BaseException:
        tray.close()
        raise
    service = TrayService(tray, bus, Picker(seed=config.seed), config)
    try:
        display = attach_display_session(service, bus, args, virtual_button=virtual_button)
    except BaseException:
        tray.close()
        if mqtt is not None:
            mqtt[1].stop()
        raise
    close_display = display.close
    try:
        close_mqtt, session = attach_mqtt(
            mqtt, config, args, bus, display.session, press=service.press, url=display.url
        )
    except BaseException:
        close_display()
        tray.close()
        if mqtt is not None:
            mqtt[1].stop()
        raise
    if session is not None and (last := session.table.last_pick) is not None:
        service.picker.continue_after(last.seq)  # the journal's numbers run on
    try:
        service.start()
    except BaseException:
        close_mqtt()
        close_display()
        tray.close()
        raise

    def close() -> None:
        close_mqtt()
        close_display()

    return service, close
