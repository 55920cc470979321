"""`tinker-tray bench`: test the wiring while building the tray, and print a wiring report.

1. The button input, untouched: it must rest at its released level (pull resistor on the right
   rail, nothing shorted) and not change at all while sampled (a floating or noisy input does).
2. Each light: on alone, then a fade out (PWM) or off; the person confirms what they saw.
3. The buzzer, if enabled: the press chirp and the pick chime, as the service plays them on the
   configured kind (active: beeps; passive: notes), to confirm by ear.
4. Presses for a few seconds: raw edges are timestamped, grouped into physical transitions
   (edges closer than 50 ms), the contact bounce of each is measured, presses are counted by
   the same detector the service uses, and a debounce time is recommended.
Exit status 0 if every part passes, 1 if any fails, 2 if the pins cannot be opened.

For tests and a first try without hardware, `--mock` runs it on MockFactory pins with the
presses (and their bounce) scripted, and `--answers yyn...` answers the questions, one letter
each, in order. Too few answers are refused before a light is lit (a question never gets an
answer nobody gave); more than the bench asks are said, and the rest is left unused.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import math
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from cli.arguments import at_least, milliseconds, seconds
from cli.commands.run import load_config
from tray.backend import COLOURS, DARK
from tray.config import Config
from tray.press import PressDetector
from tray.tunes import TUNES

CLUSTER_GAP = 0.05  # edges closer than this belong to one physical transition


@dataclasses.dataclass
class Check:
    part: str
    ok: bool
    detail: str


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="pin map (default as for `run`)")
    parser.add_argument(
        "--seconds",
        type=seconds,
        default=10.0,
        help="how long to count presses (default %(default)s)",
    )
    parser.add_argument(
        "--answers",
        type=yes_no,
        metavar="YN",
        help="answer the questions instead of asking (scripted runs): one y or n each, in "
        "order, 2 for each light (on alone? then faded or off?), then 1 for the buzzer if "
        "it is enabled (8 or 9 in all, e.g. yyyyyyyy); too few are refused before a light "
        "is lit",
    )
    parser.add_argument(
        "--fade-seconds",
        type=seconds,
        default=1.0,
        help="length of each light's fade test (default %(default)s)",
    )
    parser.add_argument(
        "--mock",
        action="store_true",
        help="MockFactory pins with scripted presses (no hardware needed)",
    )
    parser.add_argument(
        "--mock-presses",
        type=at_least(0),
        default=5,
        metavar="N",
        help="with --mock: presses to script (default %(default)s)",
    )
    parser.add_argument(
        "--mock-bounce",
        type=at_least(0),
        default=3,
        metavar="K",
        help="with --mock: bounces per edge (default %(default)s)",
    )
    parser.add_argument(
        "--mock-bounce-ms",
        type=milliseconds,
        default=0.0,
        metavar="MS",
        help="with --mock: how long each edge bounces, in ms (default 0: the "
        "bounces come back to back)",
    )


class NoAnswer(Exception):
    """The questions cannot be answered: no terminal (and no --answers), or its input ended."""

    MESSAGE = (
        "the bench test asks what you see and hear: run it in a terminal, or give the "
        "answers with --answers (e.g. --answers yyyyyyyy: see --help)"
    )


def yes_no(text: str) -> str:
    """--answers: y and n only (any other letter would be taken for a no)."""
    if not text or set(text.lower()) - {"y", "n"}:
        raise argparse.ArgumentTypeError(f"takes y and n only, one for each question, not {text!r}")
    return text.lower()


def questions(config: Config) -> int:
    """How many questions the bench asks with this pin map (`walk_lights`, `beep`)."""
    return 2 * len(COLOURS) + (1 if config.buzzer.enabled else 0)


def answers_problem(answers: str, config: Config) -> str | None:
    """Why --answers cannot answer the bench's questions (too few), else None."""
    asked = questions(config)
    if len(answers) >= asked:
        return None
    buzzer = ", 1 for the buzzer" if config.buzzer.enabled else ""
    return (
        f"--answers gave {_answers(len(answers))}; the bench asks "
        f"{asked} questions (2 for each light{buzzer}): give one y or n for each"
    )


def _answers(count: int) -> str:
    return f"{count} answer" + ("" if count == 1 else "s")


def asker(answers: str | None, out: Any) -> Callable[[str], bool]:
    queue = list(answers.lower()) if answers is not None else None
    asked = 0

    def ask(question: str) -> bool:
        nonlocal asked
        asked += 1
        if queue is not None:
            if not queue:
                raise NoAnswer(
                    f"--answers gave {_answers(asked - 1)}, none for question {asked}: {question}"
                )
            answer = queue.pop(0)
            print(f"{question} [y/n] {answer}", file=out)
        else:
            try:
                answer = input(f"{question} [y/n] ").strip().lower()[:1]
            except EOFError:
                raise NoAnswer(NoAnswer.MESSAGE) from None
        return answer == "y"

    return ask


def check_idle_input(devices: Any, config: Config, seconds: float = 0.5) -> list[Check]:
    button = devices.button
    rail = "3.3 V (pull-up)" if config.button.pull_up else "ground (pull-down)"
    checks = [
        Check(
            "button: idle level",
            not button.is_active,
            f"GPIO{config.button.pin} rests released, pulled to {rail}"
            if not button.is_active
            else f"GPIO{config.button.pin} reads PRESSED with nobody touching it: a short, "
            f"the button wired to the wrong rail, or pull_up set wrongly",
        )
    ]
    changes, last, end = 0, button.value, time.monotonic() + seconds
    while time.monotonic() < end:
        value = button.value
        changes += value != last
        last = value
        time.sleep(0.001)
    checks.append(
        Check(
            "button: no floating",
            changes == 0,
            "steady while untouched"
            if changes == 0
            else f"changed {changes} times while untouched: the input floats or picks "
            "up noise (check the ground wire and the pull resistor)",
        )
    )
    return checks


def walk_lights(
    devices: Any, config: Config, ask: Callable[[str], bool], fade_seconds: float = 1.0
) -> list[Check]:
    checks = []
    for i, colour in enumerate(COLOURS):
        levels = [0.0] * 4
        levels[i] = 1.0
        devices.set_levels(tuple(levels))
        lit = ask(f"Is the {colour.upper()} light on, and no other?")
        if config.pwm:
            for step in range(20, -1, -1):
                levels[i] = step / 20
                devices.set_levels(tuple(levels))
                time.sleep(fade_seconds / 20)
            faded = ask(f"Did the {colour.upper()} light fade out smoothly and go off?")
        else:
            devices.set_levels(DARK)
            faded = ask(f"Did the {colour.upper()} light go off?")
        devices.set_levels(DARK)
        pin = config.leds[colour].pin
        detail = f"GPIO{pin}: " + (
            "on, fade and off seen"
            if lit and faded
            else (
                "did not light: check its resistor, polarity (long leg to "
                "the GPIO side) and active_high"
                if not lit
                else "lit but did not fade/go off: check active_high"
            )
        )
        checks.append(Check(f"light: {colour}", lit and faded, detail))
    return checks


def play_steps(
    sound: Callable[[Any], None],
    steps: Sequence[tuple[Any, float]],
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Play a tune's steps in real time (the bench has no scheduler), then silence."""
    try:
        for value, seconds in steps:
            sound(value)
            sleep(seconds)
    finally:
        sound(None)


BUZZER_HINTS = {
    "active": "silent or only a click: if it is a passive piezo (no sound on plain 3.3 V), set "
    'kind = "passive"; else check its + leg is on the GPIO and active_high',
    "passive": "silent or a rasp: if it beeps by itself on 3.3 V it is an active buzzer, set "
    'kind = "active"; else check its two wires (GPIO and ground)',
}


def beep(
    devices: Any,
    config: Config,
    ask: Callable[[str], bool],
    sleep: Callable[[float], None] = time.sleep,
) -> list[Check]:
    """Play both tunes, with a pause between them, and ask whether they were heard."""
    if not config.buzzer.enabled:
        return []
    kind = config.buzzer.kind
    for name in ("press", "pick"):
        play_steps(devices.sound, TUNES[name].steps(kind), sleep)
        sleep(0.5)
    heard = ask(f"Did you hear a quick chirp, then a little chime ({kind} buzzer)?")
    return [
        Check(
            "buzzer",
            heard,
            f"GPIO{config.buzzer.pin} ({kind}): "
            + ("both tunes heard" if heard else BUZZER_HINTS[kind]),
        )
    ]


def bounce_report(edges: list[tuple[float, bool]], config: Config) -> tuple[list[Check], str]:
    """Count presses with the service's own detector; measure bounce from edge clusters."""
    detector = PressDetector(
        config.button.debounce_s, config.button.hold_s, config.button.stuck_s, wall_offset=0.0
    )
    presses = 0
    for t, pressed in [*edges, (math.inf, None)]:
        while detector.next_deadline is not None and detector.next_deadline <= t:
            events = detector.poll(detector.next_deadline)
            presses += sum(e.type == "button_pressed" for e in events)
        if pressed is not None:
            events = detector.feed(pressed, t)
            presses += sum(e.type == "button_pressed" for e in events)
    clusters: list[list[float]] = []
    for t, _ in edges:
        if clusters and t - clusters[-1][-1] < CLUSTER_GAP:
            clusters[-1].append(t)
        else:
            clusters.append([t])
    bounces = [c[-1] - c[0] for c in clusters]
    worst = max(bounces, default=0.0)
    recommend = min(0.2, max(0.005, math.ceil((worst * 1.5 + 0.002) * 1000) / 1000))
    summary = (
        f"{len(edges)} edges in {len(clusters)} transitions; worst bounce "
        f"{worst * 1000:.1f} ms; recommended debounce_s = {recommend:g} "
        f"(now {config.button.debounce_s:g})"
    )
    checks = [
        Check(
            "button: presses",
            presses > 0,
            f"{presses} presses counted"
            if presses
            else "no press seen: check the button's two wires (GPIO and ground)",
        ),
        Check(
            "button: debounce",
            worst < config.button.debounce_s,
            f"bounce {worst * 1000:.1f} ms is within debounce_s"
            if worst < config.button.debounce_s
            else f"bounce {worst * 1000:.1f} ms exceeds debounce_s: set debounce_s = {recommend:g}",
        ),
    ]
    return checks, summary


def count_presses(
    devices: Any, seconds: float, script: Callable[[], None] | None, out: Any
) -> list[tuple[float, bool]]:
    edges: list[tuple[float, bool]] = []

    def edge(pressed: bool) -> Callable[[], None]:
        def callback() -> None:
            with contextlib.suppress(Exception):  # nothing may escape a GPIO callback
                edges.append((time.monotonic(), pressed))

        return callback

    devices.button.when_activated = edge(True)
    devices.button.when_deactivated = edge(False)
    print(
        f"Press the Tinker Bell button a few times in the next {seconds:g} seconds...",
        file=out,
        flush=True,
    )
    presser = None
    if script is not None:
        presser = threading.Thread(target=script, daemon=True)
        presser.start()
    time.sleep(seconds)
    if presser is not None:
        presser.join()  # every scripted press counts, however slowly a loaded machine ran it
    devices.button.when_activated = None
    devices.button.when_deactivated = None
    return edges


def scripted_presses(
    pin: Any, presses: int, bounces: int, bounce_s: float = 0.0
) -> Callable[[], None]:
    """A finger on mock pins: each edge bounces `bounces` times over at least `bounce_s`
    seconds (0: back to back, so the machine's scheduling cannot stretch it)."""
    gap = bounce_s / (2 * bounces) if bounces else 0.0

    def wiggle(final_low: bool) -> None:
        for _ in range(bounces):
            (pin.drive_low if final_low else pin.drive_high)()
            if gap:
                time.sleep(gap)
            (pin.drive_high if final_low else pin.drive_low)()
            if gap:
                time.sleep(gap)
        (pin.drive_low if final_low else pin.drive_high)()

    def script() -> None:
        for _ in range(presses):
            wiggle(True)
            time.sleep(0.08)
            wiggle(False)
            time.sleep(0.08)

    return script


def bench(config: Config, factory: Any, args: argparse.Namespace, out: Any = sys.stdout) -> int:
    from tray.devices import TrayDevices

    ask = asker(args.answers, out)
    devices = TrayDevices(config, pin_factory=factory)
    try:
        devices.set_levels(DARK)
        print(f"Bench test of the tray wired as in {config.source}", file=out)
        checks = check_idle_input(devices, config)
        checks += walk_lights(devices, config, ask, args.fade_seconds)
        checks += beep(devices, config, ask)
        script = (
            scripted_presses(
                devices.button.pin, args.mock_presses, args.mock_bounce, args.mock_bounce_ms / 1000
            )
            if args.mock
            else None
        )
        edges = count_presses(devices, args.seconds, script, out)
        press_checks, summary = bounce_report(edges, config)
        checks += press_checks
    finally:
        devices.set_levels(DARK)
        devices.close()
    print("\nWiring report", file=out)
    width = max(len(c.part) for c in checks)
    for c in checks:
        print(f"  {'PASS' if c.ok else 'FAIL'}  {c.part:<{width}}  {c.detail}", file=out)
    print(f"  bounce: {summary}", file=out)
    failed = sum(not c.ok for c in checks)
    print(f"\n{'All parts pass.' if not failed else f'{failed} check(s) failed.'}", file=out)
    return 1 if failed else 0


def run(args: argparse.Namespace) -> int:
    config = load_config(args)
    if config is None:
        return 2
    if args.answers is not None:  # before a pin is opened
        if problem := answers_problem(args.answers, config):
            print(f"tinker-tray bench: {problem}", file=sys.stderr)
            return 2
        if (extra := len(args.answers) - questions(config)) > 0:
            print(
                f"tinker-tray bench: --answers gave {_answers(len(args.answers))}; the bench "
                f"asks {questions(config)} questions, so "
                + ("the last is not used" if extra == 1 else f"the last {extra} are not used"),
                file=sys.stderr,
            )
    from tray.pins import NoGpio, NoGpioAccess, make_pin_factory

    try:
        factory = make_pin_factory("mock" if args.mock else config.pin_factory)
    except NoGpioAccess as exc:
        print(f"tinker-tray bench: {exc}", file=sys.stderr)
        return 2
    except NoGpio as exc:
        print(
            f"tinker-tray bench: {exc}.\nRun it on the Pi the tray is wired to, or try "
            "`tinker-tray bench --mock` to see what it does.",
            file=sys.stderr,
        )
        return 2
    if args.answers is None and not sys.stdin.isatty():  # checked before a light is lit
        print(f"tinker-tray bench: {NoAnswer.MESSAGE}", file=sys.stderr)
        return 2
    try:
        return bench(config, factory, args)
    except NoAnswer as exc:  # the input ended half-way: the pins are released already
        print(f"\ntinker-tray bench: {exc}", file=sys.stderr)
        return 2
