"""`tinker-tray run`: the tray service on real pins (a Pi), a USB tray, or else the emulator."""

from __future__ import annotations

import argparse
import dataclasses
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cli.arguments import at_least, seconds
from cli.commands.display import DEFAULT_JOURNAL, add_network_arguments
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
    from cli.commands.display import default_journal
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


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common_arguments(parser)
    parser.add_argument(
        "--serial",
        nargs="?",
        const="auto",
        metavar="PORT|auto",
        help="use a USB microcontroller tray (default port: auto-detect)",
    )


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
    from cli.commands.display import DisplayError, default_journal, start_display

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
