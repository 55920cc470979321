"""The pin map and settings file (TOML), checked completely before any pin is touched.

A mistake in the wiring file must not half-start a tray, drive the wrong pin, or be ignored:
every problem (unknown key, wrong type, value out of range, a pin that does not exist, the same
pin twice, a pin that belongs to an enabled bus) is collected and reported together, each with
the file and line it comes from. `tomllib` gives no positions for keys, so `_key_lines` maps
key paths to lines with a small line scanner; inline tables fall back to the line of the table.
"""

from __future__ import annotations

import dataclasses
import os
import re
import tomllib
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from tray.backend import COLOURS

DEFAULT_NAME = "default.toml"
SYSTEM_PATH = Path("/etc/tinker-tray/pinmap.toml")
HEADER_GPIOS = range(28)  # BCM GPIO0..GPIO27 are on the 40-pin header of every Pi since the B+.
ALWAYS_RESERVED = {0: "the HAT ID EEPROM (ID_SD)", 1: "the HAT ID EEPROM (ID_SC)"}
BUS_PINS: dict[str, tuple[int, ...]] = {
    "i2c": (2, 3),
    "spi": (7, 8, 9, 10, 11),
    "uart": (14, 15),
}
PIN_FACTORIES = ("auto", "lgpio", "rpigpio", "mock")
HOLD_ACTIONS = ("repeat", "selftest", "none")
BUZZER_KINDS = ("active", "passive")
MQTT_SCHEMES = ("mqtt", "mqtts")


@dataclasses.dataclass(frozen=True)
class LedConfig:
    pin: int
    active_high: bool = True
    brightness: float = 1.0


@dataclasses.dataclass(frozen=True)
class ButtonConfig:
    pin: int = 26
    pull_up: bool = True
    debounce_s: float = 0.02
    hold_s: float = 1.5
    hold_action: str = "repeat"
    stuck_s: float = 10.0


@dataclasses.dataclass(frozen=True)
class BuzzerConfig:
    enabled: bool = False
    pin: int = 16
    active_high: bool = True  # an active buzzer's polarity; a tone sounds the same either way
    kind: str = "active"  # "active": on/off (gpiozero Buzzer); "passive": tones (TonalBuzzer)


@dataclasses.dataclass(frozen=True)
class ShowSettings:
    """What `tray.show.frames` needs; the defaults are those of default.toml."""

    steps: int = 20
    first_step_s: float = 0.04
    last_step_s: float = 0.3
    trail: float = 0.25
    blinks: int = 3
    blink_s: float = 0.15
    lit_s: float = 5.0
    brightness: float = 1.0


@dataclasses.dataclass(frozen=True)
class MqttSettings:
    """The optional [mqtt] section: where the table publishes (see docs/mqtt.md). Only the
    *names* of the password's file or environment variable live here, never the password."""

    url: str
    table: str = "table"
    username: str | None = None
    password_file: str | None = None
    password_env: str | None = None
    ca_file: str | None = None
    discovery_prefix: str = "homeassistant"
    allow_press: bool = False


@dataclasses.dataclass(frozen=True)
class Config:
    leds: dict[str, LedConfig]  # COLOURS order
    pwm: bool = True
    button: ButtonConfig = ButtonConfig()
    buzzer: BuzzerConfig = BuzzerConfig()
    show: ShowSettings = ShowSettings()
    seed: int | None = None
    pin_factory: str = "auto"
    buses: tuple[str, ...] = ("i2c", "spi", "uart")
    mqtt: MqttSettings | None = None
    source: str = "<defaults>"


@dataclasses.dataclass(frozen=True)
class Problem:
    line: int | None
    message: str


class ConfigError(ValueError):
    """A pin map that cannot be used; str() names the file, each line and each problem."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.source = source
        self.problems = sorted(problems, key=lambda p: p.line or 0)  # in file order
        super().__init__("\n".join(self._format(p) for p in self.problems))

    def _format(self, problem: Problem) -> str:
        where = self.source if problem.line is None else f"{self.source}, line {problem.line}"
        return f"{where}: {problem.message}"


# --- the schema: section -> key -> (check, default) -----------------------------------------

Check = Callable[[Any], str | None]  # returns a problem ("must be ...") or None


def _boolean(value: Any) -> str | None:
    return None if isinstance(value, bool) else "must be true or false"


def _integer(low: int, high: int) -> Check:
    def check(value: Any) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int):
            return f"must be a whole number from {low} to {high}"
        if not low <= value <= high:
            return f"must be from {low} to {high}, not {value}"
        return None

    return check


def _number(low: float, high: float) -> Check:
    def check(value: Any) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return f"must be a number from {low:g} to {high:g}"
        if not low <= value <= high:
            return f"must be from {low:g} to {high:g}, not {value:g}"
        return None

    return check


def _choice(*options: str) -> Check:
    def check(value: Any) -> str | None:
        if value not in options:
            return f"must be {_either(options)}, not {_toml(value)}"
        return None

    return check


def _toml(value: Any) -> str:
    """A value as it is written in the file: "passive", true, 3."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def _either(options: tuple[str, ...]) -> str:
    """ "a" or "b";  "a", "b" or "c"."""
    quoted = [_toml(o) for o in options]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"


def _buses(value: Any) -> str | None:
    if not isinstance(value, list) or any(v not in BUS_PINS for v in value):
        return f"must be a list drawn from {', '.join(map(_toml, BUS_PINS))}"
    return None


def _pin(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return "must be a BCM GPIO number (a whole number, e.g. 26 for GPIO26)"
    if value not in HEADER_GPIOS:
        return f"GPIO{value} does not exist on the Pi's 40-pin header (GPIO0 to GPIO27)"
    return None


def _text(pattern: str, what: str) -> Check:
    def check(value: Any) -> str | None:
        if not isinstance(value, str) or not re.fullmatch(pattern, value):
            return f"must be {what}"
        return None

    return check


def mqtt_url_problem(value: Any) -> str | None:
    """Why `value` is not a broker address (mqtt://host[:port] or mqtts://...), or None."""
    from urllib.parse import urlsplit

    if not isinstance(value, str):
        return 'must be a broker address such as "mqtt://192.168.1.10:1883"'
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError as exc:
        return f"is not a broker address ({exc}): {value!r}"
    if parts.scheme not in MQTT_SCHEMES or not parts.hostname:
        return f"must look like mqtt://host:1883 or mqtts://host:8883, not {value!r}"
    if parts.path not in ("", "/") or parts.query or parts.username or port == 0:
        return (
            "takes only a host and a port (the user and password have their own keys), "
            f"not {value!r}"
        )
    return None


TABLE_NAME = r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}"
"""A table's name is part of MQTT topics and Home Assistant ids: letters, digits, - and _."""

_LED_SCHEMA: dict[str, Check] = {
    "pin": _pin,
    "active_high": _boolean,
    "brightness": _number(0.0, 1.0),
}

SCHEMA: dict[str, dict[str, Check]] = {
    "gpio": {"pin_factory": _choice(*PIN_FACTORIES), "buses": _buses},
    "button": {
        "pin": _pin,
        "pull_up": _boolean,
        "debounce_s": _number(0.001, 0.2),
        "hold_s": _number(0.3, 10.0),
        "hold_action": _choice(*HOLD_ACTIONS),
        "stuck_s": _number(0.5, 600.0),
    },
    "leds": {"pwm": _boolean, **dict.fromkeys(COLOURS, _LED_SCHEMA)},  # type: ignore[arg-type]
    "buzzer": {
        "enabled": _boolean,
        "kind": _choice(*BUZZER_KINDS),
        "pin": _pin,
        "active_high": _boolean,
    },
    "show": {
        "steps": _integer(4, 200),
        "first_step_s": _number(0.01, 2.0),
        "last_step_s": _number(0.01, 2.0),
        "trail": _number(0.0, 1.0),
        "blinks": _integer(0, 20),
        "blink_s": _number(0.02, 2.0),
        "lit_s": _number(0.0, 3600.0),
        "brightness": _number(0.05, 1.0),
    },
    "pick": {"seed": _integer(0, 2**63 - 1)},
    "mqtt": {
        "url": mqtt_url_problem,
        "table": _text(TABLE_NAME, "a name of letters, digits, - and _ (at most 40)"),
        "username": _text(r".{1,200}", "text"),
        "password_file": _text(r".{1,4096}", "a file name"),
        "password_env": _text(r"[A-Za-z_][A-Za-z0-9_]*", "an environment variable's name"),
        "ca_file": _text(r".{1,4096}", "a file name"),
        "discovery_prefix": _text(r"[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*", "an MQTT topic prefix"),
        "allow_press": _boolean,
    },
}


# --- locating keys in the text -------------------------------------------------------------

_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$")
_PART = r'(?:[A-Za-z0-9_-]+|"[^"]*")'
_KEY = re.compile(rf"^\s*({_PART}(?:\s*\.\s*{_PART})*)\s*=")


def _split_key(text: str) -> tuple[str, ...]:
    return tuple(part.strip().strip('"') for part in text.split("."))


def _key_lines(text: str) -> dict[tuple[str, ...], int]:
    """Map each table and key path to its 1-based line (first occurrence)."""
    lines: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    for number, line in enumerate(text.splitlines(), start=1):
        if match := _HEADER.match(line):
            table = _split_key(match.group(1))
            lines.setdefault(table, number)
        elif match := _KEY.match(line):
            lines.setdefault(table + _split_key(match.group(1)), number)
    return lines


def _line_of(lines: dict[tuple[str, ...], int], path: tuple[str, ...]) -> int | None:
    for end in range(len(path), 0, -1):  # fall back to the enclosing (inline) table
        if path[:end] in lines:
            return lines[path[:end]]
    return None


# --- loading --------------------------------------------------------------------------------


def default_path() -> Path:
    """The file `tinker-tray run` reads when no --config is given: $TINKER_TRAY_CONFIG, then
    /etc/tinker-tray/pinmap.toml if present, then the packaged default."""
    if env := os.environ.get("TINKER_TRAY_CONFIG"):
        return Path(env)
    if SYSTEM_PATH.exists():
        return SYSTEM_PATH
    return Path(str(resources.files("tray").joinpath(DEFAULT_NAME)))


MAX_BYTES = 1_000_000
"""A pin map is a few hundred bytes; a file this big (or endless, like /dev/zero) is not one."""


def load(path: str | os.PathLike[str] | None = None) -> Config:
    """Read and check a pin map; `None` means the packaged default. Raises ConfigError."""
    if path is None:
        text = resources.files("tray").joinpath(DEFAULT_NAME).read_text(encoding="utf-8")
        return parse(text, source=f"<packaged {DEFAULT_NAME}>")
    try:
        with open(path, "rb") as file:  # a bounded read: /dev/zero has no end
            data = file.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise ConfigError(str(path), [Problem(None, "is over 1 MB: not a pin map")])
        text = data.decode("utf-8")
    except OSError as exc:
        raise ConfigError(str(path), [Problem(None, f"cannot read: {exc.strerror}")]) from None
    except UnicodeDecodeError:
        raise ConfigError(str(path), [Problem(None, "is not UTF-8 text")]) from None
    return parse(text, source=str(path))


def parse(text: str, source: str = "<text>") -> Config:
    text = text.removeprefix("\ufeff")  # a byte-order mark, as some Windows editors save
    try:
        data = tomllib.loads(text)
    except RecursionError:  # tomllib recurses once per nested array or inline table
        problem = "brackets or braces nested hundreds deep: a pin map needs a few tables"
        raise ConfigError(source, [Problem(_deep_line(text), problem)]) from None
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        line = int(match.group(1)) if match else None
        raise ConfigError(source, [Problem(line, f"not valid TOML: {message}")]) from None
    return _Checker(data, _key_lines(text), source).config()


def _deep_line(text: str, limit: int = 100) -> int | None:
    """The line where brackets or braces first nest deeper than `limit` (roughly: a bracket
    in a string or comment counts too), to point at; None if none does."""
    depth = 0
    for number, line in enumerate(text.splitlines(), start=1):
        for char in line:
            if char in "[{":
                depth += 1
                if depth > limit:
                    return number
            elif char in "]}":
                depth = max(0, depth - 1)
    return None


class _Checker:
    def __init__(self, data: dict[str, Any], lines: dict[tuple[str, ...], int], source: str):
        self.data, self.lines, self.source = data, lines, source
        self.problems: list[Problem] = []

    def problem(self, path: tuple[str, ...], message: str) -> None:
        self.problems.append(Problem(_line_of(self.lines, path), message))

    def table(self, value: Any, schema: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
        """The keys of `value` that pass `schema`; records a problem for every other one."""
        name = ".".join(path) or "the top level"
        if not isinstance(value, dict):
            self.problem(path, f"[{name}] must be a table")
            return {}
        good: dict[str, Any] = {}
        for key, item in value.items():
            check = schema.get(key)
            where = (*path, key)
            if check is None:
                known = ", ".join(schema)
                self.problem(where, f"unknown key {'.'.join(where)!r} (known here: {known})")
            elif isinstance(check, dict):
                good[key] = self.table(item, check, where)
            elif (message := check(item)) is not None:
                self.problem(where, f"{'.'.join(where)} {message}")
            else:
                good[key] = item
        return good

    def config(self) -> Config:
        top = self.table(self.data, SCHEMA, ())
        gpio = top.get("gpio", {})
        button = ButtonConfig(**top.get("button", {}))
        buzzer = BuzzerConfig(**top.get("buzzer", {}))
        led_tables = top.get("leds", {})
        raw_leds = self.data.get("leds")
        if raw_leds is None:
            self.problem((), "the [leds] table is missing (it needs red, blue, green, yellow)")
        leds: dict[str, LedConfig] = {}
        for colour in COLOURS:
            raw = raw_leds.get(colour) if isinstance(raw_leds, dict) else None
            fields = led_tables.get(colour)
            if raw is None:
                if isinstance(raw_leds, dict):
                    self.problem(("leds",), f"leds.{colour} is missing (it needs a pin)")
            elif isinstance(raw, dict) and "pin" not in raw:
                self.problem(("leds", colour), f"leds.{colour} needs a pin")
            elif fields is not None and "pin" in fields:
                leds[colour] = LedConfig(**fields)
        show = ShowSettings(**top.get("show", {}))
        if show.first_step_s > show.last_step_s:
            self.problem(("show", "first_step_s"), "show.first_step_s must not exceed last_step_s")
        if button.stuck_s <= button.hold_s:
            self.problem(("button", "stuck_s"), "button.stuck_s must be longer than hold_s")
        if buzzer.kind == "passive" and not buzzer.active_high:
            self.problem(
                ("buzzer", "active_high"),
                "buzzer.active_high = false does nothing for a passive buzzer (a tone "
                'sounds the same either way up): remove it, or set kind = "active"',
            )
        buses = tuple(gpio.get("buses", ("i2c", "spi", "uart")))
        self.check_pins(button, buzzer, leds, buses)
        mqtt = self.mqtt(top.get("mqtt"))
        if self.problems:
            raise ConfigError(self.source, self.problems)
        return Config(
            leds=leds,
            pwm=led_tables.get("pwm", True),
            button=button,
            buzzer=buzzer,
            show=show,
            seed=top.get("pick", {}).get("seed"),
            pin_factory=gpio.get("pin_factory", "auto"),
            buses=buses,
            mqtt=mqtt,
            source=self.source,
        )

    def mqtt(self, fields: dict[str, Any] | None) -> MqttSettings | None:
        if fields is None or not isinstance(self.data.get("mqtt"), dict):
            return None
        raw = self.data["mqtt"]
        if "url" not in raw:
            self.problem(("mqtt",), '[mqtt] needs a url (e.g. url = "mqtt://broker:1883")')
            return None
        if "password_file" in raw and "password_env" in raw:
            self.problem(
                ("mqtt", "password_env"), "mqtt: give password_file or password_env, not both"
            )
        if str(raw.get("url", "")).startswith("mqtt://") and "ca_file" in raw:
            self.problem(("mqtt", "ca_file"), "mqtt.ca_file is for mqtts:// (TLS) addresses")
        return MqttSettings(**fields) if "url" in fields else None

    def check_pins(
        self,
        button: ButtonConfig,
        buzzer: BuzzerConfig,
        leds: dict[str, LedConfig],
        buses: tuple[str, ...],
    ) -> None:
        uses: list[tuple[tuple[str, ...], int]] = [(("button", "pin"), button.pin)]
        uses += [(("leds", colour, "pin"), led.pin) for colour, led in leds.items()]
        if buzzer.enabled:
            uses.append((("buzzer", "pin"), buzzer.pin))
        # "Already used by" names the use that comes first in the file.
        uses.sort(key=lambda use: _line_of(self.lines, use[0]) or 0)
        reserved = dict(ALWAYS_RESERVED)
        for bus in buses:
            for gpio in BUS_PINS[bus]:
                reserved[gpio] = f"the {bus.upper()} bus (enabled in [gpio] buses)"
        first_use: dict[int, str] = {}
        for path, gpio in uses:
            name = ".".join(path)
            if gpio in reserved:
                self.problem(path, f"{name}: GPIO{gpio} is reserved for {reserved[gpio]}")
            if gpio in first_use:
                self.problem(path, f"{name}: GPIO{gpio} is already used by {first_use[gpio]}")
            else:
                first_use[gpio] = name
