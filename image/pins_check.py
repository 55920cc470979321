"""The pins check: the tray's SD-card image booted on the patched qemu (image/qemu/, whose Pi has
working GPIO inputs), its button pressed from outside and its four LEDs watched, as a person at
the table would press and watch.

    ./tinker image check IMG --pins [--presses 20] [--port 18080] [--keep DIR]
                             [--pin-factory rpigpio]

The card is qemu's copy with the boot check's files (image/check.py's `bench_card`) but the real
button settings (hardware/pinmap.toml as it is: the patched qemu has the pull-up), and the SSH
key image/update_check.py's first boot gives (the check's look inside). qemu runs with the boot
check's arguments (image/emulated.py's `Qemu`: raspi3ap, `-icount shift=3`, the usb-net ports),
plus `-qtest unix:PATH` beside the TCG CPU (image/pins.py's `Qtest`, which drives the button
through qtest's `set_irq_in`) and the patch's trace events with qemu's virtual clock:
`bcm2835_gpio_output` (the LEDs) and `bcm2835_gpio_level` (the button's pin itself).

Then, once the page answers: taps (every fourth one a bouncing press, 5 edges in about 3 ms),
each waited for until its show has ended, and checked against what the service says it did:
- exactly one new pick per tap (`/api/view`'s pick: its seq one up, and no other after);
- the colour `/api/view` names is the LED the pins were left lit on;
- the LEDs' full-on lights, in order, with their lengths, are the show the service planned
  (`/api/show`'s frames, the very frames tray.show plays): the same lights in the same order,
  each length within 20% (and one period of the software PWM, 10 ms: lgpio starts and changes
  a PWM only at its cycle's start) in qemu's virtual time, which `-icount` ties to the guest's
  clock, a light's step counted from when it rose (a dim trail still on then is the one
  before's);
- the time from the tap's release (a tap is decided on release: tray/press.py) to the first LED
  edge, in virtual time;
then a 3-second hold opens the pairing window (`/api/pairing`, scoreboard/pairing.py) and
makes no pick; then, if asked (`--bench`), `tinker-tray bench` inside the guest over SSH (the
service stopped) counts presses made meanwhile from outside. One line sums it up; exit 0 only
if every count matches.

With `--pin-factory rpigpio` the same presses go through the RPi.GPIO compatibility path that
Raspberry Pi OS provides (its python3-rpi-lgpio: rpi-lgpio, the RPi.GPIO API on lgpio), which
gpiozero's RPiGPIOFactory drives: the card's settings say `pin_factory = "rpigpio"` (its first
start finds no RPi.GPIO and says so), rpi-lgpio's pure-Python wheel, fetched on the host with
`pip download`, goes into the guest over the check's SSH beside the image's lgpio (nothing is
compiled in the guest), and the service is restarted on it before the first press.

Python's standard library only, as the boot check.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from image.emulated import (
    ICOUNT,
    ROOT,
    WIFI,
    BenchError,
    Card,
    Guest,
    Qemu,
    first_boot_of,
    http,
    run,
)
from image.pins import Change, PinMap, Pins, Qtest
from image.qemu import cache_dir, patched_qemu

T = TypeVar("T")
COLOURS = ("red", "blue", "green", "yellow")
"""tray.backend.COLOURS: the order of a frame's levels (the tray is not imported here)."""
TOLERANCE = 0.20
"""How far an LED's observed length may be from the planned one, as a fraction of it."""
PWM_PERIOD_NS = 10_000_000
"""gpiozero's PWMLED at 100 Hz, on lgpio's software PWM (lgPthTx.c) whichever backend: the
LGPIOFactory calls lgpio.tx_pwm, and rpi-lgpio's RPi.GPIO.PWM does too."""
SLACK_NS = PWM_PERIOD_NS
"""And this much more: lgpio starts a PWM at the next multiple of its period and applies a new
duty cycle at the start of the next cycle, so each end of a light waits for up to a period
after the service set it (the second --pins run: 28.9 ms seen for a 40.0 ms light, 77.6 for
61.1, every edge of its shows on one 10 ms grid in qemu's trace)."""
GAP_NS = 2_000_000
"""Low gaps shorter than this inside a light that is on are its PWM, not a change, where the
light is lit below full: at full, lgpio's PWM has no low part (duty 100%: no low edge at all),
and a gap there is a dim trail's pulse that the guest's PWM thread, woken late, held on into
the next (the second run's two "two lights at once": 10.3 and 5.7 ms highs 0.1 ms apart)."""
MIN_NS = 15_000_000
"""A light on for less than this is a dim trail's PWM pulse (or the instant between two lights
while the service sets them one after another), not a lit step: a trail's pulse is 2.5 ms of
each 10 ms period, but the guest's PWM thread, late under emulation, held some longer than 10 ms
(the first --pins run: "red+yellow" overlaps inside a step at 5 and 10 ms thresholds, none at
15 ms, re-matched on its kept trace); a lit step is 40 ms or more."""
TAP_S = 0.3
"""How long a tap holds the button down (host seconds; under -icount the guest's time may pass
slower, never faster: always past the 20 ms debounce, short of the 1.5 s hold)."""
HOLD_TIMEOUT = 120.0
SHOW_TIMEOUT = 180.0
BOUNCE_EVERY = 4
BOUNCE_EDGES = 5


@dataclass(frozen=True)
class Segment:
    """A stretch of the show: the light(s) on at full ("red", "red+blue"), or None (dark or only
    a dim trail), for `ns` nanoseconds (0: the last, which lasts until something else)."""

    label: str | None
    ns: int


def collapse(segments: Sequence[Segment]) -> list[Segment]:
    """Neighbours of one label joined into one."""
    out: list[Segment] = []
    for segment in segments:
        if out and out[-1].label == segment.label:
            out[-1] = Segment(segment.label, out[-1].ns + segment.ns)
        else:
            out.append(segment)
    return out


def strip_dark(segments: list[Segment]) -> list[Segment]:
    while segments and segments[0].label is None:
        segments = segments[1:]
    while segments and segments[-1].label is None:
        segments = segments[:-1]
    return segments


def label_of(levels: Sequence[float]) -> str | None:
    lit = [colour for colour, level in zip(COLOURS, levels, strict=True) if level >= 0.5]
    return "+".join(lit) or None


def planned(frames: Sequence[dict]) -> list[Segment]:
    """The show the service planned (`/api/show`'s frames) as full-on lights in order."""
    return strip_dark(
        collapse([Segment(label_of(f["levels"]), round(float(f["seconds"]) * 1e9)) for f in frames])
    )


def on_intervals(
    changes: Sequence[Change], pin: int, start: int, end: int, gap_ns: int = GAP_NS
) -> list[tuple[int, int]]:
    """When `pin` was on at full between `start` and `end` (ns): its high stretches, joined over
    gaps shorter than `gap_ns`, those shorter than MIN_NS left out."""
    level, since, highs = 0, start, []
    for change in changes:
        if change.pin != pin:
            continue
        if change.ns <= start:
            level = change.level
            continue
        if change.ns >= end:
            break
        if change.level == level:
            continue
        if change.level:
            since = change.ns
        else:
            highs.append((since, change.ns))
        level = change.level
    if level:
        highs.append((since, end))
    joined: list[tuple[int, int]] = []
    for a, b in highs:
        if joined and a - joined[-1][1] < gap_ns:
            joined[-1] = (joined[-1][0], b)
        else:
            joined.append((a, b))
    return [(a, b) for a, b in joined if b - a >= MIN_NS]


def observed(
    changes: Sequence[Change],
    leds: dict[str, int],
    start: int,
    end: int,
    gap_ns: int = GAP_NS,
) -> list[Segment]:
    """The LEDs' full-on lights between `start` and `end` (ns), in order, as `planned` says a
    plan: stretches shorter than MIN_NS (a light handed to the next one) counted in the next
    (`handed_on`); `gap_ns`: on_intervals'."""
    on = {c: on_intervals(changes, pin, start, end, gap_ns) for c, pin in leds.items()}
    edges = sorted({start, end, *(t for spans in on.values() for span in spans for t in span)})
    raw = []
    for a, b in itertools.pairwise(edges):
        lit = [c for c in COLOURS if c in on and any(x <= a and b <= y for x, y in on[c])]
        raw.append(Segment("+".join(lit) or None, b - a))
    return strip_dark(collapse(handed_on(strip_dark(collapse(raw)))))


def handed_on(segments: Sequence[Segment]) -> list[Segment]:
    """Segments shorter than MIN_NS given to the next one (the last's to the one before): a
    light's step starts when it rises, as the service set it, whatever the one before still
    shows of its trail's pulse (the second --pins run: a trail held 8.9 ms into the next light
    by the guest's late PWM thread took those 8.9 ms from it: 41.2 ms seen, 50.2 lit)."""
    kept: list[Segment] = []
    carried = 0
    for segment in segments:
        if segment.ns < MIN_NS:
            carried += segment.ns
        else:
            kept.append(Segment(segment.label, segment.ns + carried))
            carried = 0
    if kept and carried:
        kept[-1] = Segment(kept[-1].label, kept[-1].ns + carried)
    return kept


def pwm_gap(frames: Sequence[dict], gains: dict[str, float]) -> int:
    """The gap_ns for a show: 0 when every light it lights is driven at full (its level times
    its LED's brightness, tray/devices.py, at least 1: lgpio's PWM then never goes low), else
    GAP_NS (a lit light's own PWM lows)."""
    lit = [
        level * gains.get(colour, 1.0)
        for frame in frames
        for colour, level in zip(COLOURS, frame["levels"], strict=True)
        if level >= 0.5
    ]
    return 0 if all(value >= 1.0 for value in lit) else GAP_NS


def mismatch(plan: Sequence[Segment], seen: Sequence[Segment]) -> str | None:
    """None when the lights seen are the plan's, in order, each as long within TOLERANCE (the
    plan's last, 0 s: until something else, any length); else what differs, in one phrase."""
    labels = [s.label for s in plan], [s.label for s in seen]
    if labels[0] != labels[1]:
        return f"planned {short(plan)}, seen {short(seen)}"
    for number, (want, got) in enumerate(zip(plan, seen, strict=True), 1):
        if want.ns and abs(got.ns - want.ns) > TOLERANCE * want.ns + SLACK_NS:
            return (
                f"light {number} ({want.label}) on {got.ns / 1e6:.1f} ms,"
                f" planned {want.ns / 1e6:.1f} ms"
            )
    return None


def short(segments: Sequence[Segment]) -> str:
    """The lights in one word each: r, b, g, y, "-" for dark, "r+b" for two at once."""
    return (
        " ".join("+".join(c[0] for c in s.label.split("+")) if s.label else "-" for s in segments)
        or "nothing"
    )


@dataclass
class Tap:
    """One press of the button and what came of it."""

    number: int
    bounced: bool
    picks: int = 0  # new picks the page showed for it
    colour: str | None = None  # the pick's colour, as /api/view names it
    lit: str | None = None  # the LED the pins were left on
    matched: bool = False  # the LEDs' show is the planned one
    why: str = ""  # what did not match
    first_edge_ms: float | None = None  # release -> the first LED edge, virtual time
    edges: int = 0  # the button pin's changes qemu's trace saw for this press (down to up)


@dataclass
class Outcome:
    taps: list[Tap] = field(default_factory=list)
    hold_opened: bool | None = None  # None: not tried
    hold_picks: int = 0
    bench: str | None = None  # None: not run; else "ok: ..." or what failed


def summary(outcome: Outcome) -> tuple[str, int]:
    """The check's line, and its exit status: 0 only if every count matches."""
    taps = outcome.taps
    picks = sum(t.picks for t in taps)
    bounced = [t for t in taps if t.bounced]
    once = sum(1 for t in bounced if t.picks == 1 and t.edges > BOUNCE_EDGES)
    matched = sum(1 for t in taps if t.matched and t.colour is not None and t.colour == t.lit)
    delays = [t.first_edge_ms for t in taps if t.first_edge_ms is not None]
    median = f"{statistics.median(delays):.0f}" if delays else "none"
    line = (
        f"pins: presses {len(taps)}, picks {picks}, bounced presses counted once"
        f" {once}/{len(bounced)}, LED sequences matched {matched}/{len(taps)},"
        f" press -> first LED edge median {median} ms (emulated)"
    )
    good = bool(taps) and picks == len(taps) and all(t.picks == 1 for t in taps)
    good = good and once == len(bounced) and matched == len(taps)
    good = good and outcome.hold_opened is not False and outcome.hold_picks == 0
    good = good and (outcome.bench is None or outcome.bench.startswith("ok"))
    return line, 0 if good else 1


# ------------------------------------------------------------------ the emulated Pi
@dataclass
class PinsQemu(Qemu):
    """The boot check's qemu (emulated.Qemu's arguments), as the patched binary under qtest."""

    binary: Path = Path("qemu-system-aarch64")
    qtest: Qtest | None = None
    pins: Pins | None = None
    trace_copy: Path | None = None

    def start(self, log: Path) -> None:
        self.log = log
        self.card.seed()
        args = self.board(log, "-accel", "tcg")  # (alone, -qtest means -accel qtest)
        events = ("bcm2835_gpio_output", "bcm2835_gpio_level")
        self.qtest = Qtest(self.binary, args, board_io=False, events=events)
        self.process = self.qtest.process
        self.pins = Pins(self.qtest, PinMap.load())
        self.started = time.monotonic()

    def cut_power(self) -> None:
        if self.qtest is not None:
            if self.trace_copy is not None and self.qtest.log.exists():
                run("cp", self.qtest.log, self.trace_copy)
            self.process = None
            self.qtest.process.kill()
            self.qtest.close()
            self.qtest = None


def pins_card(image: Path, work: Path, pin_factory: str | None = None) -> Card:
    """qemu's copy with a Wi-Fi file, the real settings (pull-up on; `pin_factory`, if given,
    as theirs) and the check's SSH key."""
    card = Card.copy_of(image, work)
    card.put("tinker-tray-wifi.txt", WIFI)
    settings = (ROOT / "hardware" / "pinmap.toml").read_text()
    card.put("tinker-tray-settings.txt", settings_with(settings, pin_factory))
    run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", work / "bench_key")
    card.put("authorized_keys", (work / "bench_key.pub").read_text())
    return card


# ------------------------------------------------------------------ RPi.GPIO on lgpio
PIN_FACTORIES = ("lgpio", "rpigpio")
"""The pin factories the check can put the tray on (tray/pins.py's names)."""
RPI_LGPIO = "rpi-lgpio==0.6"
"""RPi.GPIO's API on lgpio, as Raspberry Pi OS ships it (python3-rpi-lgpio): pure Python, one
wheel for every Pi, needing only lgpio, which the image has."""
WHEEL_GLOB = "rpi_lgpio-*-py3-none-any.whl"
GUEST_SITE = "/usr/local/lib/python%d.%d/dist-packages"
"""Where the image's lgpio is (image/steps/configure.sh), which every venv of the tray sees
(--system-site-packages), as Pi OS's python3-rpi-lgpio would be in its system Python."""
FACTORY_LINE = re.compile(r"(?m)^pin_factory = .*$")


def settings_with(text: str, pin_factory: str | None) -> str:
    """hardware/pinmap.toml's text with its `pin_factory` set to `pin_factory` (None: as is)."""
    if pin_factory is None:
        return text
    if pin_factory not in PIN_FACTORIES:
        raise BenchError(f"--pin-factory is one of {', '.join(PIN_FACTORIES)}, not {pin_factory}")
    changed, count = FACTORY_LINE.subn(f'pin_factory = "{pin_factory}"', text)
    if count != 1:
        raise BenchError(f"the settings have {count} pin_factory lines, not one")
    return changed


def rpi_lgpio_wheel(folder: Path | None = None) -> Path:
    """rpi-lgpio's wheel on the host (`folder`: the cache's wheels/), fetched once with pip
    download, only a wheel and without its dependency (the guest has lgpio)."""
    folder = folder or cache_dir() / "wheels"
    found = sorted(folder.glob(WHEEL_GLOB))
    if not found:
        folder.mkdir(parents=True, exist_ok=True)
        run(sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary",
            ":all:", "--dest", folder, RPI_LGPIO)  # fmt: skip
        found = sorted(folder.glob(WHEEL_GLOB))
    if not found:
        raise BenchError(f"pip download {RPI_LGPIO} left no {WHEEL_GLOB} in {folder}")
    return found[-1]


def install_script(wheel: Path) -> str:
    """The guest's side (sh, over SSH): the wheel from this script itself (base64), installed
    beside lgpio by the tray venv's pip (no index, no dependencies, no byte-compiling: a pure
    wheel, nothing built), RPi.GPIO imported once, the service restarted on the card's
    settings, and what it said on this start (its invocation's journal) printed."""
    data = base64.b64encode(wheel.read_bytes()).decode()
    lines = "\n".join(data[i : i + 76] for i in range(0, len(data), 76))
    return f"""set -e
wheel=/tmp/{wheel.name}
base64 -d > "$wheel" <<'WHEEL'
{lines}
WHEEL
site=$(python3 -c 'import sys; print("{GUEST_SITE}" % sys.version_info[:2])')
/opt/tinker-tray/.venv/bin/python -m pip install --quiet --no-index --no-deps --no-compile \\
  --disable-pip-version-check --target "$site" "$wheel"
echo "rpi_gpio=$(python3 -c 'import RPi.GPIO as g; print(g.__file__, g.VERSION)')"
echo "settings=$(grep '^pin_factory' /etc/tinker-tray/pinmap.toml)"
systemctl restart tinker-tray
id=$(systemctl show -P InvocationID tinker-tray)
said() {{ journalctl -o cat _SYSTEMD_INVOCATION_ID="$id"; }}
for _ in $(seq 90); do said | grep -q 'tray service started on' && break; sleep 2; done
echo "active=$(systemctl is-active tinker-tray)"
said | sed -n 's/.*tray service started on /started_on=/p'
said | grep -i 'gpio pins\\|did not open' | sed 's/^/said=/' || true
"""


def on_rpigpio(answer: str) -> tuple[bool, str]:
    """From install_script's output: whether the service started on the pins (not the
    emulator) with the settings' rpigpio and rpi-lgpio's RPi.GPIO, and that in one phrase."""
    facts: dict[str, str] = {}
    for line in answer.splitlines():
        key, _, value = line.partition("=")
        if value:
            facts[key] = f"{facts[key]}; {value}" if key == "said" and key in facts else value
    good = (
        facts.get("started_on") == "gpio"
        and facts.get("settings") == 'pin_factory = "rpigpio"'
        and facts.get("active") == "active"
        and "RPi/GPIO" in facts.get("rpi_gpio", "")
    )
    said = (
        f"RPi.GPIO {facts.get('rpi_gpio', 'not importable')};"
        f" {facts.get('settings', 'no pin_factory setting')}; the service"
        f" {facts.get('active', '?')}, started on {facts.get('started_on', 'nothing')}"
    )
    return good, said + (f" ({facts['said']})" if "said" in facts else "")


def put_on_rpigpio(guest: Guest, qemu: Qemu, wheel: Path) -> str:
    """rpi-lgpio into the guest and the service restarted on it; the page waited for again.
    What the guest said, or a BenchError when the tray did not start on RPi.GPIO's pins."""
    done = guest.ssh("root@127.0.0.1", "sh", "-s", script=install_script(wheel), timeout=600)
    good, said = on_rpigpio(done.stdout)
    if done.returncode != 0 or not good:
        raise BenchError(f"the tray not on rpi-lgpio: {said} {done.stderr.strip()}".strip())
    wait_for("the page after the restart", lambda: http(qemu.port, "/", timeout=5)[0] == 200,
             timeout=300, every=2)  # fmt: skip
    return said


class Table:
    """The page, as the check reads it."""

    def __init__(self, port: int, token: str) -> None:
        self.port, self.token = port, token

    def get(self, path: str) -> dict:
        status, body = http(
            self.port, path, headers={"X-Table-Token": self.token} if self.token else None
        )
        if status != 200:
            raise BenchError(f"{path} answered {status}")
        return json.loads(body)

    def pick(self) -> tuple[int, str | None]:
        """The latest pick's seq (0: none yet) and colour (None while its lights spin)."""
        pick = self.get("/api/view").get("pick") or {}
        return int(pick.get("seq") or 0), pick.get("colour")


def wait_for(
    what: str, test: Callable[[], T], timeout: float = SHOW_TIMEOUT, every: float = 0.5
) -> T:
    """`test()` once it is true, asked every `every` s; a BenchError after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        found = test()
        if found:
            return found
        if time.monotonic() > deadline:
            raise BenchError(f"{what}: not within {timeout:.0f} s")
        time.sleep(every)


def all_dark(pins: Pins) -> bool:
    state: dict[int, int] = {}
    for change in pins.changes():
        state[change.pin] = change.level
    return not any(state.values())


def tap(number: int, bounced: bool, pins: Pins, table: Table) -> Tap:
    """Press and release, then wait for the pick and the end of its show, and compare."""
    result = Tap(number, bounced)
    before, _ = table.pick()
    edges_before = len(pins.button_changes())
    if bounced:
        pins.bouncing_press(BOUNCE_EDGES)
    else:
        pins.press()
    time.sleep(TAP_S)
    pins.release()
    expected = BOUNCE_EDGES + 1 if bounced else 2

    def pressed() -> list[Change]:
        found = pins.button_changes()[edges_before:]
        return found if len(found) >= expected and found[-1].level == 1 else []

    found = wait_for("the press and its release in qemu's trace", pressed, timeout=30)
    result.edges = len(found)
    released = found[-1].ns

    seen_changes = [-1]

    def over() -> bool:  # read off qemu's trace, on the host: the guest is not asked meanwhile
        """Dark after the show's edges, and still so half a second later (a show's steps
        pass through dark for a moment)."""
        changes = pins.changes()
        quiet = len(changes) == seen_changes[0]
        seen_changes[0] = len(changes)
        return quiet and any(c.ns > released for c in changes) and all_dark(pins)

    # The show is watched on the pins alone, and the page asked only once it is over: each
    # request is the guest's own work, and under emulation (its four cores run in turn on one
    # host thread) a page read twice a second kept lgpio's PWM thread waiting, 13 to 54 ms.
    wait_for(f"tap {number}: its show played and over on the pins", over)

    def settled() -> int:
        seq, colour = table.pick()
        return seq if seq > before and colour else 0

    seq = wait_for(f"tap {number}: a settled pick", settled)

    def shown() -> dict:
        show = table.get("/api/show")
        return show if show.get("seq") == seq and not show.get("more") else {}

    show = wait_for(f"tap {number}: the end of its show on /api/show", shown)
    wait_for(f"tap {number}: the LEDs dark again", lambda: all_dark(pins), timeout=60)
    time.sleep(1.0)  # a second pick from one press would show by now
    after, colour = table.pick()
    result.picks, result.colour = after - before, colour
    return judged(result, pins, show, released)


def judged(result: Tap, pins: Pins, show: dict, released: int) -> Tap:
    """The show as the pins played it after the release, against the one the service planned."""
    changes = pins.changes()
    later = [c for c in changes if c.ns > released]
    if later:
        result.first_edge_ms = (later[0].ns - released) / 1e6
        end = later[-1].ns + 1
        frames = show.get("frames", [])
        gap = pwm_gap(frames, pins.pinmap.gains)
        seen = observed(changes, pins.pinmap.leds, released, end, gap)
        plan = planned(frames)
        lit = [s.label for s in seen if s.label]
        result.lit = lit[-1] if lit else None
        why = mismatch(plan, seen)
        result.matched, result.why = why is None, why or ""
    else:
        result.why = "no LED edge after the release"
    return result


def hold(pins: Pins, table: Table) -> tuple[bool, int, float]:
    """A hold until the pairing window opens (tray/press.py: at 3 s, scoreboard/pairing.py):
    whether it opened, the picks it made (none), and how long the pin was down by then in
    virtual time (the trace's last time, the button still down, minus its press)."""
    before, _ = table.pick()
    edges_before = len(pins.button_changes())
    pins.press()
    down = wait_for(
        "the hold's press in qemu's trace",
        lambda: [c for c in pins.button_changes()[edges_before:] if c.level == 0],
        timeout=30,
    )[0]
    opened = bool(wait_for(
        "the pairing window after a hold",
        lambda: table.get("/api/pairing").get("open"),
        timeout=HOLD_TIMEOUT,
    ))  # fmt: skip
    pins.release()
    up = wait_for(
        "the hold's release in qemu's trace",
        lambda: [c for c in pins.button_changes()[edges_before:] if c.level == 1],
        timeout=30,
    )[0]
    time.sleep(3.0)
    after, _ = table.pick()
    return opened, after - before, (up.ns - down.ns) / 1e9


BENCH_PRESSES = 5
BENCH = (
    "systemctl stop tinker-tray && cd /tmp && bin=$(ls /opt/tinker-tray/.releases/current/.venv/"
    "bin/tinker-tray /opt/tinker-tray/.venv/bin/tinker-tray 2>/dev/null | head -1) &&"
    " $bin bench --config /etc/tinker-tray/pinmap.toml --answers yyyyyyyy --seconds 30"
    ' --fade-seconds 0.5 2>&1; echo "bench exit $?"; systemctl start tinker-tray'
)
"""The bench as a maker runs it (docs/tray.md), the service out of its way, then back."""
COUNTED = re.compile(r"(\d+) presses counted")


def walked(changes: Sequence[Change], leds: dict[str, int]) -> list[str]:
    """The LEDs in the order they first went high in `changes` (the bench's walk: each alone,
    then its fade)."""
    names = {pin: colour for colour, pin in leds.items()}
    order: list[str] = []
    for change in changes:
        if change.level and names.get(change.pin) and names[change.pin] not in order:
            order.append(names[change.pin])
    return order


def bench_inside(guest: Guest, pins: Pins, out: Path) -> str:
    """`tinker-tray bench` in the guest (the service stopped, started again after) while the check
    watches its walk of the LEDs and, once it asks for presses, presses the button BENCH_PRESSES
    times: "ok: ..." when it passed, walked the four lights in order on the pins and counted
    exactly those presses, else what differed. Its whole output goes to `out`."""
    command = [
        "ssh", "-i", str(guest.key), "-p", str(guest.port), "-o", "BatchMode=yes",
        "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
        "-o", "LogLevel=ERROR", "root@127.0.0.1", BENCH,
    ]  # fmt: skip
    lines: list[str] = []
    before, order = len(pins.changes()), []
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as process:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            if line.startswith("Press the Tinker Bell button"):
                order = walked(pins.changes()[before:], pins.pinmap.leds)
                time.sleep(2.0)
                for _ in range(BENCH_PRESSES):
                    pins.press()
                    time.sleep(TAP_S)
                    pins.release()
                    time.sleep(1.0)
    text = "".join(lines)
    out.write_text(text)
    counted = COUNTED.search(text)
    said = f"{counted.group(0) if counted else 'no presses counted'} of {BENCH_PRESSES}"
    said += f"; the pins lit {' '.join(order) or 'no LED'}"
    if (
        "bench exit 0" in text
        and counted
        and int(counted.group(1)) == BENCH_PRESSES
        and order == list(COLOURS)
    ):
        return f"ok: {said}"
    failed = [line.strip() for line in lines if "FAIL" in line or "bench exit" in line]
    return "; ".join([*failed, said])


def check(
    image: Path,
    work: Path,
    running: list[Qemu],
    *,
    port: int,
    presses: int = 20,
    bench: bool = True,
    extra: tuple[str, ...] = ICOUNT,
    pin_factory: str | None = None,
) -> int:
    """Boot `image` on the patched qemu (`extra`: its clock, the boot check's ICOUNT; the tray
    on `pin_factory`, None: the settings' own), press, hold, bench; the summary line; 0 only if
    every count matched."""
    binary = patched_qemu()
    if binary is None:
        raise BenchError("no patched qemu: ./tinker image qemu builds it (docs/image.md)")
    wheel = rpi_lgpio_wheel() if pin_factory == "rpigpio" else None
    card = pins_card(image, work, pin_factory)
    qemu = PinsQemu(card, port, port + 1, extra, binary=binary)
    qemu.trace_copy = work / "trace.log"
    running.append(qemu)
    print(f"image: {image}; patched qemu {binary.parent.name}, raspi3ap, "
          f"{' '.join(qemu.extra) or 'no -icount'}, -qtest; pin factory "
          f"{pin_factory or 'as the settings say'}; host load {os.getloadavg()[0]:.1f}",
          flush=True)  # fmt: skip
    guest, table = ready(qemu, work, wheel)
    assert qemu.pins is not None
    outcome = Outcome()
    for number in range(1, presses + 1):
        result = tap(number, number % BOUNCE_EVERY == 0, qemu.pins, table)
        outcome.taps.append(result)
        print(f"  press {number}{' (bouncing)' if result.bounced else ''}: picks {result.picks}"
              f" ({result.colour}), LED left lit {result.lit}, show"
              f" {'as planned' if result.matched else 'NOT as planned: ' + result.why},"
              f" first LED edge {result.first_edge_ms or 0:.1f} ms", flush=True)  # fmt: skip
    outcome.hold_opened, outcome.hold_picks, held = hold(qemu.pins, table)
    print(f"  hold: pairing window {'open' if outcome.hold_opened else 'NOT open'} (the pin down"
          f" {held:.1f} s of virtual time when released), picks {outcome.hold_picks}",
          flush=True)  # fmt: skip
    if bench:
        outcome.bench = bench_inside(guest, qemu.pins, work / "bench.txt")
        print(f"  tinker-tray bench in the guest: {outcome.bench}", flush=True)
    line, status = summary(outcome)
    print(line)
    return status


def ready(qemu: PinsQemu, work: Path, wheel: Path | None) -> tuple[Guest, Table]:
    """The first boot to the page, the tray put on rpi-lgpio if `wheel`, and a new game: the
    guest to look inside and the page with its token."""
    seconds, _ = first_boot_of(qemu, work / "console-1.log")
    print(f"boot: page 200 after {seconds:.0f} s", flush=True)
    guest = Guest(qemu.ssh_port, work / "bench_key")
    facts = guest.facts()
    if wheel is not None:
        print(f"  first start on the settings' rpigpio: on {facts.get('started_on')}"
              f" (no RPi.GPIO yet); {wheel.name} into the guest", flush=True)  # fmt: skip
        said = put_on_rpigpio(guest, qemu, wheel)
        print(f"  rpi-lgpio: {said}", flush=True)
        facts = guest.facts()
    token = facts.get("token", "")
    if token:
        http(qemu.port, "/api/new-game", {"players": ["Ann", "Bo"], "confirm": True},
             {"X-Table-Token": token})  # fmt: skip
    return guest, Table(qemu.port, token)
