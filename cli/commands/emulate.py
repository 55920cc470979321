"""`tinker-tray emulate`: the tray service on gpiozero's MockFactory pins, driven from the keyboard.

In a terminal: the four lights drawn live, the pick history beside them, space bar = tap,
h = long hold, l = the link hold (3 s: opens the display's pairing window), q = quit. Without a
terminal (CI, pipes), or with --presses/--seconds, it runs scripted and prints one line per pick,
and still stops cleanly on SIGINT/SIGTERM.
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Callable
from typing import Any

from cli.service import (
    StartError,
    add_common_arguments,
    load_config,
    open_serial_tray,
    setup_logging,
    start_service,
)
from tray.config import Config
from tray.press import link_seconds


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common_arguments(parser)
    parser.add_argument(
        "--serial",
        action="store_true",
        help="emulate the USB tray (firmware_bridge's emulator) instead of GPIO",
    )


def run(args: argparse.Namespace) -> int:
    setup_logging(args)
    config = load_config(args)
    if config is None:
        return 2
    return emulate(config, args)


Finger = tuple[Callable[[], None], Callable[[], None], Callable[[], None] | None]


def finger(tray: Any, service: Any, hold_s: float) -> Finger:
    """(tap, hold, link): through the mock button pin when there is one (so debounce runs too),
    else the service's virtual press and hold, and no link hold: only a tray's own button
    opens the pairing window, never a virtual one."""
    pin = getattr(getattr(getattr(tray, "devices", None), "button", None), "pin", None)
    if pin is None or not hasattr(pin, "drive_low"):
        return service.press, service.hold, None
    pause = threading.Event()
    down, up = (
        (pin.drive_low, pin.drive_high)
        if tray.config.button.pull_up
        else (pin.drive_high, pin.drive_low)
    )

    def tap() -> None:
        down()
        pause.wait(0.08)
        up()

    def holding(seconds: float) -> Callable[[], None]:
        def hold() -> None:
            down()
            pause.wait(seconds + 0.1)
            up()

        return hold

    return tap, holding(hold_s), holding(link_seconds(hold_s))


def emulate(config: Config, args: argparse.Namespace) -> int:
    from tray.bus import Bus

    if getattr(args, "serial", False):
        port = args.serial if isinstance(args.serial, str) else "auto"
        tray = open_serial_tray(port, emulate=True)
        if tray is None:
            return 2
    else:
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        from tray.gpio_tray import GpioTray

        tray = GpioTray(config, pin_factory=MockFactory(pin_class=MockPWMPin), name="emulator")
    bus = Bus()
    try:
        service, close_display = start_service(tray, config, args, bus, virtual_button=True)
    except StartError as exc:
        print(f"tinker-tray: {exc}", file=sys.stderr)
        return 1
    try:
        return _drive(service, bus, tray, config, args)
    finally:
        close_display()


def _drive(service: Any, bus: Any, tray: Any, config: Config, args: argparse.Namespace) -> int:
    """Press the button from the keyboard (a terminal) or from a script (--presses/--seconds)."""
    from tray.events import Fault, Pick, PickSettled

    tap, hold, link = finger(tray, service, config.button.hold_s)
    scripted = args.presses is not None or args.seconds is not None
    if not scripted and sys.stdin.isatty() and sys.stdout.isatty():
        from tray.terminal_emulator import TerminalEmulator

        TerminalEmulator(service, bus, tray, tap, hold, link).run()
        return 0

    said = Narration()
    bus.subscribe(said.show, Pick, PickSettled, Fault)
    say, picks = said.say, said.picks
    if args.seconds is not None:
        timer = threading.Timer(args.seconds, service.request_stop)
        timer.daemon = True
        timer.start()
    script: Callable[[], None] | None = None
    if args.presses is not None:

        def press_script() -> None:
            for _ in range(args.presses):
                while service.spinning:
                    threading.Event().wait(0.02)
                tap()
                if not picks.acquire(timeout=10):
                    break
            while service.spinning:
                threading.Event().wait(0.02)
            service.request_stop()

        script = press_script

    def ready() -> None:
        on = "" if tray.name == "emulator" else f" on {tray.name}"  # a USB tray's port
        say(f"emulator ready{on}; stop with Ctrl-C or SIGTERM")
        if script is not None:  # presses begin once the service is listening
            threading.Thread(target=script, name="emulator-script", daemon=True).start()

    _run_until_stopped(service, ready)
    return 0


class Narration:
    """What a scripted emulator prints: a pick once its lights land (no spoilers), a fault at
    once, one write per line (the service and the script speak from different threads, and
    print() writes the text and its newline separately). `picks` counts the picks named."""

    def __init__(self) -> None:
        self.picks = threading.Semaphore(0)
        self.spinning: dict[int, Any] = {}

    def say(self, line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def show(self, event: Any) -> None:
        from tray.events import Pick, PickSettled

        if isinstance(event, Pick):
            self.spinning[event.seq] = event
        elif isinstance(event, PickSettled):
            pick = self.spinning.pop(event.seq, None)
            if pick is not None:
                self.say(f"pick #{pick.seq}: {pick.colour}")
                self.picks.release()
        else:
            self.say(f"fault {event.kind}: {event.message}")


def _run_until_stopped(service: Any, ready: Callable[[], None]) -> None:
    """The service's loop until SIGINT/SIGTERM or the script's stop (`tray.signals`); more
    signals then, while the display closes, are ignored."""
    from tray.signals import StopSignals

    with StopSignals(then_ignore=True) as stops:
        service.run_forever(ready=ready, stops=stops)
