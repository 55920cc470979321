"""The buzzer, active or passive, on gpiozero's MockFactory: what reaches the pin, in order.

No test here sleeps: the tray runs on a clock the test moves by hand, and a marker job queued at
the new time proves every step due before it has run. The pins are gpiozero's own MockPWMPin,
extended only to keep the history of frequencies set on them (MockPWMPin keeps the current one).
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import pytest
from gpiozero import PinPWMUnsupported, TonalBuzzer
from gpiozero.pins.mock import MockFactory, MockPWMPin

from cli.commands import bench
from tests.helpers.gpio import installed_factory
from tray import config as tray_config
from tray import tunes
from tray.backend import UnknownTune
from tray.config import BuzzerConfig
from tray.devices import TrayDevices
from tray.events import Pick
from tray.gpio_tray import GpioTray
from tray.pick import Picker
from tray.service import TrayService

from .test_config import GOOD, HARDWARE, problems

E6, G6, A6, C7 = 1318.51, 1567.98, 1760.0, 2093.0


def near(hz):
    """Frequencies (None for silence) to within 0.01 Hz."""
    return pytest.approx(hz, abs=0.01)


class TonePin(MockPWMPin):
    """A MockPWMPin that also records every frequency set on it (None = PWM stopped)."""

    def __init__(self, factory, info):
        super().__init__(factory, info)
        self.frequencies: list[float | None] = []

    def _set_frequency(self, value):
        super()._set_frequency(value)
        self.frequencies.append(value)


@pytest.fixture
def tone_factory():
    """As conftest's mock_factory, with frequency-recording pins."""
    with installed_factory(TonePin) as factory:
        yield factory


class HandClock:
    """A monotonic clock that only moves when the test says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def run_until(tray: GpioTray, clock: HandClock, t: float) -> None:
    """Run every job due by now (so a tune just asked for starts now), then move the clock to
    `t` and return once every job due by then has run: a marker job at a time comes after every
    timer due before it in the scheduler's heap, including those they chain."""
    for when in (clock.now, t):
        clock.now = when
        done = threading.Event()
        tray.scheduler.call_at(when, done.set)
        assert done.wait(5.0), "the tray's scheduler did not run"


def buzzer_config(quick_config, kind: str, **kw) -> tray_config.Config:
    return dataclasses.replace(
        quick_config, buzzer=BuzzerConfig(enabled=True, pin=16, kind=kind, **kw)
    )


@pytest.fixture
def clock():
    return HandClock()


@pytest.fixture
def passive(tone_factory, quick_config, clock):
    tray = GpioTray(buzzer_config(quick_config, "passive"), pin_factory=tone_factory, clock=clock)
    tray.devices.buzzer.pwm_device.pin.frequencies.clear()  # what opening it set: 100 Hz, None
    yield tray
    tray.close()


def heard(tray: GpioTray) -> list[float | None]:
    return tray.devices.buzzer.pwm_device.pin.frequencies


# --- the tunes table ----------------------------------------------------------------------


def test_every_tune_has_a_pattern_and_a_melody_within_the_passive_range():
    low, high = tunes.passive_range()
    assert (low, high) == pytest.approx((880.0, 3520.0))
    assert set(tunes.TUNES) == {"press", "pick"}
    for name, tune in tunes.TUNES.items():
        pattern, melody = tune.steps("active"), tune.steps("passive")
        assert pattern and all(isinstance(on, bool) and s > 0 for on, s in pattern), name
        assert melody and all(s > 0 for _, s in melody), name
        notes = [hz for hz, _ in melody if hz is not None]
        assert notes and all(low <= hz <= high for hz in notes), name
        assert melody[-1][0] is not None, f"{name} ends on a rest"


def test_the_press_chirps_up_and_the_pick_chime_rises():
    assert [hz for hz, _ in tunes.TUNES["press"].steps("passive")] == near([E6, A6])
    pick = [hz for hz, _ in tunes.TUNES["pick"].steps("passive") if hz is not None]
    assert pick == near([E6, G6, C7]) and pick == sorted(pick)


def test_note_names_read_as_gpiozero_reads_them():
    """The tune table does its own note arithmetic (the USB tray reads it without gpiozero):
    every name gives the frequency gpiozero's Tone gives."""
    from gpiozero.tones import Tone

    for octave in range(10):
        for letter in "CDEFGAB":
            for accidental in ("", "#", "b", "♯", "♭"):
                name = f"{letter}{accidental}{octave}"
                try:
                    expected = Tone.from_note(name).frequency
                except ValueError:  # beyond MIDI 0..127
                    continue
                assert tunes.frequency(name) == expected, name
    for bad in ("E", "E10", "e6", "E6x", "Eb#6", ""):
        with pytest.raises(ValueError, match="a note is a name like"):
            tunes.frequency(bad)


def test_notes_are_names_or_hertz_never_midi_numbers():
    assert tunes.frequency("A4") == 440.0 and tunes.frequency("Bb6") == near(1864.66)
    assert tunes.frequency(100) == 100.0  # Hz: gpiozero's Tone(100) would read MIDI note 100
    for bad in ("H6", 0, -5, True, [440]):
        with pytest.raises(ValueError):
            tunes.frequency(bad)
    with pytest.raises(ValueError, match="'active' or 'passive'"):
        tunes.TUNES["press"].steps("piezo")


# --- the passive buzzer on the tray --------------------------------------------------------


def test_the_passive_buzzer_opens_with_the_range_the_tunes_are_checked_against(passive):
    buzzer = passive.devices.buzzer
    assert (buzzer.min_tone.frequency, buzzer.max_tone.frequency) == tunes.passive_range()


def test_a_passive_buzzer_plays_the_pick_melody_in_order_then_falls_silent(passive, clock):
    assert isinstance(passive.devices.buzzer, TonalBuzzer) and passive.capabilities.buzzer
    passive.buzz("pick")
    run_until(passive, clock, 0.0)
    assert heard(passive) == near([E6])  # the first note at once, the rest on time
    run_until(passive, clock, 0.09)
    assert heard(passive) == near([E6, None])
    run_until(passive, clock, 10.0)
    assert heard(passive) == near([E6, None, G6, None, C7, None])
    pin = passive.devices.buzzer.pwm_device.pin
    assert [s.state for s in pin.states][-6:] == [0.5, 0, 0.5, 0, 0.5, 0]  # 50 % duty, then off


def test_a_new_tune_replaces_the_one_playing(passive, clock):
    passive.buzz("pick")
    passive.buzz("press")
    run_until(passive, clock, 10.0)
    assert heard(passive) == near([E6, E6, A6, None])  # the pick's first note only


def test_an_unknown_tune_is_refused_and_plays_nothing(passive, clock):
    for name in ("fanfare", ""):
        with pytest.raises(UnknownTune, match=f"unknown tune {name!r}; known: press, pick"):
            passive.buzz(name)
    run_until(passive, clock, 10.0)
    assert heard(passive) == [] and passive.devices.buzzer.value is None


def test_close_silences_a_tune_mid_note_and_frees_the_pin(passive, clock, tone_factory):
    passive.buzz("pick")
    run_until(passive, clock, 0.0)
    pin = passive.devices.buzzer.pwm_device.pin
    assert pin.frequency == pytest.approx(E6)
    passive.close()
    assert pin.frequency is None and pin.state == 0
    assert not any(tone_factory._reservations.values())


def test_the_buzzer_uses_the_pin_factory_given(quick_config, tone_factory):
    own = MockFactory(pin_class=MockPWMPin)  # not the default factory
    try:
        devices = TrayDevices(buzzer_config(quick_config, "passive"), pin_factory=own)
        assert devices.buzzer.pin_factory is own and devices.buzzer.pwm_device.pin_factory is own
        devices.close()
    finally:
        own.reset()


def test_a_passive_buzzer_refuses_on_without_a_tone_and_notes_out_of_range(passive):
    with pytest.raises(ValueError, match="needs a frequency"):
        passive.devices.sound(True)
    with pytest.raises(ValueError, match="out of the device's range"):
        passive.devices.sound(440.0)
    passive.devices.sound(False)
    assert passive.devices.buzzer.value is None


def test_a_passive_buzzer_needs_pwm_pins(quick_config):
    factory = MockFactory()  # plain MockPin: no PWM
    try:
        with pytest.raises(PinPWMUnsupported):
            TrayDevices(buzzer_config(quick_config, "passive"), pin_factory=factory)
        assert not any(factory._reservations.values())  # the pins claimed first are released
    finally:
        factory.reset()


def test_the_service_chirps_on_a_press_and_chimes_when_the_pick_lands(
    passive, clock, bus, recorder
):
    service = TrayService(passive, bus, Picker(seed=3), passive.config)
    service.start()
    try:
        service.press()
        run_until(passive, clock, 0.0)
        assert heard(passive) == near([E6])  # the chirp starts with the show
        # The service times the end of the show on time.monotonic(): jump far past it, twice
        # (the chime is timed from the moment it starts).
        run_until(passive, clock, 1e12)
        run_until(passive, clock, 2e12)
        recorder.wait_for(Pick)
        assert heard(passive) == near([E6, A6, None, E6, None, G6, None, C7, None])
    finally:
        service.stop()


# --- the active buzzer, unchanged ----------------------------------------------------------


def test_an_active_buzzer_beeps_the_pick_pattern_on_its_pin(mock_factory, quick_config, clock):
    tray = GpioTray(buzzer_config(quick_config, "active"), clock=clock)
    try:
        tray.buzz("pick")
        with pytest.raises(UnknownTune):
            tray.buzz("no such tune")
        run_until(tray, clock, 10.0)
        assert [s.state for s in tray.devices.buzzer.pin.states] == [0, 1, 0, 1, 0, 1, 0]
        tray.buzz("press")
        run_until(tray, clock, 20.0)
        assert [s.state for s in tray.devices.buzzer.pin.states][-2:] == [1, 0]
    finally:
        tray.close()


def test_an_active_buzzer_low_side_and_silent_after_close(mock_factory, quick_config, clock):
    tray = GpioTray(buzzer_config(quick_config, "active", active_high=False), clock=clock)
    pin = tray.devices.buzzer.pin
    tray.buzz("pick")
    run_until(tray, clock, 0.0)
    assert pin.state == 0  # sounding: active low
    tray.close()
    # opened silent (high), sounding (low), silenced by close (high), then released
    assert [s.state for s in pin.states][1:] == [1, 0, 1, 0] and pin.function == "input"


def test_no_buzzer_no_sound(mock_factory, quick_config, clock):
    tray = GpioTray(quick_config, clock=clock)
    try:
        tray.buzz("pick")
        run_until(tray, clock, 10.0)
        assert not hasattr(tray.devices, "buzzer") and not tray.capabilities.buzzer
        tray.devices.sound(True)  # nothing to drive: nothing happens
    finally:
        tray.close()


# --- the pin map ---------------------------------------------------------------------------


def test_kind_defaults_to_active_so_existing_pin_maps_keep_working():
    assert tray_config.parse(GOOD + "[buzzer]\nenabled = true\n").buzzer.kind == "active"
    assert tray_config.load().buzzer == BuzzerConfig()
    assert tray_config.load(HARDWARE).buzzer.kind == "active"


@pytest.mark.parametrize("path", [None, HARDWARE])
def test_passive_on_the_shipped_pin_maps(path):
    text = (
        Path(tray_config.__file__).with_name("default.toml") if path is None else path
    ).read_text()
    text = text.replace("enabled = false", "enabled = true").replace(
        'kind = "active"', 'kind = "passive"'
    )
    buzzer = tray_config.parse(text).buzzer
    assert buzzer == BuzzerConfig(enabled=True, pin=16, kind="passive")


def test_a_bad_kind_names_its_line_before_any_pin_is_touched():
    assert problems(GOOD + '[buzzer]\nenabled = true\nkind = "piezo"\n') == [
        'pins.toml, line 8: buzzer.kind must be "active" or "passive", not "piezo"'
    ]
    [line] = problems(GOOD + "[buzzer]\nkind = 2\n")
    assert line == 'pins.toml, line 7: buzzer.kind must be "active" or "passive", not 2'


def test_an_unknown_buzzer_key_lists_the_known_ones():
    assert problems(GOOD + '[buzzer]\nkind = "passive"\ntone = "A6"\n') == [
        "pins.toml, line 8: unknown key 'buzzer.tone' (known here: enabled, kind, pin, active_high)"
    ]
    [line] = problems('buzzer = { kind = "passive", volume = 3 }\n' + GOOD)
    assert line.startswith("pins.toml, line 1: unknown key 'buzzer.volume'")


def test_active_low_means_nothing_for_a_passive_buzzer():
    [line] = problems(GOOD + '[buzzer]\nkind = "passive"\nactive_high = false\n')
    assert line.startswith(
        "pins.toml, line 8: buzzer.active_high = false does nothing for a passive buzzer"
    )


def test_a_passive_buzzer_pin_is_checked_like_any_other():
    [line] = problems(GOOD + '[buzzer]\nenabled = true\nkind = "passive"\npin = 14\n')
    assert line == (
        "pins.toml, line 9: buzzer.pin: GPIO14 is reserved for the UART bus "
        "(enabled in [gpio] buses)"
    )


# --- tinker-tray bench ---------------------------------------------------------------------


@pytest.mark.parametrize("answer", ["y", "n"])
def test_bench_plays_both_tunes_on_a_passive_buzzer(tone_factory, answer):
    config = tray_config.parse(GOOD + '[buzzer]\nenabled = true\nkind = "passive"\n')
    devices = TrayDevices(config, pin_factory=tone_factory)
    pin = devices.buzzer.pwm_device.pin
    pin.frequencies.clear()
    slept: list[float] = []
    asked: list[str] = []
    try:
        [check] = bench.beep(
            devices, config, lambda q: (asked.append(q), answer == "y")[1], sleep=slept.append
        )
        assert pin.frequencies == near([E6, A6, None, E6, None, G6, None, C7, None])
    finally:
        devices.close()
    assert sum(slept) == pytest.approx(0.07 + 0.36 + 2 * 0.5)
    assert "passive" in asked[0]
    assert check.ok == (answer == "y") and check.part == "buzzer"
    assert ("both tunes heard" if answer == "y" else 'set kind = "active"') in check.detail


def test_bench_on_an_active_buzzer_beeps_both_patterns(mock_factory):
    config = tray_config.parse(GOOD + "[buzzer]\nenabled = true\n")
    devices = TrayDevices(config, pin_factory=mock_factory)
    try:
        [check] = bench.beep(devices, config, lambda q: False, sleep=lambda s: None)
        assert [s.state for s in devices.buzzer.pin.states] == [0, 1, 0] + [1, 0] * 3
    finally:
        devices.close()
    assert not check.ok and 'set kind = "passive"' in check.detail
