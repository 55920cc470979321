"""`./tinker image check IMG --pins` (image/pins_check.py) without qemu: the show the service
plans (tray.show's frames, as /api/show gives them) against LED edges as qemu's trace gives them
(the software PWM's dim trail included), the one-line summary and its exit status, the option on
the check's command line, and the button's own changes read from the patch's level trace."""

from __future__ import annotations

import base64
import re
import subprocess
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest

from image import pins_check
from image.check import parser
from image.emulated import BenchError
from image.pins import Change, PinMap, Pins
from image.pins_check import (
    GAP_NS,
    MIN_NS,
    Outcome,
    Segment,
    Tap,
    handed_on,
    install_script,
    mismatch,
    observed,
    on_intervals,
    on_rpigpio,
    planned,
    pwm_gap,
    rpi_lgpio_wheel,
    settings_with,
    summary,
)
from tray.config import ShowSettings
from tray.show import frames

LEDS = {"red": 5, "blue": 6, "green": 13, "yellow": 19}
PWM_NS = 10_000_000  # gpiozero's PWMLED: 100 Hz


def payload(colour: str, lead: str) -> list[dict]:
    """/api/show's frames for a pick (scoreboard/reveal.py's payload), with the default show."""
    return [
        {"levels": list(f.levels), "seconds": f.seconds}
        for f in frames(colour, ShowSettings(), lead)
    ]


def edges_of(shown: list[dict], start: int, stretch: float = 1.0, grid: int = 0) -> list[Change]:
    """The LED edges a tray playing `shown` from `start` (ns) makes: full on is high, a level
    between is PWM at 100 Hz (high for its share of each period), off is low; each frame's
    length times `stretch`; with a `grid` (ns), each frame starting on the first multiple of
    it from when it was set, as lgpio's PWM starts and changes at its cycle's start."""
    out: list[Change] = []
    level = dict.fromkeys(LEDS.values(), 0)

    def put(pin: int, value: int, ns: int) -> None:
        if level[pin] != value:
            out.append(Change(pin, value, ns))
            level[pin] = value

    bounds = [start]
    for frame in shown:
        bounds.append(bounds[-1] + round(frame["seconds"] * 1e9 * stretch))
    if grid:
        bounds = [-(-b // grid) * grid for b in bounds]
    for frame, t, after in zip(shown, bounds[:-1], bounds[1:], strict=True):
        length = after - t
        for colour, value in zip(LEDS, frame["levels"], strict=True):
            pin = LEDS[colour]
            if value >= 1.0 or value <= 0.0:
                put(pin, 1 if value >= 1.0 else 0, t)
                continue
            for period in range(t, t + length, PWM_NS):
                put(pin, 1, period)
                put(pin, 0, min(t + length, period + round(PWM_NS * value)))
    return sorted(out, key=lambda c: c.ns)


def test_the_plan_is_the_lit_lights_in_order_with_their_lengths() -> None:
    plan = planned(payload("green", "red"))
    settings = ShowSettings()
    scan = settings.steps + (COLOUR_INDEX["green"] - COLOUR_INDEX["red"] - 19) % 4
    assert [s.label for s in plan[:4]] == ["red", "blue", "green", "yellow"]
    assert len(plan) == scan + 2 * settings.blinks  # the scan, then dark/on per blink
    assert plan[-1].label == "green"
    assert plan[-1].ns == round((settings.blink_s + settings.lit_s) * 1e9)  # last blink + lit
    assert plan[-2] == Segment(None, round(settings.blink_s * 1e9))


COLOUR_INDEX = {"red": 0, "blue": 1, "green": 2, "yellow": 3}


def test_edges_of_the_planned_show_match_it_pwm_trail_and_all() -> None:
    for colour, lead in [("green", "red"), ("red", "yellow"), ("yellow", "yellow")]:
        shown = payload(colour, lead)
        edges = edges_of(shown, 7_000_000_000)
        seen = observed(edges, LEDS, 6_990_000_000, edges[-1].ns + 1)
        assert mismatch(planned(shown), seen) is None
        assert [s.label for s in seen if s.label][-1] == colour


def test_a_show_a_tenth_slower_still_matches_a_third_slower_does_not() -> None:
    shown = payload("blue", "green")
    plan = planned(shown)
    slower = edges_of(shown, 0, stretch=1.1)
    assert mismatch(plan, observed(slower, LEDS, 0, slower[-1].ns + 1)) is None
    slowest = edges_of(shown, 0, stretch=1.35)
    said = mismatch(plan, observed(slowest, LEDS, 0, slowest[-1].ns + 1))
    assert said is not None and "planned" in said and "ms" in said


def test_lights_in_another_order_do_not_match() -> None:
    shown = payload("blue", "green")
    other = payload("yellow", "green")
    edges = edges_of(other, 0)
    said = mismatch(planned(shown), observed(edges, LEDS, 0, edges[-1].ns + 1))
    assert said is not None and said.startswith("planned")


def test_pwm_gaps_inside_a_lit_light_and_trail_pulses_are_not_lights() -> None:
    # on 0-50 ms with 1 ms lows every 10 ms (PWM near full), then a 25 % trail for 40 ms
    edges = [Change(5, 1, 0)]
    for ms in range(10, 50, 10):
        edges += [Change(5, 0, ms * 10**6), Change(5, 1, ms * 10**6 + 10**6)]
    edges.append(Change(5, 0, 50 * 10**6))
    for ms in range(50, 90, 10):
        edges += [Change(5, 1, ms * 10**6), Change(5, 0, ms * 10**6 + 2_500_000)]
    assert on_intervals(edges, 5, 0, 100 * 10**6) == [(0, 52_500_000)]


def test_a_light_on_when_the_window_starts_counts_from_the_start() -> None:
    edges = [Change(6, 1, 0), Change(6, 0, 30 * 10**6)]
    assert on_intervals(edges, 6, 10 * 10**6, 100 * 10**6) == [(10 * 10**6, 30 * 10**6)]


def tap(number: int, *, picks: int = 1, lit: str = "red", bounced: bool = False) -> Tap:
    edges = 6 if bounced else 2  # a bouncing press's 5 changes down, and the release
    return Tap(number, bounced, picks, "red", lit, matched=True, first_edge_ms=40.0, edges=edges)


def test_the_summary_line_and_exit_0_when_every_count_matches() -> None:
    outcome = Outcome([tap(n, bounced=n % 4 == 0) for n in range(1, 21)], hold_opened=True)
    line, status = summary(outcome)
    assert line == (
        "pins: presses 20, picks 20, bounced presses counted once 5/5, LED sequences matched"
        " 20/20, press -> first LED edge median 40 ms (emulated)"
    )
    assert status == 0


def test_exit_1_on_a_double_pick_a_wrong_light_a_closed_window_or_a_failed_bench() -> None:
    good = [tap(n, bounced=n % 4 == 0) for n in range(1, 9)]
    doubled = [*good[:3], tap(4, picks=2, bounced=True), *good[4:]]
    line, status = summary(Outcome(doubled, hold_opened=True))
    assert status == 1 and "picks 9" in line and "counted once 1/2" in line
    wrong = [*good[:7], tap(8, lit="blue")]
    line, status = summary(Outcome(wrong, hold_opened=True))
    assert status == 1 and "matched 7/8" in line
    assert summary(Outcome(good, hold_opened=False))[1] == 1
    assert summary(Outcome(good, hold_opened=True, hold_picks=1))[1] == 1
    assert summary(Outcome(good, hold_opened=True, bench="bench exit 1"))[1] == 1
    assert summary(Outcome(good, hold_opened=True, bench="ok: 5 presses counted of 5"))[1] == 0
    unbounced = [*good[:3], Tap(4, True, 1, "red", "red", True, first_edge_ms=40.0, edges=2)]
    assert "counted once 0/1" in summary(Outcome(unbounced, hold_opened=True))[0]
    assert summary(Outcome([], hold_opened=True)) == (
        "pins: presses 0, picks 0, bounced presses counted once 0/0, LED sequences matched 0/0,"
        " press -> first LED edge median none ms (emulated)",
        1,
    )


def test_the_button_changes_come_from_the_level_trace(tmp_path: Path) -> None:
    log = tmp_path / "trace.log"
    bit = 1 << 26
    log.write_text(
        f"1@1.0:bcm2835_gpio_level levels 0x{bit:x} events 0x0 at 100 ns\n"
        "1@1.1:bcm2835_gpio_output pin 5 level 1 at 150 ns\n"
        f"1@1.2:bcm2835_gpio_level levels 0x{bit | 32:x} events 0x0 at 150 ns\n"
        "1@1.3:bcm2835_gpio_level levels 0x20 events 0x4000000 at 200 ns\n"
        f"1@1.4:bcm2835_gpio_level levels 0x{bit:x} events 0x4000000 at 300 ns\n"
    )
    pins = Pins(SimpleNamespace(log=log), PinMap.load())  # type: ignore[arg-type]
    assert pins.button_changes() == [Change(26, 1, 100), Change(26, 0, 200), Change(26, 1, 300)]
    assert pins.changes() == [Change(5, 1, 150)]


def test_pins_is_an_option_of_the_check() -> None:
    args = parser().parse_args(["card.img", "--pins", "--presses", "3"])
    assert args.pins and args.presses == 3
    assert not parser().parse_args(["card.img"]).pins


# ---------------------------------------------------- the matcher and lgpio's software PWM
def test_lights_on_lgpio_pwm_grid_still_match_whatever_the_phase() -> None:
    # lgpio (lgPthTx.c) starts a PWM, and changes one, at the next start of its 10 ms cycle:
    # each end of every light lands on that grid, up to a period after the service set it (the
    # second --pins run's 28.9 ms for a 40.0 ms light); the 3 ms slack of old refused that
    for colour, lead in [("blue", "yellow"), ("red", "red"), ("green", "blue")]:
        shown = payload(colour, lead)
        for phase in range(0, PWM_NS, PWM_NS // 7):
            edges = edges_of(shown, 5_000_000_000 + phase, grid=PWM_NS)
            seen = observed(edges, LEDS, 5_000_000_000, edges[-1].ns + 1, pwm_gap(shown, {}))
            assert mismatch(planned(shown), seen) is None, (colour, lead, phase)


def test_a_first_light_a_period_short_matches_as_the_second_run_saw_it() -> None:
    # press 4 of that run: yellow lit at 26.2 ms, red at 55.1: 28.9 ms for a planned 40.0
    plan = [Segment("yellow", 40_000_000), Segment("red", 44_500_000)]
    assert mismatch(plan, [Segment("yellow", 28_900_000), Segment("red", 50_000_000)]) is None
    # but not a light half as long again, nor two periods short
    assert mismatch(plan, [Segment("yellow", 19_000_000), Segment("red", 44_500_000)])
    assert mismatch(plan, [Segment("yellow", 62_000_000), Segment("red", 44_500_000)])


def trail_held_late(pin_before: int, pin_after: int) -> list[Change]:
    """Press 10 of the second run, in small: `pin_before` lit 0-40 ms, then its 25 % trail
    (2.5 ms of each 10 ms) while `pin_after` is lit 40-100 ms, but one trail pulse held on
    10.3 ms by the guest's late PWM thread and the next begun 0.1 ms after it ended (16 ms
    high in all, with a 0.1 ms gap), as qemu's trace had it."""
    ms = 1_000_000
    before = [(0, 1), (42_500_000, 0), (50_000_000, 1), (60_300_000, 0), (60_400_000, 1)]
    before += [(66 * ms, 0), (70 * ms, 1), (72_500_000, 0)]
    after = [(40 * ms, 1), (100 * ms, 0)]
    changes = [Change(pin_before, level, ns) for ns, level in before]
    changes += [Change(pin_after, level, ns) for ns, level in after]
    return sorted(changes, key=lambda c: c.ns)


def test_a_trail_pulse_held_late_is_no_light_when_the_show_is_at_full() -> None:
    edges = trail_held_late(LEDS["green"], LEDS["yellow"])
    full = pwm_gap(payload("yellow", "green"), {})
    assert full == 0
    assert [s.label for s in observed(edges, LEDS, 0, 110_000_000, full)] == ["green", "yellow"]
    # joined over its 0.1 ms gap (a dimmed show's PWM lows), it was a light: two at once
    joined = observed(edges, LEDS, 0, 110_000_000, GAP_NS)
    assert "green+yellow" in [s.label for s in joined]


def test_the_pwm_gap_is_joined_only_below_full() -> None:
    shown = payload("red", "blue")
    assert pwm_gap(shown, {"red": 1.0, "blue": 1.0}) == 0
    assert pwm_gap(shown, {"green": 0.8}) == GAP_NS  # a lit green, dimmed by its calibration
    dimmed = [{"levels": [0.9 * v for v in f["levels"]], "seconds": f["seconds"]} for f in shown]
    assert pwm_gap(dimmed, {}) == GAP_NS
    assert PinMap.load().gains == dict.fromkeys(LEDS, 1.0)  # hardware/pinmap.toml's


def test_a_short_hand_over_counts_in_the_light_that_rose() -> None:
    ms = 1_000_000
    lights = [Segment("yellow", 80 * ms), Segment("yellow+red", 9 * ms), Segment("red", 41 * ms)]
    assert handed_on(lights) == [Segment("yellow", 80 * ms), Segment("red", 50 * ms)]
    assert handed_on([Segment("red", 40 * ms), Segment("red+blue", 2 * ms)]) == [
        Segment("red", 42 * ms)
    ]
    assert handed_on([Segment(None, MIN_NS - 1)]) == []


def test_the_dark_before_the_first_light_is_not_counted_in_it() -> None:
    edges = [Change(5, 1, 13_000_000), Change(5, 0, 53_000_000)]
    assert observed(edges, LEDS, 0, 60_000_000) == [Segment("red", 40_000_000)]


# ------------------------------------------------------ the RPi.GPIO path (rpi-lgpio)
def test_the_settings_name_the_pin_factory_asked_for() -> None:
    text = (Path(__file__).parents[2] / "hardware" / "pinmap.toml").read_text()
    assert settings_with(text, None) == text
    changed = settings_with(text, "rpigpio")
    assert tomllib.loads(changed)["gpio"]["pin_factory"] == "rpigpio"
    assert changed.replace('pin_factory = "rpigpio"', 'pin_factory = "auto"') == text
    with pytest.raises(BenchError, match="one of lgpio, rpigpio"):
        settings_with(text, "pigpio")
    with pytest.raises(BenchError, match="0 pin_factory lines"):
        settings_with("[gpio]\n", "rpigpio")


def test_pin_factory_is_an_option_of_the_pins_check() -> None:
    args = parser().parse_args(["card.img", "--pins", "--pin-factory", "rpigpio"])
    assert args.pin_factory == "rpigpio"
    assert parser().parse_args(["card.img", "--pins"]).pin_factory is None
    with pytest.raises(SystemExit):
        parser().parse_args(["card.img", "--pins", "--pin-factory", "pigpio"])


def test_the_wheel_is_fetched_once_with_pip_download(tmp_path: Path, monkeypatch) -> None:
    asked: list[tuple] = []

    def run(*command: object, input_text: str | None = None) -> str:
        asked.append(command)
        folder = Path(str(command[command.index("--dest") + 1]))
        (folder / "rpi_lgpio-0.6-py3-none-any.whl").write_bytes(b"PK")
        return ""

    monkeypatch.setattr(pins_check, "run", run)
    wheel = rpi_lgpio_wheel(tmp_path / "wheels")
    assert wheel == tmp_path / "wheels" / "rpi_lgpio-0.6-py3-none-any.whl"
    assert rpi_lgpio_wheel(tmp_path / "wheels") == wheel and len(asked) == 1
    command = [str(word) for word in asked[0]]
    assert command[1:4] == ["-m", "pip", "download"] and command[-1] == "rpi-lgpio==0.6"
    assert "--no-deps" in command and ":all:" in command  # a wheel only, lgpio not with it


def test_the_guest_script_carries_the_wheel_and_restarts_the_tray(tmp_path: Path) -> None:
    wheel = tmp_path / "rpi_lgpio-0.6-py3-none-any.whl"
    wheel.write_bytes(bytes(range(256)) * 40)
    script = install_script(wheel)
    body = re.search(r"<<'WHEEL'\n(.*?)\nWHEEL\n", script, re.S)
    assert body is not None and base64.b64decode(body.group(1)) == wheel.read_bytes()
    assert "--no-index --no-deps --no-compile" in script and '--target "$site"' in script
    assert "systemctl restart tinker-tray" in script
    assert subprocess.run(["sh", "-n"], input=script, text=True).returncode == 0


ON_RPIGPIO = """rpi_gpio=/usr/local/lib/python3.13/dist-packages/RPi/GPIO/__init__.py 0.7.2
settings=pin_factory = "rpigpio"
active=active
started_on=gpio
"""


def test_the_tray_on_rpi_lgpio_is_told_from_the_emulator_fallback() -> None:
    good, said = on_rpigpio(ON_RPIGPIO)
    assert good and "RPi/GPIO/__init__.py 0.7.2" in said and "started on gpio" in said
    fallback = ON_RPIGPIO.replace("started_on=gpio", "started_on=emulator") + (
        "said=tinker-tray: no GPIO pins found here (rpigpio: not installed)\n"
        "said=No GPIO pins on this Pi: running the emulator instead\n"
    )
    good, said = on_rpigpio(fallback)
    assert not good and "started on emulator" in said and "not installed); No GPIO" in said
    assert not on_rpigpio(ON_RPIGPIO.replace('"rpigpio"', '"auto"'))[0]
    assert on_rpigpio("")[1].startswith("RPi.GPIO not importable")
