"""`tinker-tray`: one console command, subcommands loaded lazily.

Start-up time matters on a Pi Zero 2 W, so the parser for a subcommand (and everything it
imports) is built only when that subcommand is asked for.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# name -> (module, one-line help). The module has add_arguments(parser) and run(args) -> int.
COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("cli.commands.run", "run the tray service (real pins on a Pi, else the emulator)"),
    "emulate": (
        "cli.commands.emulate",
        "run the tray service on mock pins, driven from the keyboard",
    ),
    "bench": ("cli.commands.bench", "bench-test the LEDs and the button while wiring"),
    "simulate": ("cli.commands.simulate", "play hands or games between bots and print statistics"),
    "play": ("cli.commands.play", "play a digital game in the terminal against bots"),
    "replay": ("cli.commands.replay", "replay a game record and print the resulting state"),
    "bridge": ("firmware_bridge.cli", "talk to a USB microcontroller tray (ports, monitor)"),
    "display": ("cli.commands.display", "serve the scoring display (web, or --terminal too)"),
    "club": ("cli.commands.club", "every table on one page, from an MQTT broker (--mqtt URL)"),
}


def _top_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tinker-tray",
        description="The Disney UNO Tinker Bell tray: service, emulator, bench test, rules engine.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_module, help_text) in COMMANDS.items():
        sub.add_parser(name, help=help_text, add_help=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in COMMANDS:
        parser = _top_parser()
        if not argv or argv[0] in ("-h", "--help"):
            parser.print_help()
            return 0 if argv else 2
        parser.error(f"unknown command {argv[0]!r}; choose from {', '.join(COMMANDS)}")
    name, rest = argv[0], argv[1:]
    module_name, help_text = COMMANDS[name]
    module = importlib.import_module(module_name)
    parser = argparse.ArgumentParser(prog=f"tinker-tray {name}", description=help_text)
    module.add_arguments(parser)
    args = parser.parse_args(rest)
    try:
        return int(module.run(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
