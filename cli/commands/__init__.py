"""One module per `tinker-tray` subcommand, imported only when that subcommand runs.

Each module defines `add_arguments(parser)` and `run(args) -> int`. Importing just the one that
runs keeps `tinker-tray` quick to start on a Pi Zero.
"""
