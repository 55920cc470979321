"""`tinker-tray bridge`: find USB trays, watch the link live, or pretend to be a tray.

tinker-tray bridge ports                      candidate serial ports, trays first
tinker-tray bridge monitor [--port auto]      every frame both ways, events and drop counters
tinker-tray bridge monitor --emulate          the same against the firmware emulator
tinker-tray bridge emulate                    an emulated tray on a pty (Enter taps the button)
tinker-tray bridge emulate --tcp 7777         the same on socket://127.0.0.1:7777
tinker-tray bridge deploy [--port auto]       copy the reference firmware to a Pico (mpremote)
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import firmware_bridge
from cli.arguments import seconds

FIRMWARE = Path(firmware_bridge.__file__).with_name("firmware")  # the Pico's own files
FIRMWARE_FILES = ("wire.py", "tinkerfw.py", "main.py")
"""What runs on the Pico, copied side by side to its root (main.py runs at power-up)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    sub.add_parser("ports", help="list serial ports; USB trays (2E8A:0005) first")
    mon = sub.add_parser("monitor", help="show frames and events on the link live")
    _port_arguments(mon, "auto, auto:SERIALNUMBER, a device path or a pyserial URL")
    mon.add_argument("--emulate", action="store_true", help="monitor the firmware emulator")
    mon.add_argument("--heartbeats", action="store_true", help="show heartbeats too")
    mon.add_argument("--seconds", type=seconds, default=None, help="stop after this long")
    emu = sub.add_parser("emulate", help="run an emulated tray on a pseudo-terminal")
    emu.add_argument("--seconds", type=seconds, default=None, help="stop after this long")
    emu.add_argument(
        "--tcp",
        type=int,
        metavar="PORT",
        default=None,
        help="serve it on 127.0.0.1:PORT instead (0: any free port), for "
        "--serial socket://127.0.0.1:PORT",
    )
    dep = sub.add_parser(
        "deploy",
        help="copy the reference firmware to a Pico running "
        "MicroPython (needs mpremote: pip install 'tinker-tray[firmware]')",
    )
    _port_arguments(dep, "auto (the one Pico plugged in), auto:SERIALNUMBER or a device path")
    dep.add_argument(
        "--dry-run",
        action="store_true",
        help="print the files and the mpremote command; copy nothing",
    )


def _port_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """The port as `--port PORT` or plainly after the action (`bridge monitor /dev/ttyACM0`)."""
    parser.add_argument("port_given", nargs="?", metavar="PORT", default=None, help=what)
    parser.add_argument("--port", default=None, help="the same, as an option (default: auto)")


def run(args: argparse.Namespace) -> int:
    actions = {"ports": _ports, "monitor": _monitor, "emulate": _emulate, "deploy": _deploy}
    if args.action in ("monitor", "deploy"):
        given, option = args.port_given, args.port
        if given is not None and option is not None and given != option:
            print(
                f"tinker-tray bridge {args.action}: two ports given ({given} and {option}); "
                "name one",
                file=sys.stderr,
            )
            return 2
        args.port = given or option or "auto"
    return actions[args.action](args)


class DeployError(Exception):
    """Why the firmware cannot be deployed, in one line."""


def firmware_files() -> list[Path]:
    """The files `deploy` copies, in order (each exists: they ship with the package)."""
    return [FIRMWARE / name for name in FIRMWARE_FILES]


def mpremote() -> list[str] | None:
    """How to run mpremote: the one installed beside tinker-tray (the `firmware` extra), else
    one on PATH; None if there is none."""
    if importlib.util.find_spec("mpremote") is not None:
        return [sys.executable, "-m", "mpremote"]
    import shutil

    found = shutil.which("mpremote")
    return [found] if found else None


def pico_port(port: str) -> str:
    """The Pico's port for `--port`, or DeployError saying why there is none."""
    from firmware_bridge.ports import AmbiguousPort, find_port

    if port == "auto" or port.startswith("auto:"):
        try:
            found = find_port(port.partition(":")[2] or None)
        except AmbiguousPort as exc:
            raise DeployError(str(exc)) from None
        if found is None:
            raise DeployError(
                "no Pico running MicroPython (USB 2E8A:0005) is plugged in: "
                "install MicroPython on it first (docs/bridge.md, 'Deploying "
                "the firmware')"
            )
        return found
    if "://" not in port and not os.path.exists(port):
        raise DeployError(f"no such port: {port}")
    return port


def deploy_command(port: str, tool: list[str]) -> list[str]:
    """mpremote: connect to `port`, copy the firmware files to the board's root, reset it."""
    return [*tool, "connect", port, "cp", *(str(f) for f in firmware_files()), ":", "+", "reset"]


def _deploy(args: argparse.Namespace) -> int:
    try:
        tool = mpremote()
        if tool is None:
            raise DeployError(
                "deploying needs mpremote: pip install 'tinker-tray[firmware]' "
                "(or pipx install mpremote)"
            )
        port = pico_port(args.port)
    except DeployError as exc:
        print(f"tinker-tray: {exc}", file=sys.stderr)
        return 1
    command = deploy_command(port, tool)
    for path in firmware_files():
        print(f"copy {path} -> {port}:/{path.name}")
    if args.dry_run:
        print(" ".join(command))
        return 0
    result = subprocess.run(command, check=False)
    if result.returncode:
        print(
            f"tinker-tray: mpremote failed (exit {result.returncode}); the tray may hold "
            "part of the old firmware: run the command again",
            file=sys.stderr,
        )
        return 1
    print("firmware deployed; the tray restarted with it")
    return 0


def port_problem(port: str) -> str | None:
    """Why an explicit port cannot be used (it does not exist), or None. "auto" waits for a
    tray to be plugged in, and a path that exists is waited for again after an unplug; but a
    path given by hand that does not exist at the start is most likely a typo."""
    if port == "auto" or port.startswith("auto:") or "://" in port or os.path.exists(port):
        return None
    return (
        f"there is no port {port} (`tinker-tray bridge ports` lists them; "
        "auto waits for a tray to be plugged in)"
    )


def _ports(_args: argparse.Namespace) -> int:
    from firmware_bridge.ports import candidates

    found = candidates()
    if not found:
        print("no serial ports found (is the tray plugged in? see docs/bridge.md)")
        return 1
    for c in found:
        mark = "tray" if c.is_tray else "    "
        print(f"{mark}  {c.usb_id:9}  {c.serial_number or '-':18}  {c.path}  {c.description}")
    if not any(c.is_tray for c in found):
        print("none of these is a MicroPython Pico (2E8A:0005)")
        return 1
    return 0


def describe(msg) -> str:
    """One readable line for a message: its type and fields."""
    import dataclasses

    fields = " ".join(f"{f.name}={getattr(msg, f.name)!r}" for f in dataclasses.fields(msg))
    return f"{type(msg).__name__} {fields}".rstrip()


def _monitor(args: argparse.Namespace) -> int:
    from firmware_bridge import protocol as p
    from firmware_bridge.host import Bridge
    from firmware_bridge.ports import resolver

    emulator = None
    if not args.emulate and (problem := port_problem(args.port)):
        print(f"tinker-tray bridge: {problem}", file=sys.stderr)
        return 2
    if args.emulate:
        from firmware_bridge.emulator import Emulator

        emulator = Emulator()
        emulator.start()
        resolve = lambda: emulator.path  # noqa: E731
    else:
        resolve = resolver(args.port)
    start = time.monotonic()
    lock = threading.Lock()

    def show(line: str) -> None:
        with lock:
            print(f"{time.monotonic() - start:9.3f}  {line}", flush=True)

    def on_frame(direction: str, msg: p.Message) -> None:
        if args.heartbeats or not isinstance(msg, (p.Heartbeat, p.HeartbeatReply)):
            show(("host → tray  " if direction == "out" else "tray → host  ") + describe(msg))

    bridge = Bridge(resolve, lambda e: show(f"event        {e.to_json()}"), on_frame=on_frame)
    bridge.start()
    try:
        until = None if args.seconds is None else time.monotonic() + args.seconds
        while until is None or time.monotonic() < until:
            time.sleep(min(1.0, max(0.0, (until or time.monotonic() + 1) - time.monotonic())))
    except KeyboardInterrupt:
        pass
    finally:
        bridge.stop()
        if emulator is not None:
            emulator.unplug()
        show(f"counters     {bridge.counters}")
    return 0


def _emulate(args: argparse.Namespace) -> int:
    from firmware_bridge.emulator import Emulator

    emulator = Emulator()
    if args.tcp is not None and not 0 <= args.tcp <= 65535:
        print(f"tinker-tray: --tcp takes a port number 0 to 65535, not {args.tcp}", file=sys.stderr)
        return 2
    try:
        path = emulator.start() if args.tcp is None else emulator.start_tcp(port=args.tcp)
    except OSError as exc:
        print(
            f"tinker-tray: cannot serve the emulated tray on port {args.tcp}: "
            f"{exc.strerror or exc}",
            file=sys.stderr,
        )
        return 1
    print(
        f"emulated tray on {path}\n"
        f"  tinker-tray run --serial {path}    (in another terminal)\n"
        "  press Enter to tap the Tinker Bell button, Ctrl-C to stop",
        flush=True,
    )
    try:
        if args.seconds is not None:
            time.sleep(args.seconds)
        else:
            for _line in sys.stdin:
                emulator.tap()
    except KeyboardInterrupt:
        pass
    finally:
        emulator.unplug()
    return 0
