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
    Outcome,
    Segment,
    Tap,
    install_script,
    mismatch,
    observed,
    on_intervals,
    on_rpigpio,
    planned,
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


def edges_of(shown: list[dict], start: int, stretch: float = 1.0) -> list[Change]:
    """The LED edges a tray playing `shown` from `start` (ns) makes: full on is high, a level
    between is PWM at 100 Hz (high for its share of each period), off is low; each frame's
    length times `stretch`."""
    out: list[Change] = []
    level = dict.fromkeys(LEDS.values(), 0)

    def put(pin: int, value: int, ns: int) -> None:
        if level[pin] != value:
            out.append(Change(pin, value, ns))
            level[pin] = value

    t = start
    for frame in shown:
        length = round(frame["seconds"] * 1e9 * stretch)
        for colour, value in zip(LEDS, frame["levels"], strict=True):
            pin = LEDS[colour]
            if value >= 1.0 or value <= 0.0:
                put(pin, 1 if value >= 1.0 else 0, t)
                continue
            for period in range(t, t + length, PWM_NS):
                put(pin, 1, period)
                put(pin, 0, min(t + length, period + round(PWM_NS * value)))
        t += length
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
