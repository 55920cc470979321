"""`tinker-tray bridge`: find USB trays, watch the link live, or pretend to be a tray.

    tinker-tray bridge ports                      candidate serial ports, trays first
    tinker-tray bridge monitor [--port auto]      every frame both ways, events and drop counters
    tinker-tray bridge monitor --emulate          the same against the firmware emulator
    tinker-tray bridge emulate                    an emulated tray on a pty (Enter taps the button)
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    sub.add_parser("ports", help="list serial ports; USB trays (2E8A:0005) first")
    mon = sub.add_parser("monitor", help="show frames and events on the link live")
    mon.add_argument("--port", default="auto",
                     help="auto, auto:SERIALNUMBER, a device path or a pyserial URL")
    mon.add_argument("--emulate", action="store_true", help="monitor the firmware emulator")
    mon.add_argument("--heartbeats", action="store_true", help="show heartbeats too")
    mon.add_argument("--seconds", type=_seconds, default=None, help="stop after this long")
    emu = sub.add_parser("emulate", help="run an emulated tray on a pseudo-terminal")
    emu.add_argument("--seconds", type=_seconds, default=None, help="stop after this long")


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"takes a number of seconds, not '{text}'") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"takes a number of seconds from 0, not {text}")
    return value


def run(args: argparse.Namespace) -> int:
    return {"ports": _ports, "monitor": _monitor, "emulate": _emulate}[args.action](args)


def port_problem(port: str) -> str | None:
    """Why an explicit port cannot be used (it does not exist), or None. "auto" waits for a
    tray to be plugged in, and a path that exists is waited for again after an unplug; but a
    path given by hand that does not exist at the start is most likely a typo."""
    if port == "auto" or port.startswith("auto:") or "://" in port or os.path.exists(port):
        return None
    return (f"there is no port {port} (`tinker-tray bridge ports` lists them; "
            "auto waits for a tray to be plugged in)")


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
    path = emulator.start()
    print(f"emulated tray on {path}\n"
          f"  tinker-tray run --serial {path}    (in another terminal)\n"
          "  press Enter to tap the Tinker Bell button, Ctrl-C to stop", flush=True)
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
