"""Where the phones at the table find the display: the LAN address, the mDNS name, a warning.

The service listens on every interface by default (`DEFAULT_HOST`), so a phone on the same
Wi-Fi opens the scoreboard from the QR code. The QR code carries the LAN address (every phone
can open an IP address; not every phone resolves `.local` names); the printed links add the
mDNS name `tinker-tray.local`, which this module announces with `zeroconf` (imported only
when the display serves the LAN: about 25 ms and 3.5 MiB beside the web server already
loaded). Where only this machine can reach the display, a warning says so.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import logging
import os
import socket
import threading
from collections.abc import Callable

DEFAULT_HOST = "0.0.0.0"
"""Every interface: the phones at the table must reach it (writes still need the token)."""
DEFAULT_PORT = 8080
"""One port for `run`, `emulate` and `display`."""
MDNS_NAME = "tinker-tray"
"""The name phones can open as http://tinker-tray.local:PORT."""

log = logging.getLogger("tinker-tray")

_ANY = ("0.0.0.0", "::", "")


def lan_address() -> str | None:
    """This machine's address on its LAN (IPv4), or None when it has only loopback.

    Asks the kernel which source address it would use towards a LAN address (a UDP `connect`
    sends nothing), then falls back to the addresses the host name resolves to."""
    for probe in ("10.254.254.254", "192.168.254.254"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.connect((probe, 9))
                address = sock.getsockname()[0]
        except OSError:
            continue
        if _reachable(address):
            return address
    try:
        _name, _aliases, found = socket.gethostbyname_ex(socket.gethostname())
    except OSError:
        return None
    return next((a for a in found if _reachable(a)), None)


def _reachable(address: str) -> bool:
    """An address another machine could use: not loopback, not unspecified."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local)


def _url(host: str, port: int) -> str:
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


@dataclasses.dataclass(frozen=True)
class Addresses:
    """What to put in the QR code, what else to print, and what to warn about."""

    url: str
    """For the QR code and the printed links: the LAN address when there is one."""
    ip: str | None
    """The LAN address to announce over mDNS (None: nothing to announce)."""
    warning: str | None = None


def addresses(
    host: str, port: int, url: str | None = None, find_lan: Callable[[], str | None] = lan_address
) -> Addresses:
    """The addresses of a display served on host:port (`url`: the person's own choice)."""
    if host in _ANY:
        lan = find_lan()
        if lan is None:
            return Addresses(
                url or _url("127.0.0.1", port),
                None,
                "no network found: only this machine can open the display. "
                "Connect it to the table's Wi-Fi and start again.",
            )
        return Addresses(url or _url(lan, port), lan)
    if not _reachable(_resolve(host)):
        return Addresses(
            url or _url(host, port),
            None,
            f"serving on {host}, this machine only: phones cannot open the display "
            f"(--host {DEFAULT_HOST} serves the table)",
        )
    return Addresses(url or _url(host, port), host if ":" not in host else None)


def _resolve(host: str) -> str:
    try:
        return socket.gethostbyname(host)
    except OSError:
        return host


def mdns_default() -> bool:
    """Announce on mDNS unless TINKER_TRAY_MDNS=0 (the test suite sets it: tests send nothing
    beyond this machine)."""
    return os.environ.get("TINKER_TRAY_MDNS", "1") != "0"


def mdns_url(port: int) -> str:
    return _url(f"{MDNS_NAME}.local", port)


def announce(ip: str, port: int) -> Callable[[], None]:
    """Answer `tinker-tray.local` with `ip` and announce the display as an HTTP service on the
    LAN, in the background (mDNS probes for about two seconds before it announces, and the
    tray need not wait for it); returns what withdraws it. A failure (no multicast, zeroconf
    missing) is a warning: the LAN address still works."""
    done: list[Callable[[], None]] = []
    thread = threading.Thread(
        target=lambda: done.append(_register(ip, port)), daemon=True, name="mdns"
    )
    thread.start()

    def withdraw() -> None:
        thread.join(timeout=5)
        if done:
            done[0]()

    return withdraw


def _register(ip: str, port: int) -> Callable[[], None]:
    try:
        from zeroconf import ServiceInfo, Zeroconf
    except ImportError as exc:
        log.warning("not announced as %s.local (zeroconf: %s)", MDNS_NAME, exc)
        return lambda: None
    info = ServiceInfo(
        "_http._tcp.local.",
        "Tinker Tray scoreboard._http._tcp.local.",
        addresses=[socket.inet_aton(ip)],
        port=port,
        properties={"path": "/"},
        server=f"{MDNS_NAME}.local.",
    )
    try:
        zc = Zeroconf()
    except OSError as exc:
        log.warning("not announced as %s.local: %s", MDNS_NAME, exc)
        return lambda: None
    try:
        zc.register_service(info, allow_name_change=True)
    except Exception as exc:  # zeroconf's own errors (a name taken...): a warning, not a stop
        log.warning("not announced as %s.local: %s", MDNS_NAME, exc)
        zc.close()
        return lambda: None

    def withdraw() -> None:
        try:
            zc.unregister_service(info)
        finally:
            zc.close()

    return withdraw
