from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tray import config
from tray.backend import COLOURS

HARDWARE = Path(__file__).resolve().parents[2] / "hardware" / "pinmap.toml"

GOOD = """\
[leds]
red = { pin = 5 }
blue = { pin = 6 }
green = { pin = 13 }
yellow = { pin = 19 }
"""


def problems(text: str) -> list[str]:
    with pytest.raises(config.ConfigError) as info:
        config.parse(textwrap.dedent(text), source="pins.toml")
    return str(info.value).splitlines()


def test_the_packaged_default_loads_and_documents_every_key():
    cfg = config.load()
    assert [cfg.leds[c].pin for c in COLOURS] == [5, 6, 13, 19]
    assert cfg.button.pin == 26 and cfg.button.pull_up and not cfg.buzzer.enabled
    text = Path(config.__file__).with_name("default.toml").read_text()
    for section, keys in config.SCHEMA.items():
        for key in keys:
            assert key in text, f"default.toml does not document {section}.{key}"


def test_the_hardware_pin_map_loads():
    assert config.load(HARDWARE).source == str(HARDWARE)


def test_a_minimal_file_takes_the_defaults():
    cfg = config.parse(GOOD)
    assert cfg.show == config.ShowSettings() and cfg.seed is None and cfg.pwm


def test_unknown_key_names_its_line_and_the_known_keys():
    lines = problems(GOOD + "[button]\npin = 26\nhold_time = 2\n")
    assert lines == [
        "pins.toml, line 8: unknown key 'button.hold_time' (known here: pin, pull_up, "
        "debounce_s, hold_s, hold_action, stuck_s)"
    ]


def test_unknown_key_inside_an_inline_table_points_at_its_line():
    [line] = problems(GOOD.replace("blue = { pin = 6 }", "blue = { pin = 6, colour = 1 }"))
    assert line.startswith("pins.toml, line 3: unknown key 'leds.blue.colour'")


def test_pin_that_does_not_exist():
    [line] = problems(GOOD.replace("pin = 19", "pin = 40"))
    assert line == (
        "pins.toml, line 5: leds.yellow.pin GPIO40 does not exist on the Pi's "
        "40-pin header (GPIO0 to GPIO27)"
    )


def test_same_pin_twice_names_the_first_user():
    [line] = problems(GOOD + "[button]\npin = 5\n")
    assert line == "pins.toml, line 7: button.pin: GPIO5 is already used by leds.red.pin"


def test_disabled_buzzer_pin_may_be_shared_but_an_enabled_one_may_not():
    config.parse(GOOD + "[buzzer]\npin = 5\n")
    [line] = problems(GOOD + "[buzzer]\nenabled = true\npin = 5\n")
    assert "line 8: buzzer.pin: GPIO5 is already used by leds.red.pin" in line


@pytest.mark.parametrize(
    ("pin", "bus"), [(2, "i2c"), (3, "i2c"), (9, "spi"), (14, "uart"), (15, "uart")]
)
def test_bus_pins_are_refused_only_when_that_bus_is_enabled(pin, bus):
    text = GOOD.replace("pin = 19", f"pin = {pin}")
    [line] = problems(text)
    assert f"line 5: leds.yellow.pin: GPIO{pin} is reserved for the {bus.upper()} bus" in line
    config.parse("[gpio]\nbuses = []\n" + text)


def test_the_hat_eeprom_pins_are_always_refused():
    [line] = problems("[gpio]\nbuses = []\n" + GOOD.replace("pin = 19", "pin = 0"))
    assert "line 7: leds.yellow.pin: GPIO0 is reserved for the HAT ID EEPROM" in line


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("[button]\ndebounce_s = 0.5", "button.debounce_s must be from 0.001 to 0.2, not 0.5"),
        (
            "[button]\nhold_action = 'dance'",
            'button.hold_action must be "repeat", "selftest" or "none", not "dance"',
        ),
        ("[button]\npull_up = 1", "button.pull_up must be true or false"),
        ("[show]\nsteps = 2.5", "show.steps must be a whole number from 4 to 200"),
        ("[show]\nbrightness = 2", "show.brightness must be from 0.05 to 1, not 2"),
        (
            "[gpio]\npin_factory = 'pigpio'",
            'gpio.pin_factory must be "auto", "lgpio", "rpigpio" or "mock", not "pigpio"',
        ),
        ("[gpio]\nbuses = ['can']", 'gpio.buses must be a list drawn from "i2c", "spi", "uart"'),
        ("[button]\npull_up = 'yes'", "button.pull_up must be true or false"),
        (
            "[button]\nhold_action = true",
            'button.hold_action must be "repeat", "selftest" or "none", not true',
        ),
        ("[button]\npin = true", "button.pin must be a BCM GPIO number"),
    ],
)
def test_values_out_of_range_or_of_the_wrong_type(entry, message):
    [line] = problems(GOOD + entry + "\n")
    assert line.startswith("pins.toml, line 7: " + message)


def test_cross_checks():
    lines = problems(
        GOOD + "[button]\nhold_s = 2\nstuck_s = 1\n[show]\nfirst_step_s = 0.5\nlast_step_s = 0.1\n"
    )
    assert lines == [
        "pins.toml, line 8: button.stuck_s must be longer than hold_s",
        "pins.toml, line 10: show.first_step_s must not exceed last_step_s",
    ]


def test_missing_leds():
    assert problems("[button]\npin = 26\n") == [
        "pins.toml: the [leds] table is missing (it needs red, blue, green, yellow)"
    ]
    assert problems(GOOD.replace("yellow = { pin = 19 }\n", "")) == [
        "pins.toml, line 1: leds.yellow is missing (it needs a pin)"
    ]
    assert problems(GOOD.replace("{ pin = 19 }", "{ active_high = false }")) == [
        "pins.toml, line 5: leds.yellow needs a pin"
    ]


def test_every_problem_is_reported_at_once():
    lines = problems(GOOD.replace("pin = 6", "pin = 5") + "[show]\nsteps = 0\nbogus = 1\n")
    assert len(lines) == 3


def test_broken_toml_names_the_line():
    assert problems("[leds]\nred = { pin = 5 \n") == [
        "pins.toml, line 2: not valid TOML: Unclosed inline table"
    ]


def test_a_file_saved_with_a_byte_order_mark_is_read(tmp_path):
    """Notepad and some other editors start a UTF-8 file with a BOM; TOML itself has none."""
    path = tmp_path / "pins.toml"
    path.write_bytes("\ufeff".encode() + (GOOD + "[pick]\nseed = 7\n").encode())
    assert config.load(path).seed == 7
    path.write_bytes("\ufeff".encode() + (GOOD + "[pick]\nseed = -1\n").encode())
    with pytest.raises(config.ConfigError, match=rf"^{path}, line 7: pick.seed must be from 0"):
        config.load(path)  # and the lines are still counted right


@pytest.mark.parametrize("deep", ["[" * 1200 + "]" * 1200, "{a = " * 1200 + "1" + "}" * 1200])
def test_a_file_nested_1200_deep_is_refused_by_line(deep):
    assert problems(GOOD + f"[pick]\nseed = {deep}\n") == [
        "pins.toml, line 7: brackets or braces nested hundreds deep: a pin map needs a few tables"
    ]


def test_an_endless_file_is_refused_not_read_forever():
    with pytest.raises(config.ConfigError, match=r"^/dev/zero: is over 1 MB: not a pin map$"):
        config.load("/dev/zero")


def test_unreadable_file_names_the_file(tmp_path):
    missing = tmp_path / "nope.toml"
    with pytest.raises(config.ConfigError, match=r"nope\.toml: cannot read: No such file"):
        config.load(missing)
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(config.ConfigError, match=r"bin\.toml: is not UTF-8 text"):
        config.load(binary)


def test_load_reads_a_file_and_names_it(tmp_path):
    path = tmp_path / "pins.toml"
    path.write_text(GOOD + "[pick]\nseed = 7\n")
    assert config.load(path).seed == 7
    path.write_text(GOOD + "[pick]\nseed = -1\n")
    with pytest.raises(config.ConfigError, match=rf"^{path}, line 7: pick.seed must be from 0"):
        config.load(path)


def test_default_path_prefers_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("TINKER_TRAY_CONFIG", str(tmp_path / "x.toml"))
    assert config.default_path() == tmp_path / "x.toml"
    monkeypatch.delenv("TINKER_TRAY_CONFIG")
    assert config.default_path().name in ("default.toml", "pinmap.toml")


def test_the_hardware_pin_map_is_the_packaged_default_byte_for_byte():
    """One pin map: hardware/pinmap.toml (what the wiring docs and the systemd unit install) is a
    copy of tray/default.toml, kept equal here rather than by hand."""
    default = Path(config.__file__).with_name("default.toml")
    assert HARDWARE.read_bytes() == default.read_bytes(), (
        "hardware/pinmap.toml differs from tray/default.toml: edit tray/default.toml, then "
        "cp tray/default.toml hardware/pinmap.toml"
    )
