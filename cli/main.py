"""`tinker-tray`: one console command, subcommands loaded lazily.

Start-up time matters on a Pi Zero 2 W, so the parser for a subcommand (and everything it
imports) is built only when that subcommand is asked for.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from typing import NoReturn

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
    "bridge": ("cli.commands.bridge", "a USB microcontroller tray: ports, monitor, deploy"),
    "display": ("cli.commands.display", "serve the scoring display (web, or --terminal too)"),
    "club": ("cli.commands.club", "every table on one page, from an MQTT broker (--mqtt URL)"),
    "install": ("cli.commands.install", "install the tray as this Pi's service (sudo; --root DIR)"),
    "uninstall": ("cli.commands.uninstall", "remove what install made (the journal stays)"),
    "update": ("cli.commands.update", "install the newest signed release beside this one"),
    "release": ("cli.commands.release", "pack a signed tag into an update file (maintainers)"),
}


class Parser(argparse.ArgumentParser):
    """argparse with its errors on one line: what was wrong, and where the options are listed
    (argparse's own usage block is longer than the sentence that matters)."""

    def error(self, message: str) -> NoReturn:
        message = re.sub(r"invalid (int|float) value: '(.*)'", _not_a_number, message)
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _not_a_number(match: re.Match[str]) -> str:
    kind = "a whole number" if match.group(1) == "int" else "a number"
    return f"takes {kind}, not '{match.group(2)}'"


def _reader_gone() -> int:
    """The output's reader has stopped (`| head`): a normal end for a command-line tool. As
    Python's documentation advises (signal module, "Note on SIGPIPE"), stdout becomes devnull,
    so the interpreter's own flush at exit finds nothing to complain about."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 0


def version() -> str:
    """The release that runs (its tag, else its commit); the package's version where neither
    can be known."""
    from updater.version import running_version

    named = running_version()
    if named:
        return named
    from importlib import metadata  # only for --version and --help: it costs start-up time

    try:
        return metadata.version("tinker-tray")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


def _top_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="tinker-tray",
        description="The Disney UNO Tinker Bell tray: service, emulator, bench test, rules engine.",
    )
    parser.add_argument("--version", action="version", version=f"tinker-tray {version()}")
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
        if argv[0] == "--version":
            parser.parse_args(argv[:1])
        parser.error(f"unknown command '{argv[0]}'; choose from {', '.join(COMMANDS)}")
    name, rest = argv[0], argv[1:]
    module_name, help_text = COMMANDS[name]
    module = importlib.import_module(module_name)
    parser = Parser(prog=f"tinker-tray {name}", description=help_text)
    module.add_arguments(parser)
    args, extra = parser.parse_known_args(rest)
    if extra:  # said by the sub-command's own parser, so its help is the one named
        where = f"{parser.prog} {args.action}" if getattr(args, "action", None) else parser.prog
        Parser(prog=where).error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        status = int(module.run(args) or 0)
        sys.stdout.flush()  # (here, not at exit: a reader that has gone is seen below)
        return status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _reader_gone()
    except OSError as exc:  # a file or device the command needed: one line, not a traceback
        where = f" {exc.filename}" if exc.filename else ""
        print(f"tinker-tray {name}:{where}: {exc.strerror or exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
