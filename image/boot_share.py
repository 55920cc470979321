"""The tray's share of a boot, from systemd's own clocks in the guest: of the time from the
kernel's start to the tray's READY=1, how much is the tray starting itself (its unit leaving
"inactive" to its READY=1: Python, the venv's imports, the journal's fold, the pins), and how much
is everything before it (the kernel, the initramfs, the units the tray waits for). The aim: the
tray's own start at most 15% of the boot on the emulated Zero 2 W (issue 39). Read by
`./tinker image check` (image/check.py) from what it asks the guest over SSH:

    systemctl show -P InactiveExitTimestampMonotonic,ActiveEnterTimestampMonotonic tinker-tray
    systemd-analyze                                   "Startup finished in 4.1s (kernel) + ..."
    systemd-analyze critical-chain tinker-tray.service

The *Monotonic timestamps are microseconds on the kernel's monotonic clock, which starts with
the kernel: the same zero for all of them. Parsed here, apart from qemu, so that a recorded sample
tests the parsing."""

from __future__ import annotations

import re
from dataclasses import dataclass

AIM = 0.15
"""The tray's own start, as a share of the kernel's start to READY=1, that the check aims under."""
UNITS = {"h": 3600.0, "min": 60.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6}
SPAN_PART = re.compile(r"(\d+(?:\.\d+)?)\s*(h|min|ms|us|µs|s)\b")
CHAIN_LINE = re.compile(
    r"^[\s└├│─]*(?P<unit>[\w@.\\:-]+)\s+(?:@(?P<at>[^+]+?))?\s*(?:\+(?P<took>.+))?$"
)


class BootShareError(Exception):
    """A sample that does not hold what the share is computed from, in one sentence."""


def parse_span(text: str) -> float:
    """Seconds in one of systemd's time spans: "1min 2.345s", "345ms", "2h 1min", "12us"."""
    parts = SPAN_PART.findall(text)
    if not parts or SPAN_PART.sub("", text).strip():
        raise BootShareError(f"'{text[:40]}' is not a systemd time span")
    return sum(float(number) * UNITS[unit] for number, unit in parts)


def parse_startup(line: str) -> dict[str, float]:
    """systemd-analyze's first line as seconds per stage: kernel, initrd, userspace, total."""
    match = re.match(r"Startup finished in (.*) = (.*?)\s*$", line.strip())
    if not match:
        raise BootShareError("systemd-analyze did not say 'Startup finished' (the boot goes on)")
    stages = {"total": parse_span(match.group(2))}
    for part in match.group(1).split(" + "):
        span, _, stage = part.rpartition(" (")
        stages[stage.rstrip(")")] = parse_span(span)
    return stages


@dataclass(frozen=True)
class ChainLink:
    """One line of systemd-analyze critical-chain: the unit, when it was active, how long its
    own start took (None for a unit that took no time of its own)."""

    unit: str
    at: float
    took: float | None


def parse_chain(text: str) -> list[ChainLink]:
    """systemd-analyze critical-chain's units, the tray's first (its header lines skipped)."""
    links = []
    for line in text.splitlines():
        match = CHAIN_LINE.match(line)
        if not match or not match.group("at") or "." not in match.group("unit"):
            continue
        took = match.group("took")
        links.append(
            ChainLink(
                match.group("unit"),
                parse_span(match.group("at")),
                parse_span(took) if took else None,
            )
        )
    return links


@dataclass(frozen=True)
class BootShare:
    """The kernel's start to the tray's READY=1, and the tray's own part of it."""

    to_ready: float  # seconds from the kernel's start to READY=1
    tray: float  # seconds from the tray's unit starting to READY=1

    @property
    def share(self) -> float:
        return self.tray / self.to_ready

    def sentence(self) -> str:
        verdict = "within" if self.share <= AIM else "OVER"
        return (
            f"{self.to_ready:.1f} s from the kernel's start to the tray's READY=1, of it the "
            f"tray's own start {self.tray:.1f} s = {self.share:.0%} ({verdict} the aim of "
            f"{AIM:.0%})"
        )


def boot_share(unit_start_us: str, ready_us: str) -> BootShare:
    """The share from systemctl's InactiveExitTimestampMonotonic and
    ActiveEnterTimestampMonotonic of the tray's unit (microseconds since the kernel's start)."""
    try:
        start, ready = int(unit_start_us), int(ready_us)
    except ValueError:
        raise BootShareError("systemd gave no start and READY=1 times for the tray") from None
    if not 0 < start < ready:
        raise BootShareError("the tray has not said READY=1 since it last started")
    return BootShare(to_ready=ready / 1e6, tray=(ready - start) / 1e6)
