"""systemd's notify protocol, by hand: one datagram to $NOTIFY_SOCKET (no dependency).

With `Type=notify` systemd waits for READY=1 before it counts the service as started, and with
`WatchdogSec=` it restarts the service unless WATCHDOG=1 arrives in time. Outside systemd
(NOTIFY_SOCKET unset) every call does nothing and returns False.
"""

from __future__ import annotations

import os
import socket


def notify(message: str) -> bool:
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
    except OSError:
        return False
    return True


def watchdog_interval() -> float | None:
    """Seconds between watchdog pings (half of WatchdogSec), or None when not asked for."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return int(usec) / 2_000_000
    except ValueError:
        return None
